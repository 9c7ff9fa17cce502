import type { GeometryArray } from '../array/geometry-array.js';

/**
 * Per-row planar bounding boxes, as GeoPandas' `bounds`: 4 values per row,
 * `[minx, miny, maxx, maxy]` at `4 * row`. Null and empty rows (POINT EMPTY included) give four
 * NaN. Only x and y are read; z and m are ignored. NaN ordinates (an empty point inside a
 * multipoint) are skipped.
 */
export function bounds(array: GeometryArray): Float64Array {
  const n = array.length;
  const out = new Float64Array(4 * n);
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const coords = array.coords;
  const stride = array.stride;
  for (let i = 0; i < n; i++) {
    let minx = Number.POSITIVE_INFINITY;
    let miny = Number.POSITIVE_INFINITY;
    let maxx = Number.NEGATIVE_INFINITY;
    let maxy = Number.NEGATIVE_INFINITY;
    if (array.isValid(i)) {
      // a row's coordinates are contiguous, whatever its nesting
      const end = ringOffsets[partOffsets[geometryOffsets[i + 1]]] * stride;
      for (let k = ringOffsets[partOffsets[geometryOffsets[i]]] * stride; k < end; k += stride) {
        const x = coords[k];
        const y = coords[k + 1];
        // comparisons with NaN are false, so NaN ordinates never win
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
      }
    }
    const j = 4 * i;
    const hasX = minx <= maxx;
    const hasY = miny <= maxy;
    out[j] = hasX ? minx : Number.NaN;
    out[j + 1] = hasY ? miny : Number.NaN;
    out[j + 2] = hasX ? maxx : Number.NaN;
    out[j + 3] = hasY ? maxy : Number.NaN;
  }
  return out;
}
