import type { Data, Field, Vector } from 'apache-arrow';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';
import type { ColumnType } from '../array/geometry-type.js';

/** Options of {@link geometryArrayFromArrow}. */
export interface FromArrowOptions {
  /** The column's field: its `ARROW:extension:name`/`ARROW:extension:metadata` say the type and CRS. */
  field?: Field;
  /** The encoding when there is no extension name: a native type, 'wkb' or 'wkt'. */
  encoding?: ColumnType | 'wkb' | 'wkt';
  /** Overrides the CRS found in the metadata. */
  crs?: Crs | null;
}

/** Reads a GeoArrow column (native, WKB or WKT). STUB: being written. */
export function geometryArrayFromArrow(_input: Data | Vector, _options: FromArrowOptions = {}): GeometryArray {
  throw new Error('geometryArrayFromArrow: not implemented yet');
}
