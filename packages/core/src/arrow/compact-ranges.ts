import type { GeometryArray } from '../array/geometry-array.js';

/**
 * The items of each offset level that a GeometryArray's rows reach: entry `k` is the half-open
 * range `[lo, hi)` of items at depth `k` (0: rows, then the children of each offset level, the
 * last one coordinates). A slice shares its parent's inner buffers, so its reachable items are
 * a window of them; writers and concatenation copy or view just that window.
 */
export function reachableRanges(array: GeometryArray): [number, number][] {
  const ranges: [number, number][] = [[0, array.length]];
  let [lo, hi] = ranges[0];
  for (const level of array.offsets) {
    [lo, hi] = [level[lo], level[hi]];
    ranges.push([lo, hi]);
  }
  return ranges;
}
