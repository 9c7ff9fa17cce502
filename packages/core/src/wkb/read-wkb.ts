import type { BinaryColumn } from '../array/binary-column.js';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';

/** Options of {@link readWkb}. */
export interface ReadWkbOptions {
  crs?: Crs | null;
}

/**
 * Decodes a WKB column (ISO and extended/EWKB flavours, either byte order, Z/M) into a
 * GeometryArray. STUB: being written.
 */
export function readWkb(_column: BinaryColumn, _options: ReadWkbOptions = {}): GeometryArray {
  throw new Error('readWkb: not implemented yet');
}
