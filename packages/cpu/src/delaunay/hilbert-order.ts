import { boxOfXY } from '@geoframe/core';
import { runRanges } from '../workers/worker-pool.js';
import { hilbertKeys } from './delaunay-kernels.js';

/**
 * A permutation of the sites along a Hilbert curve over their bounding box: `order[k]` is the
 * index of the k-th site on the curve. Sites close on the curve are close in the plane, so
 * walking (or triangulating) them in this order keeps memory accesses local.
 *
 * The curve has about 4 cells per site (at most 2^15 per side); sites in one cell keep their
 * relative order (the sort is stable), so the result is a deterministic function of the input.
 * Any order gives the same Voronoi diagram; this one is only about speed. Sites must be finite.
 * When `bounds` is given, the sites' bounding box is written to it (minX, minY, maxX, maxY).
 */
export function hilbertOrder(xy: Float64Array, bounds?: Float64Array): Uint32Array {
  const n = xy.length >> 1;
  if (n === 0) return new Uint32Array(0);
  const frame = curveFrame(xy, bounds);
  const keys = new Uint32Array(n);
  hilbertKeys(0, n, xy, frame, keys);
  return sortByKeys(keys, frame[5]);
}

/**
 * {@link hilbertOrder} with the keys computed on `threads` threads (`hilbertKeys` in
 * order-kernels.ts; `xy` on a SharedArrayBuffer); the same permutation.
 */
export async function hilbertOrderParallel(
  xy: Float64Array,
  threads: number,
  bounds?: Float64Array,
): Promise<Uint32Array> {
  const n = xy.length >> 1;
  if (n === 0) return new Uint32Array(0);
  const frame = curveFrame(xy, bounds);
  const keys = new Uint32Array(new SharedArrayBuffer(4 * n));
  await runRanges('hilbertKeys', n, threads, [xy, frame, keys]);
  return sortByKeys(keys, frame[5]);
}

/**
 * The curve's frame over the sites' bounding box (written to `bounds` when given): [min x, min y,
 * x scale, y scale, cells a side, bits], about 4 cells a site, at most 2^15 a side.
 */
function curveFrame(xy: Float64Array, bounds?: Float64Array): Float64Array {
  const n = xy.length >> 1;
  const { minX, minY, maxX, maxY } = boxOfXY(xy);
  if (bounds !== undefined) {
    bounds[0] = minX;
    bounds[1] = minY;
    bounds[2] = maxX;
    bounds[3] = maxY;
  }
  const bits = Math.max(1, Math.min(15, Math.ceil(Math.log2(n) / 2) + 1));
  const side = 2 ** bits;
  // map [min, max] onto [0, side - 1]; the min() at use guards the top edge against rounding up
  const sx = maxX > minX ? (side - 1) / (maxX - minX) : 0;
  const sy = maxY > minY ? (side - 1) / (maxY - minY) : 0;
  return Float64Array.of(minX, minY, sx, sy, side, bits);
}

/** The site indices ordered by key, stably: an LSD radix sort of (key, index) pairs. */
function sortByKeys(sortKeys: Uint32Array, bits: number): Uint32Array {
  const n = sortKeys.length;
  let keys: Uint32Array = sortKeys;
  let ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const keyBits = 2 * bits;
  const passes = Math.ceil(keyBits / 15);
  const digitBits = Math.ceil(keyBits / passes);
  const mask = (1 << digitBits) - 1;
  const counts = new Int32Array(mask + 2);
  let keys2: Uint32Array = new Uint32Array(n);
  let ids2 = new Uint32Array(n);
  for (let p = 0, shift = 0; p < passes; p++, shift += digitBits) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((keys[i] >>> shift) & mask) + 1]++;
    for (let d = 1; d <= mask + 1; d++) counts[d] += counts[d - 1];
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      const at = counts[(k >>> shift) & mask]++;
      keys2[at] = k;
      ids2[at] = ids[i];
    }
    [keys, keys2] = [keys2, keys];
    [ids, ids2] = [ids2, ids];
  }
  return ids;
}

/**
 * Position of cell (x, y) on the Hilbert curve of a 2^bits × 2^bits grid (bits ≤ 15): the key
 * `hilbertKeys` (order-kernels.ts) computes, one level per step, branch-free.
 */
export function hilbertIndex(x: number, y: number, bits: number): number {
  const key = new Uint32Array(1);
  hilbertKeys(0, 1, Float64Array.of(x, y), Float64Array.of(0, 0, 1, 1, 2 ** bits, bits), key);
  return key[0];
}
