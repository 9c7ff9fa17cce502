import type { GeometryArray } from '../array/geometry-array.js';

/** Options of {@link formatWkt} and {@link writeWkt}. */
export interface WriteWktOptions {
  /** Digits after the decimal point; default: shortest text that reads back to the same double. */
  precision?: number;
}

/** WKT of row `i`, or null for a null row. STUB: being written. */
export function formatWkt(_array: GeometryArray, _i: number, _options: WriteWktOptions = {}): string | null {
  throw new Error('formatWkt: not implemented yet');
}

/** WKT of every row. STUB: being written. */
export function writeWkt(_array: GeometryArray, _options: WriteWktOptions = {}): (string | null)[] {
  throw new Error('writeWkt: not implemented yet');
}
