import type { Data, Field } from 'apache-arrow';
import type { GeometryArray } from '../array/geometry-array.js';

/** Options of {@link geometryArrayToArrow}. */
export interface ToArrowOptions {
  /** Field name; default 'geometry'. */
  name?: string;
  /** 'native' (interleaved GeoArrow; mixed columns fall back to WKB), 'wkb' or 'wkt'. */
  encoding?: 'native' | 'wkb' | 'wkt';
}

/** Writes a GeometryArray as one Arrow column with GeoArrow extension metadata. STUB: being written. */
export function geometryArrayToArrow(
  _array: GeometryArray,
  _options: ToArrowOptions = {},
): { field: Field; data: Data } {
  throw new Error('geometryArrayToArrow: not implemented yet');
}
