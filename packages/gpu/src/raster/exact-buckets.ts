import type { RasterSetup } from './raster-setup.js';

/** Most buckets of the site grid (bounds the offsets table, 16 MiB). */
const MAX_BUCKETS = 1 << 22;

/**
 * The sites of an 'exact' raster bucketed in a uniform grid of cubes (squares in 2D) over the box
 * spanning the sites and the raster, in scaled pixel units (see `RasterSetup`). Sites of a bucket
 * are contiguous (counting sort, by index within a bucket). Exact f64 duplicates keep only their
 * lowest index: every later copy has the same distance to every pixel and loses the tie.
 */
export interface SiteBuckets {
  /** Lower corner of bucket (0, 0, 0). */
  origin: [number, number, number];
  /** Edge of a bucket. */
  edge: number;
  /** Buckets along x, y, z (z is 1 in 2D). */
  counts: [number, number, number];
  /** `buckets + 1` offsets into `order`. */
  start: Uint32Array;
  /** Site indices, bucket by bucket. */
  order: Uint32Array;
  /** f32 positions in `order`'s order, 4 per site (x, y, z, 0). */
  positions: Float32Array;
}

/**
 * Buckets the sites of `setup` for the 'exact' search, about two sites per bucket (at most
 * 2^22 buckets), using the f32 positions the GPU sees, so each site lies in its bucket up to f32
 * rounding (the search's stopping bound keeps a margin for that).
 */
export function bucketSites(setup: RasterSetup, sites: Float64Array): SiteBuckets {
  const { dims } = setup;
  const stride = dims === 2 ? 2 : 4;
  const pos = setup.positions;
  const unique = uniqueSiteIndices(sites, dims);
  const { origin: lo, edge, counts } = bucketGrid(setup, unique.length);
  const buckets = counts[0] * counts[1] * counts[2];
  const key = new Uint32Array(unique.length);
  const start = new Uint32Array(buckets + 1);
  for (let k = 0; k < unique.length; k++) {
    const i = unique[k];
    let b = 0;
    for (let a = dims - 1; a >= 0; a--) {
      const cell = Math.min(counts[a] - 1, Math.max(0, Math.floor((pos[i * stride + a] - lo[a]) / edge)));
      b = b * counts[a] + cell;
    }
    key[k] = b;
    start[b + 1]++;
  }
  for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
  const fill = start.slice(0, buckets);
  const order = new Uint32Array(unique.length);
  const positions = new Float32Array(unique.length * 4);
  for (let k = 0; k < unique.length; k++) {
    const i = unique[k];
    const slot = fill[key[k]]++;
    order[slot] = i;
    for (let a = 0; a < dims; a++) positions[slot * 4 + a] = pos[i * stride + a];
  }
  return { origin: lo, edge, counts, start, order, positions };
}

/** The bucket grid of {@link SiteBuckets}, without the sites in it. */
export interface BucketGrid {
  origin: [number, number, number];
  edge: number;
  counts: [number, number, number];
}

/**
 * The bucket grid for `unique` distinct sites of `setup`: cubes (squares) over the box spanning
 * the sites' f32 positions and the raster, about two sites per bucket, at most 2^22 buckets.
 * Duplicates do not move the box, so it is the same whether they are counted or not.
 */
export function bucketGrid(setup: RasterSetup, unique: number): BucketGrid {
  const { dims, scale, count } = setup;
  const stride = dims === 2 ? 2 : 4;
  const pos = setup.positions;
  const lo = [0, 0, 0];
  const hi = [setup.width * scale[0], setup.height * scale[1], dims === 3 ? setup.depth * scale[2] : 0];
  for (let i = 0; i < count; i++) {
    for (let a = 0; a < dims; a++) {
      const v = pos[i * stride + a];
      if (v < lo[a]) lo[a] = v;
      if (v > hi[a]) hi[a] = v;
    }
  }
  const extent = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
  const target = Math.max(1, Math.min(MAX_BUCKETS, Math.ceil(unique / 2)));
  const volume = dims === 2 ? extent[0] * extent[1] : extent[0] * extent[1] * extent[2];
  let edge = (volume / target) ** (1 / dims);
  if (!(edge > 0) || !Number.isFinite(edge)) edge = Math.max(extent[0], extent[1], extent[2], 1);
  const along = (a: number) => (a < dims ? Math.max(1, Math.ceil(extent[a] / edge)) : 1);
  let counts: [number, number, number] = [along(0), along(1), along(2)];
  // elongated boxes can round up past the budget: grow the edge until it fits
  while (counts[0] * counts[1] * counts[2] > MAX_BUCKETS) {
    edge *= 1.25;
    counts = [along(0), along(1), along(2)];
  }
  return { origin: [lo[0], lo[1], lo[2]], edge, counts };
}

/**
 * Indices of the sites in increasing order, leaving out every exact duplicate of an earlier site
 * (equal coordinates as numbers, so −0 equals 0): one pass over an open-addressing hash table of
 * the coordinates' bits, O(n) (a comparison sort of 100k sites took tens of ms).
 */
export function uniqueSiteIndices(sites: Float64Array, dims: 2 | 3): Uint32Array {
  const n = sites.length / dims;
  // −0 + 0 is +0: equal numbers, equal bits
  const normal = new Float64Array(sites.length);
  for (let k = 0; k < sites.length; k++) normal[k] = sites[k] + 0;
  const words = new Uint32Array(normal.buffer);
  let size = 2;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const keep = new Uint32Array(n);
  let kept = 0;
  const w = 2 * dims;
  for (let i = 0; i < n; i++) {
    let h = 0x9e3779b9;
    for (let k = i * w; k < (i + 1) * w; k++) {
      h = Math.imul(h ^ words[k], 0x85ebca6b);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
    h ^= h >>> 16;
    let slot = h & mask;
    for (;;) {
      const j = table[slot];
      if (j < 0) {
        table[slot] = i;
        keep[kept++] = i;
        break;
      }
      let same = true;
      for (let c = 0; c < dims && same; c++) same = normal[i * dims + c] === normal[j * dims + c];
      if (same) break;
      slot = (slot + 1) & mask;
    }
  }
  return keep.slice(0, kept);
}
