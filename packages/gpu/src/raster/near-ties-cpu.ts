import type { BucketGrid, SiteBuckets } from './exact-buckets.js';
import { TIE_FACTOR } from './exact-kernel.js';
import type { RasterSetup } from './raster-setup.js';

/**
 * The centre of pixel (col, row, slice) in coordinate units, in f64, by the documented formula
 * `xmin + (col + 0.5)·(xmax − xmin)/width`, `ymax − (row + 0.5)·(ymax − ymin)/height`,
 * `zmin + (slice + 0.5)·(zmax − zmin)/depth` (evaluated left to right), into `out`.
 */
export function pixelCentre(
  setup: RasterSetup,
  col: number,
  row: number,
  slice: number,
  out: Float64Array,
): void {
  const { bounds, dims, width, height, depth } = setup;
  out[0] = bounds[0] + ((col + 0.5) * (bounds[dims] - bounds[0])) / width;
  out[1] = bounds[dims + 1] - ((row + 0.5) * (bounds[dims + 1] - bounds[1])) / height;
  out[2] = dims === 3 ? bounds[2] + ((slice + 0.5) * (bounds[5] - bounds[2])) / depth : 0;
}

/**
 * Re-decides the pixels `ties` (linear indices) that the 'exact' kernel found f32 near-ties: the
 * candidates are found in f64 from the same buckets and f32 positions (every site within twice
 * the GPU's tolerance of the nearest), then the nearest to the pixel centre by the f64 squared
 * distance `dx² + dy² (+ dz²)` in coordinate units, ties to the lower index, becomes the label
 * (and its distance, when `distance` is given); with `labelOf`, the labels are `labelOf[site]`
 * (as the GPU's relabel pass wrote them). Returns how many labels changed.
 */
export function redecideNearTies(
  setup: RasterSetup,
  sites: Float64Array,
  buckets: SiteBuckets,
  ties: Uint32Array,
  labels: Int32Array,
  distance?: Float32Array,
  labelOf?: Int32Array | Uint32Array,
): number {
  const { dims, width, height, scale } = setup;
  const { origin, edge, counts, start, order, positions } = buckets;
  const centre = new Float64Array(3);
  const c = new Float64Array(3);
  const candidates: number[] = [];
  const candidateD: number[] = [];
  const margin = boundMargin(setup, buckets);
  const floor = toleranceFloor(setup);
  const out = { labels, distance, labelOf };
  const rmax = Math.max(counts[0], counts[1], counts[2]);
  const bc = [0, 0, 0];
  let changed = 0;
  for (const p of ties) {
    const col = p % width;
    const row = Math.floor(p / width) % height;
    const slice = Math.floor(p / (width * height));
    c[0] = (col + 0.5) * scale[0];
    c[1] = (row + 0.5) * scale[1];
    c[2] = (slice + 0.5) * scale[2];
    const mc = Math.max(c[0], c[1], c[2]) + floor;
    const tol = (d1s: number, d2s: number) =>
      4 * TIE_FACTOR * (mc * (Math.sqrt(d1s) + Math.sqrt(d2s)) + d1s + d2s);
    for (let a = 0; a < 3; a++) {
      bc[a] = Math.min(counts[a] - 1, Math.max(0, Math.floor((c[a] - origin[a]) / edge)));
    }
    candidates.length = 0;
    candidateD.length = 0;
    let best = Number.POSITIVE_INFINITY;
    for (let r = 0; r < rmax; r++) {
      for (let bz = Math.max(0, bc[2] - r); bz <= Math.min(counts[2] - 1, bc[2] + r); bz++) {
        for (let by = Math.max(0, bc[1] - r); by <= Math.min(counts[1] - 1, bc[1] + r); by++) {
          const full = Math.abs(bz - bc[2]) === r || Math.abs(by - bc[1]) === r;
          const step = full ? 1 : Math.max(2 * r, 1);
          for (let bx = bc[0] - r; bx <= bc[0] + r; bx += step) {
            if (bx < 0 || bx >= counts[0]) continue;
            const b = (bz * counts[1] + by) * counts[0] + bx;
            for (let k = start[b]; k < start[b + 1]; k++) {
              const dx = positions[k * 4] - c[0];
              const dy = positions[k * 4 + 1] - c[1];
              const dz = positions[k * 4 + 2] - c[2];
              const d = dx * dx + dy * dy + dz * dz;
              if (d < best) best = d;
              candidates.push(order[k]);
              candidateD.push(d);
            }
          }
        }
      }
      let bound = Number.POSITIVE_INFINITY;
      for (let a = 0; a < dims; a++) {
        if (bc[a] - r > 0) bound = Math.min(bound, c[a] - (origin[a] + (bc[a] - r) * edge));
        if (bc[a] + r < counts[a] - 1) bound = Math.min(bound, origin[a] + (bc[a] + r + 1) * edge - c[a]);
      }
      if (bound === Number.POSITIVE_INFINITY) break;
      bound -= margin;
      if (bound > 0 && bound * bound > best + 2 * tol(best, bound * bound)) break;
    }
    pixelCentre(setup, col, row, slice, centre);
    const near = (k: number) => candidateD[k] - best <= tol(best, candidateD[k]);
    const [winner, winnerD] = nearestOf(sites, dims, centre, candidates, 0, candidates.length, near);
    if (writeLabel(out, p, winner, winnerD)) changed++;
  }
  return changed;
}

/**
 * The f64-nearest site to `centre` among `ids[from .. to)` that `keep` lets through (every one
 * by default), the lowest index on a tie, and its squared distance; −1 and +∞ for none.
 */
function nearestOf(
  sites: Float64Array,
  dims: 2 | 3,
  centre: Float64Array,
  ids: ArrayLike<number>,
  from: number,
  to: number,
  keep: (k: number) => boolean = () => true,
): [number, number] {
  let winner = -1;
  let winnerD = Number.POSITIVE_INFINITY;
  for (let k = from; k < to; k++) {
    if (!keep(k)) continue;
    const i = ids[k] as number;
    const d = squaredDistance(sites, dims, i, centre);
    if (d < winnerD || (d === winnerD && i < winner)) {
      winnerD = d;
      winner = i;
    }
  }
  return [winner, winnerD];
}

/** Pixel `p` takes site `winner` (its input row through `labelOf`): whether its label changed. */
function writeLabel(
  out: { labels: Int32Array; distance?: Float32Array; labelOf?: Int32Array | Uint32Array },
  p: number,
  winner: number,
  winnerD: number,
): boolean {
  const label = out.labelOf && winner >= 0 ? (out.labelOf[winner] as number) : winner;
  const changed = label !== out.labels[p];
  out.labels[p] = label;
  if (out.distance) out.distance[p] = Math.sqrt(winnerD);
  return changed;
}

/** f64 squared distance from site `i` to `centre` in coordinate units: dx² + dy² (+ dz²). */
export function squaredDistance(sites: Float64Array, dims: 2 | 3, i: number, centre: Float64Array): number {
  const dx = sites[i * dims] - centre[0];
  const dy = sites[i * dims + 1] - centre[1];
  if (dims === 2) return dx * dx + dy * dy;
  const dz = sites[i * dims + 2] - centre[2];
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Absolute margin taken off the ring search's distance bound: the f32 rounding of site positions
 * (their bucket was chosen from the same f32 values, but in f64) and of bucket borders computed
 * in f32 from origin and edge.
 */
export function boundMargin(setup: RasterSetup, buckets: BucketGrid): number {
  const reach =
    Math.max(...buckets.origin.map(Math.abs)) + buckets.edge * Math.max(...buckets.counts) + setup.magnitude;
  return 16 * 2 ** -24 * reach;
}

/**
 * The tolerance's floor term (scaled pixel units): the f64 reference's rounding of pixel centres,
 * relative to the bounds' magnitude over a pixel width, which grows with large offsets.
 */
export function toleranceFloor(setup: RasterSetup): number {
  const offset = Math.max(...setup.bounds.map(Math.abs)) / setup.pixelSize[0];
  return 4 * 2 ** -29 * offset + 1e-6;
}

/**
 * Re-decides the near-ties `ties` from the candidates the GPU listed for them (`count[t]` sites
 * in `candidates[t·k …]`, a superset of the sites within the near-tie tolerance of the nearest):
 * the candidate nearest to the pixel centre by the f64 squared distance, ties to the lower index,
 * becomes the label (`labelOf[site]` with `labelOf`) and its distance. A tie with more than `k`
 * candidates is left alone and pushed to `overflow` (for {@link redecideNearTies}). Returns how
 * many labels changed.
 */
export function redecideFromCandidates(
  setup: RasterSetup,
  sites: Float64Array,
  ties: Uint32Array,
  count: Uint32Array,
  candidates: Uint32Array,
  k: number,
  out: { labels: Int32Array; distance?: Float32Array; labelOf?: Int32Array | Uint32Array },
  overflow: number[],
): number {
  const { dims, width, height } = setup;
  const centre = new Float64Array(3);
  let changed = 0;
  for (let t = 0; t < ties.length; t++) {
    const p = ties[t];
    const n = count[t];
    if (n > k) {
      overflow.push(p);
      continue;
    }
    const col = p % width;
    const row = Math.floor(p / width) % height;
    pixelCentre(setup, col, row, Math.floor(p / (width * height)), centre);
    const [winner, winnerD] = nearestOf(sites, dims, centre, candidates, t * k, t * k + n);
    if (writeLabel(out, p, winner, winnerD)) changed++;
  }
  return changed;
}
