import type { RasterSetup } from './raster-setup.js';
import { NO_SITE } from './raster-setup.js';

/** Seeded sites renumbered along a Z-order curve of their seed pixels (see {@link rankSites}). */
export interface SiteRanks {
  /** Per site: its rank, or {@link NO_SITE} for a site that seeds nothing. */
  rank: Uint32Array;
  /** Per rank: the site's index (at least one entry, so that it binds). */
  original: Uint32Array;
  /** Per rank: the site's position as in `setup.positions` (2 floats in 2D, 4 in 3D; padded). */
  positions: Float32Array;
}

/** Spreads the low 16 bits of `v` to the even bits of a u32. */
function spread2(v: number): number {
  let x = v & 0xffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

/** Spreads the low 10 bits of `v` to every third bit of a u32. */
function spread3(v: number): number {
  let x = v & 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x >>> 0;
}

/**
 * Ranks the seeded sites by (Z-order key of their seed pixel at level `level`, site index): sites
 * near each other get nearby ranks, so a JFA pass's gathers of site positions through rank labels
 * touch few cache lines, and the sites of one level pixel keep their index order (the seeding's
 * "lowest index" rule picks the lowest rank). The key uses the level pixel's coordinates shifted
 * right until every axis fits 16 bits (2D) or 10 bits (3D); a stable two-pass counting sort, O(n).
 */
export function rankSites(setup: RasterSetup, level: number): SiteRanks {
  const { dims, width, height, count, seedPixel } = setup;
  const plane = width * height;
  const bits = dims === 2 ? 16 : 10;
  let shift = level;
  while (Math.max(width, height, setup.depth) >> shift >= 2 ** bits) shift++;
  const keys = new Uint32Array(count);
  let order = new Uint32Array(count);
  let m = 0;
  let maxKey = 0;
  for (let i = 0; i < count; i++) {
    const p = seedPixel[i];
    if (p === NO_SITE) continue;
    const col = (p % width) >> shift;
    const row = (Math.floor(p / width) % height) >> shift;
    let key: number;
    if (dims === 2) key = (spread2(col) | (spread2(row) << 1)) >>> 0;
    else {
      const slice = Math.floor(p / plane) >> shift;
      key = (spread3(col) | (spread3(row) << 1) | (spread3(slice) << 2)) >>> 0;
    }
    keys[i] = key;
    if (key > maxKey) maxKey = key;
    order[m++] = i;
  }
  order = order.subarray(0, m);
  // typed arrays and plain loops throughout: this runs on every JFA call (100k sites: ~1 ms)
  let scratch = new Uint32Array(m);
  const counts = new Uint32Array(65537);
  for (const half of maxKey > 0xffff ? [0, 16] : [0]) {
    counts.fill(0);
    for (let k = 0; k < m; k++) counts[((keys[order[k]] >>> half) & 0xffff) + 1]++;
    for (let b = 1; b <= 65536; b++) counts[b] += counts[b - 1];
    for (let k = 0; k < m; k++) {
      const i = order[k];
      scratch[counts[(keys[i] >>> half) & 0xffff]++] = i;
    }
    [order, scratch] = [scratch, order];
  }
  const stride = dims === 2 ? 2 : 4;
  const rank = new Uint32Array(count).fill(NO_SITE);
  const positions = new Float32Array(Math.max(1, m) * stride);
  const from = setup.positions;
  for (let r = 0; r < m; r++) {
    const i = order[r];
    rank[i] = r;
    for (let a = 0; a < stride; a++) positions[r * stride + a] = from[i * stride + a];
  }
  return { rank, original: m > 0 ? order.slice() : new Uint32Array(1), positions };
}
