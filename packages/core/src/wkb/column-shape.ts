import { type ColumnType, type Dimension, GeometryType } from '../array/geometry-type.js';

/** Dimension flag: the geometry has z values. */
export const HAS_Z = 1;
/** Dimension flag: the geometry has m values. */
export const HAS_M = 2;

/** The {@link Dimension} of a set of {@link HAS_Z}/{@link HAS_M} flags. */
export function dimensionOfFlags(flags: number): Dimension {
  switch (flags & (HAS_Z | HAS_M)) {
    case HAS_Z:
      return 'xyz';
    case HAS_M:
      return 'xym';
    case HAS_Z | HAS_M:
      return 'xyzm';
    default:
      return 'xy';
  }
}

/** The {@link HAS_Z}/{@link HAS_M} flags of a {@link Dimension}. */
export function flagsOfDimension(dimension: Dimension): number {
  return (dimension.includes('z') ? HAS_Z : 0) | (dimension.includes('m') ? HAS_M : 0);
}

/**
 * The column type for the set of row types seen, given as a bit mask (`1 << type` per type):
 * one type → that type; several → `'mixed'`, each row keeping its own type as in GeoPandas (a
 * Polygon row next to MultiPolygon rows stays a Polygon). No types at all (no rows, or only
 * nulls) → Point, the smallest layout.
 */
export function columnTypeOfMask(mask: number): ColumnType {
  if (mask === 0) return GeometryType.Point;
  if ((mask & (mask - 1)) === 0) return (31 - Math.clz32(mask)) as GeometryType;
  return 'mixed';
}
