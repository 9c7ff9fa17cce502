import type { GeometryArray } from '../array/geometry-array.js';
import { rowDimension } from './row-dimension.js';

/**
 * Planar length per row, as GEOS (and GeoPandas' `length`) computes it: the length of a
 * (multi)linestring; the perimeter of a (multi)polygon, holes included; 0 for points and empty
 * geometries; NaN for null rows. Units are the coordinates' units (no geodesic length for
 * geographic CRSs). Only x and y are read.
 */
export function lengthOf(array: GeometryArray): Float64Array {
  const n = array.length;
  const out = new Float64Array(n);
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const coords = array.coords;
  const stride = array.stride;
  for (let i = 0; i < n; i++) {
    if (!array.isValid(i)) {
      out[i] = Number.NaN;
      continue;
    }
    if (rowDimension(array, i) === 0) continue;
    // summed in GEOS's order (rings per part, then parts) for identical results
    let sum = 0;
    for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
      let part = 0;
      for (let r = partOffsets[p]; r < partOffsets[p + 1]; r++) {
        part += runLength(coords, stride, ringOffsets[r], ringOffsets[r + 1]);
      }
      sum += part;
    }
    out[i] = sum;
  }
  return out;
}

/** Length of the coordinate run `[start, end)`. */
function runLength(coords: Float64Array, stride: number, start: number, end: number): number {
  let len = 0;
  for (let k = (start + 1) * stride, last = end * stride; k < last; k += stride) {
    const dx = coords[k] - coords[k - stride];
    const dy = coords[k + 1] - coords[k - stride + 1];
    len += Math.sqrt(dx * dx + dy * dy);
  }
  return len;
}
