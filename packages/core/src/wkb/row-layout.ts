import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';

/**
 * Where a row's parts, rings and coordinates are, in the normalized row → part → ring →
 * coordinate nesting, without materializing identity offset arrays (so looking at one row costs
 * O(1) set-up). A null level is the identity: item `k` has the single child `k`. For example a
 * LineString column has `parts = rings = null` (row i is part i is ring i) and `coords` = its
 * offsets; a Point column has all three null (row i is coordinate i).
 */
export interface RowLayout {
  /** Row → first part, or null (row i is part i). */
  parts: Int32Array | null;
  /** Part → first ring, or null (part p is ring p). */
  rings: Int32Array | null;
  /** Ring → first coordinate, or null (ring r is the single coordinate r). */
  coords: Int32Array | null;
}

/** The {@link RowLayout} of an array's native offsets. */
export function rowLayoutOf(array: GeometryArray): RowLayout {
  const o = array.offsets;
  switch (array.type) {
    case GeometryType.Point:
      return { parts: null, rings: null, coords: null };
    case GeometryType.LineString:
      return { parts: null, rings: null, coords: o[0] };
    case GeometryType.MultiPoint:
      return { parts: o[0], rings: null, coords: null };
    case GeometryType.Polygon:
      return { parts: null, rings: o[0], coords: o[1] };
    case GeometryType.MultiLineString:
      return { parts: o[0], rings: null, coords: o[1] };
    default:
      return { parts: o[0], rings: o[1], coords: o[2] };
  }
}
