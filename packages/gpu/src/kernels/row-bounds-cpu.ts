import type { GeometryArray } from '@geoframe/core';

/**
 * Per-row bounds `[xmin, ymin, xmax, ymax]` of a geometry column, 4 values per row, computed in
 * f64 on the CPU; the reference the GPU kernel must equal bit for bit.
 *
 * Semantics (the GPU's too):
 * - null rows, empty rows and empty points (NaN coordinates) give four NaNs;
 * - a NaN x (or y) is skipped on its own axis; an axis whose values are all NaN gives NaN;
 * - ±Infinity are ordinary values;
 * - `-0` is less than `0`, as in `Math.min`/`Math.max`: the minimum of {0, -0} is -0 and the
 *   maximum is 0;
 * - z and m are ignored.
 */
export function computeRowBoundsCpu(array: GeometryArray): Float64Array {
  const out = new Float64Array(array.length * 4).fill(Number.NaN);
  const { coords, stride } = array;
  for (let row = 0; row < array.length; row++) {
    if (array.isNull(row)) continue;
    const [start, end] = array.coordRange(row);
    let xmin = Number.NaN;
    let ymin = Number.NaN;
    let xmax = Number.NaN;
    let ymax = Number.NaN;
    for (let k = start * stride, last = end * stride; k < last; k += stride) {
      const x = coords[k];
      const y = coords[k + 1];
      if (!Number.isNaN(x)) {
        xmin = Number.isNaN(xmin) ? x : Math.min(xmin, x);
        xmax = Number.isNaN(xmax) ? x : Math.max(xmax, x);
      }
      if (!Number.isNaN(y)) {
        ymin = Number.isNaN(ymin) ? y : Math.min(ymin, y);
        ymax = Number.isNaN(ymax) ? y : Math.max(ymax, y);
      }
    }
    out[row * 4] = xmin;
    out[row * 4 + 1] = ymin;
    out[row * 4 + 2] = xmax;
    out[row * 4 + 3] = ymax;
  }
  return out;
}
