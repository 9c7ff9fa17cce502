import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';

/**
 * Topological dimension of row `i`'s type: 0 for (multi)points, 1 for (multi)linestrings, 2 for
 * (multi)polygons. Only meaningful for valid rows (a null row of a mixed column has no type).
 * Internal: the measures use it to read the row → part → ring nesting as points, lines or rings.
 */
export function rowDimension(array: GeometryArray, i: number): 0 | 1 | 2 {
  const type = array.type === 'mixed' ? (array.typeIds![i] as GeometryType) : array.type;
  switch (type) {
    case GeometryType.Point:
    case GeometryType.MultiPoint:
      return 0;
    case GeometryType.LineString:
    case GeometryType.MultiLineString:
      return 1;
    default:
      return 2;
  }
}
