import type { GeometryArray } from '../array/geometry-array.js';
import { rowDimension } from './row-dimension.js';

/**
 * Planar area per row, as GEOS (and GeoPandas' `area`) computes it: a polygon's area is
 * |exterior ring| − Σ |hole|, each ring's area taken as an absolute value whatever its
 * orientation; a multipolygon sums its polygons. Points and lines have area 0, empty geometries
 * 0, null rows NaN (GeoPandas reports a missing value there). Units are the square of the
 * coordinates' units (no geodesic area for geographic CRSs). Only x and y are read.
 *
 * Each ring is summed by the shoelace formula with x taken relative to the ring's first vertex,
 * the same arithmetic as GEOS, so coordinates far from the origin (e.g. 1e7-offset projected
 * data) keep their precision. Rings of fewer than 3 coordinates have area 0.
 */
export function area(array: GeometryArray): Float64Array {
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
    if (rowDimension(array, i) !== 2) continue;
    // summed in GEOS's order (polygon = shell − holes, then polygons added) for identical results
    let sum = 0;
    for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
      const firstRing = partOffsets[p];
      let polygon = 0;
      for (let r = firstRing; r < partOffsets[p + 1]; r++) {
        const ring = Math.abs(ringSignedArea(coords, stride, ringOffsets[r], ringOffsets[r + 1]));
        polygon = r === firstRing ? polygon + ring : polygon - ring;
      }
      sum += polygon;
    }
    out[i] = sum;
  }
  return out;
}

/** Signed shoelace area of the ring at coordinates `[start, end)` (positive when counter-clockwise). */
function ringSignedArea(coords: Float64Array, stride: number, start: number, end: number): number {
  if (end - start < 3) return 0;
  const x0 = coords[start * stride];
  let sum = 0;
  for (let k = start + 1; k < end - 1; k++) {
    sum += (coords[k * stride] - x0) * (coords[(k - 1) * stride + 1] - coords[(k + 1) * stride + 1]);
  }
  return sum / 2;
}
