import { type Data, Field } from 'apache-arrow';
import type { BinaryColumn } from '../array/binary-column.js';
import type { GeometryArray } from '../array/geometry-array.js';
import { extensionNameOf } from '../array/geometry-type.js';
import { writeWkb } from '../wkb/write-wkb.js';
import { writeWkt } from '../wkt/write-wkt.js';
import { binaryColumnToArrow } from './binary-column-arrow.js';
import { geoArrowFieldMetadata } from './extension-metadata.js';
import { nativeArrayToData } from './native-to-arrow.js';

/** Options of {@link geometryArrayToArrow}. */
export interface ToArrowOptions {
  /** Field name; default 'geometry'. */
  name?: string;
  /** 'native' (interleaved GeoArrow; mixed columns fall back to WKB), 'wkb' or 'wkt'. */
  encoding?: 'native' | 'wkb' | 'wkt';
}

/**
 * Writes a GeometryArray as one Arrow column with GeoArrow extension metadata.
 *
 * 'native' (default): the interleaved GeoArrow layout of the array's type (see
 * `nativeArrayToData`), extension name `geoarrow.<type>`; a mixed array is written as WKB
 * instead. 'wkb': `geoarrow.wkb` in Binary (LargeBinary past 2^31 - 1 bytes) via `writeWkb`.
 * 'wkt': `geoarrow.wkt` in Utf8 via `writeWkt`. The field is nullable; its
 * `ARROW:extension:metadata` is `{"crs": …, "crs_type": …}` for an array with a CRS (PROJJSON
 * object or string as held; crs_type when it can be told) and `{}` without one. Null rows stay
 * null; the buffers of an unsliced array are shared, not copied.
 */
export function geometryArrayToArrow(
  array: GeometryArray,
  options: ToArrowOptions = {},
): { field: Field; data: Data } {
  const name = options.name ?? 'geometry';
  const encoding = options.encoding ?? 'native';
  let data: Data;
  let extensionName: string;
  if (encoding === 'wkt') {
    data = binaryColumnToArrow(stringsToColumn(writeWkt(array)), true);
    extensionName = 'geoarrow.wkt';
  } else if (encoding === 'wkb' || array.type === 'mixed') {
    data = binaryColumnToArrow(writeWkb(array), false);
    extensionName = 'geoarrow.wkb';
  } else {
    data = nativeArrayToData(array);
    extensionName = extensionNameOf(array.type);
  }
  const field = new Field(name, data.type, true, geoArrowFieldMetadata(extensionName, array.crs));
  return { field, data };
}

/** UTF-8 bytes of the strings as a BinaryColumn; null entries become null rows. */
function stringsToColumn(strings: readonly (string | null)[]): BinaryColumn {
  const encoder = new TextEncoder();
  const encoded = strings.map((s) => (s === null ? null : encoder.encode(s)));
  const offsets = new Int32Array(strings.length + 1);
  let bytes = 0;
  encoded.forEach((e, i) => {
    bytes += e?.length ?? 0;
    offsets[i + 1] = bytes;
  });
  const values = new Uint8Array(bytes);
  encoded.forEach((e, i) => {
    if (e) values.set(e, offsets[i]);
  });
  const hasNull = strings.includes(null);
  let validity: Uint8Array | null = null;
  if (hasNull) {
    validity = new Uint8Array((strings.length + 7) >> 3);
    strings.forEach((s, i) => {
      if (s !== null) validity![i >> 3] |= 1 << (i & 7);
    });
  }
  return { length: strings.length, values, offsets, validity, validityOffset: 0 };
}
