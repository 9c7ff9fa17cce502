import type { BinaryColumn } from '../array/binary-column.js';
import type { GeometryArray } from '../array/geometry-array.js';

/** Encodes every row as little-endian ISO WKB; null rows stay null. STUB: being written. */
export function writeWkb(_array: GeometryArray): BinaryColumn {
  throw new Error('writeWkb: not implemented yet');
}
