/** Options of {@link uniqueSites}. */
export interface UniqueSitesOptions {
  /**
   * Snapping distance. 0 (default) removes exact duplicates only. Above 0, a site within this
   * Euclidean distance (inclusive) of an already kept site is dropped and maps to the nearest
   * such kept site (the earliest on a tie).
   */
  tolerance?: number;
}

/** The result of {@link uniqueSites}. */
export interface UniqueSites {
  /** Interleaved xy of the kept sites, in order of first appearance. */
  xy: Float64Array;
  /** For each input vertex, the index of the kept site it became. */
  siteOfInput: Int32Array;
  /** For each kept site, the input vertex it was taken from (its first appearance). */
  inputOfSite: Int32Array;
}

/**
 * Removes duplicate sites, keeping the first appearance of each, in input order.
 *
 * With `tolerance > 0` a greedy rule applies in input order: a later site within `tolerance`
 * of an already kept site is dropped and maps to it; kept sites are never moved. This is not
 * GEOS' rule: `voronoiPolygons` / `delaunayTriangles` use `geosToleranceSites` (`@geoframe/cpu`),
 * which keeps the sites GEOS keeps. The search
 * uses a grid hash with cells of size `tolerance`, so it costs O(n) for spread-out sites.
 * Exact duplicates compare by value (`-0` equals `0`). Inputs must be finite.
 */
export function uniqueSites(xy: Float64Array, options: UniqueSitesOptions = {}): UniqueSites {
  const tolerance = options.tolerance ?? 0;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(`tolerance must be a finite number >= 0, got ${tolerance}`);
  }
  const n = xy.length >> 1;
  const siteOfInput = new Int32Array(n);
  const inputOfSiteAll = new Int32Array(n);
  const kept = new Float64Array(2 * n);
  let count = 0;
  if (tolerance === 0) {
    const table = new HashTable(n);
    for (let i = 0; i < n; i++) {
      const x = xy[2 * i] + 0; // + 0 turns -0 into 0
      const y = xy[2 * i + 1] + 0;
      const found = table.get(x, y);
      if (found >= 0) {
        siteOfInput[i] = found;
        continue;
      }
      kept[2 * count] = x;
      kept[2 * count + 1] = y;
      table.set(x, y, count);
      inputOfSiteAll[count] = i;
      siteOfInput[i] = count++;
    }
  } else {
    const grid = new HashTable(n);
    const next = new Int32Array(n); // chain of kept sites sharing a grid cell
    const t2 = tolerance * tolerance;
    for (let i = 0; i < n; i++) {
      const x = xy[2 * i] + 0;
      const y = xy[2 * i + 1] + 0;
      const gx = Math.floor(x / tolerance);
      const gy = Math.floor(y / tolerance);
      let best = -1;
      let bestD = Number.POSITIVE_INFINITY;
      for (let ox = -1; ox <= 1; ox++) {
        for (let oy = -1; oy <= 1; oy++) {
          for (let s = grid.get(gx + ox, gy + oy); s >= 0; s = next[s]) {
            const dx = kept[2 * s] - x;
            const dy = kept[2 * s + 1] - y;
            const d = dx * dx + dy * dy;
            if (d <= t2 && (d < bestD || (d === bestD && s < best))) {
              best = s;
              bestD = d;
            }
          }
        }
      }
      if (best >= 0) {
        siteOfInput[i] = best;
        continue;
      }
      kept[2 * count] = x;
      kept[2 * count + 1] = y;
      next[count] = grid.get(gx, gy);
      grid.set(gx, gy, count);
      inputOfSiteAll[count] = i;
      siteOfInput[i] = count++;
    }
  }
  return {
    xy: kept.slice(0, 2 * count),
    siteOfInput,
    inputOfSite: inputOfSiteAll.slice(0, count),
  };
}

/**
 * Open-addressing hash from an (x, y) pair of doubles to an int, sized once for `n` keys.
 * Used both as an exact-coordinate set and as a grid-cell → chain-head map.
 */
class HashTable {
  private readonly mask: number;
  private readonly keys: Float64Array;
  private readonly values: Int32Array;
  private readonly bits = new Float64Array(2);
  private readonly words = new Uint32Array(this.bits.buffer);

  constructor(n: number) {
    let size = 16;
    while (size < 2 * n) size *= 2;
    this.mask = size - 1;
    this.keys = new Float64Array(2 * size);
    this.values = new Int32Array(size).fill(-1);
  }

  private slot(x: number, y: number): number {
    this.bits[0] = x;
    this.bits[1] = y;
    const w = this.words;
    let h = Math.imul(w[0] ^ Math.imul(w[1], 0x9e3779b1), 0x85ebca6b);
    h ^= Math.imul(w[2] ^ (h >>> 15), 0xc2b2ae35);
    h ^= Math.imul(w[3] ^ (h >>> 13), 0x27d4eb2f);
    h ^= h >>> 16;
    let i = h & this.mask;
    while (this.values[i] !== -1 && (this.keys[2 * i] !== x || this.keys[2 * i + 1] !== y)) {
      i = (i + 1) & this.mask;
    }
    return i;
  }

  /** The value stored for exactly (x, y), or -1. */
  get(x: number, y: number): number {
    return this.values[this.slot(x, y)];
  }

  /** Stores (or replaces) the value of (x, y). */
  set(x: number, y: number, value: number): void {
    const i = this.slot(x, y);
    this.keys[2 * i] = x;
    this.keys[2 * i + 1] = y;
    this.values[i] = value;
  }
}
