import type { BinaryColumn } from '../array/binary-column.js';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';

/** Options of {@link readWkt}. */
export interface ReadWktOptions {
  crs?: Crs | null;
}

/** Parses WKT strings (null/undefined rows are null). STUB: being written. */
export function readWkt(
  _values: ArrayLike<string | null | undefined> | BinaryColumn,
  _options: ReadWktOptions = {},
): GeometryArray {
  throw new Error('readWkt: not implemented yet');
}
