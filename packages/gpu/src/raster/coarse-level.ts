import type { RasterSetup } from './raster-setup.js';
import { NO_SITE } from './raster-setup.js';

/** The deepest Facet-JFA level of a grid: the level whose grid is one pixel along every axis. */
export function maxCoarseLevel(setup: RasterSetup): number {
  return Math.ceil(Math.log2(Math.max(setup.width, setup.height, setup.depth)));
}

/**
 * Facet-JFA's coarse level, from a CPU pass over the seed pixels: the largest p (grid pixels
 * 2^p × 2^p, or 2^p cubes, at level p) at which no two seeded pixels share a coarse pixel, i.e.
 * no two sites that seed different full-resolution pixels collide. Sites seeding the same
 * full-resolution pixel collide at every level and do not count (only one of them seeds).
 * 0 when two sites collide at level 1 already (Facet-JFA is then plain JFA); the maximum level
 * when at most one pixel is seeded.
 */
export function chooseCoarseLevel(setup: RasterSetup): number {
  const { dims, width, height, depth } = setup;
  const bits = dims === 2 ? 16 : 10;
  if (Math.max(width, height, depth) <= 2 ** bits) return levelFromMortonKeys(setup);
  return levelFromCellSets(setup);
}

/**
 * {@link chooseCoarseLevel} by sorting: two pixels share a level-p cell exactly when their Morton
 * codes agree above bit dims·p, so over the sorted codes of the seeded pixels the first collision
 * is at the level just above the lowest highest-differing bit of neighbours (a radix sort,
 * ~1 ms for 100k sites; the sets of the general path took ~10).
 */
function levelFromMortonKeys(setup: RasterSetup): number {
  const { dims, width, height, seedPixel } = setup;
  const plane = width * height;
  const keys = new Uint32Array(setup.seeded);
  let m = 0;
  for (let i = 0; i < seedPixel.length; i++) {
    const p = seedPixel[i];
    if (p === NO_SITE) continue;
    const col = p % width;
    const row = Math.floor(p / width) % height;
    keys[m++] =
      dims === 2
        ? (spread2(col) | (spread2(row) << 1)) >>> 0
        : (spread3(col) | (spread3(row) << 1) | (spread3(Math.floor(p / plane)) << 2)) >>> 0;
  }
  const sorted = radixSorted(keys.subarray(0, m));
  const top = maxCoarseLevel(setup);
  let level = top;
  for (let k = 1; k < m; k++) {
    const diff = (sorted[k] ^ sorted[k - 1]) >>> 0;
    // equal codes: the same pixel, seeded once
    if (diff !== 0) level = Math.min(level, Math.floor((31 - Math.clz32(diff)) / dims));
  }
  return level;
}

/** `keys` sorted ascending: two counting passes of 16 bits (V8's `sort()` of a Uint32Array is ~10× slower). */
function radixSorted(keys: Uint32Array): Uint32Array {
  let from: Uint32Array = keys;
  let to: Uint32Array = new Uint32Array(keys.length);
  const counts = new Uint32Array(65537);
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let k = 0; k < from.length; k++) counts[((from[k] >>> shift) & 0xffff) + 1]++;
    for (let b = 1; b <= 65536; b++) counts[b] += counts[b - 1];
    for (let k = 0; k < from.length; k++) to[counts[(from[k] >>> shift) & 0xffff]++] = from[k];
    [from, to] = [to, from];
  }
  return from;
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

/** {@link chooseCoarseLevel} by sets of occupied cells, level by level (any grid size). */
export function levelFromCellSets(setup: RasterSetup): number {
  const { width, height } = setup;
  const plane = width * height;
  const seeded = new Set<number>();
  for (const p of setup.seedPixel) if (p !== NO_SITE) seeded.add(p);
  const cols: number[] = [];
  const rows: number[] = [];
  const slices: number[] = [];
  for (const p of seeded) {
    cols.push(p % width);
    rows.push(Math.floor(p / width) % height);
    slices.push(Math.floor(p / plane));
  }
  const top = maxCoarseLevel(setup);
  const cells = new Set<number>();
  for (let level = 1; level <= top; level++) {
    const w = Math.ceil(width / 2 ** level);
    const h = Math.ceil(height / 2 ** level);
    cells.clear();
    for (let k = 0; k < cols.length; k++) {
      const key = ((slices[k] >> level) * h + (rows[k] >> level)) * w + (cols[k] >> level);
      if (cells.has(key)) return level - 1;
      cells.add(key);
    }
  }
  return top;
}
