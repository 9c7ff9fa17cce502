import { type Data, DataType, type Field, type Vector } from 'apache-arrow';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';
import { type ColumnType, extensionNameOf, type GeometryType } from '../array/geometry-type.js';
import { UnsupportedInputError } from '../errors.js';
import { readWkb } from '../wkb/read-wkb.js';
import { readWkt } from '../wkt/read-wkt.js';
import { binaryColumnFromArrow } from './binary-column-arrow.js';
import { concatGeometryArrays } from './concat-native.js';
import {
  encodingOfExtensionName,
  extensionNameOfField,
  type GeoArrowEncoding,
  readGeoArrowMetadata,
} from './extension-metadata.js';
import { emptyNativeArray, nativeArrayFromData } from './native-from-arrow.js';

/** Options of {@link geometryArrayFromArrow}. */
export interface FromArrowOptions {
  /** The column's field: its `ARROW:extension:name`/`ARROW:extension:metadata` say the type and CRS. */
  field?: Field;
  /** The encoding when there is no extension name: a native type, 'wkb' or 'wkt'. */
  encoding?: ColumnType | 'wkb' | 'wkt';
  /** Overrides the CRS found in the metadata (`null`: no CRS). */
  crs?: Crs | null;
}

/**
 * Reads a GeoArrow column (native, WKB or WKT) from an Arrow Data or Vector.
 *
 * The encoding comes from the field's `ARROW:extension:name` (`geoarrow.point` … `geoarrow.multipolygon`,
 * `geoarrow.wkb`, `geoarrow.wkt`, or the `ogc.wkb`/`ogc.wkt` aliases), else from `options.encoding`,
 * else from the Arrow type where that is unambiguous: FixedSizeList or Struct → point,
 * Binary/LargeBinary → WKB, Utf8/LargeUtf8 → WKT. A List column without either throws
 * UnsupportedInputError asking for `encoding`, as does an `encoding` that contradicts the
 * extension name, an unsupported GeoArrow extension (box, geometry union, …) or an Arrow type
 * that does not fit the encoding. The CRS comes from `ARROW:extension:metadata` unless
 * `options.crs` is given.
 *
 * Native columns (interleaved or separated coordinates, List or LargeList offsets): one Data,
 * or a Vector of one chunk, is read zero-copy when the layout allows (interleaved + List) —
 * `coords` and offsets are views of Arrow's buffers, slices and validity bit offsets included.
 * Several chunks are read one by one and concatenated (a copy). Nulls come from the outermost
 * validity; empty geometries are empty lists, an empty point NaN coordinates.
 *
 * WKB and WKT columns become a BinaryColumn (chunks concatenated) decoded by `readWkb`/`readWkt`.
 */
export function geometryArrayFromArrow(input: Data | Vector, options: FromArrowOptions = {}): GeometryArray {
  const chunks: readonly Data[] = isVector(input) ? input.data : [input];
  const arrowType: DataType = isVector(input) ? input.type : input.type;
  const encoding = resolveEncoding(arrowType, options);
  const metadata = options.field ? readGeoArrowMetadata(options.field) : { crs: null };
  const crs = options.crs !== undefined ? options.crs : metadata.crs;

  if (encoding === 'wkb' || encoding === 'wkt') {
    const wanted = encoding === 'wkb' ? 'Binary or LargeBinary' : 'Utf8 or LargeUtf8';
    const fits =
      encoding === 'wkb'
        ? DataType.isBinary(arrowType) || DataType.isLargeBinary(arrowType)
        : DataType.isUtf8(arrowType) || DataType.isLargeUtf8(arrowType);
    if (!fits)
      throw new UnsupportedInputError(
        `geoarrow.${encoding} needs ${wanted} storage, got ${String(arrowType)}`,
      );
    const column = binaryColumnFromArrow(input);
    return encoding === 'wkb' ? readWkb(column, { crs }) : readWkt(column, { crs });
  }
  if (chunks.length === 0) return emptyNativeArray(encoding, arrowType, crs);
  if (chunks.length === 1) return nativeArrayFromData(chunks[0], encoding, crs);
  return concatGeometryArrays(chunks.map((chunk) => nativeArrayFromData(chunk, encoding, crs)));
}

function isVector(input: Data | Vector): input is Vector {
  return Array.isArray((input as Vector).data);
}

function resolveEncoding(arrowType: DataType, options: FromArrowOptions): GeoArrowEncoding {
  const extensionName = options.field ? extensionNameOfField(options.field) : undefined;
  const fromName = encodingOfExtensionName(extensionName);
  if (extensionName && fromName === undefined && /^(geoarrow|ogc)\./.test(extensionName)) {
    throw new UnsupportedInputError(`the GeoArrow extension type ${extensionName} is not supported`);
  }
  const requested = options.encoding;
  if (requested === 'mixed') {
    throw new UnsupportedInputError(
      "encoding 'mixed' has no native GeoArrow layout; mixed columns are read as 'wkb' or 'wkt'",
    );
  }
  if (requested !== undefined) {
    if (fromName !== undefined && fromName !== requested) {
      throw new UnsupportedInputError(
        `the field says ${extensionName} but encoding ${describe(requested)} was requested`,
      );
    }
    return requested;
  }
  if (fromName !== undefined) return fromName;
  const inferred = inferEncoding(arrowType);
  if (inferred === undefined) {
    throw new UnsupportedInputError(
      `cannot tell the geometry type of a ${String(arrowType)} column without an ARROW:extension:name; pass options.encoding`,
    );
  }
  return inferred;
}

function describe(encoding: GeoArrowEncoding): string {
  return typeof encoding === 'string' ? `'${encoding}'` : extensionNameOf(encoding);
}

/** The encoding an Arrow type alone implies, where only one is possible. */
function inferEncoding(type: DataType): GeoArrowEncoding | undefined {
  if (DataType.isFixedSizeList(type) || DataType.isStruct(type)) return 1 as GeometryType.Point;
  if (DataType.isBinary(type) || DataType.isLargeBinary(type)) return 'wkb';
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return 'wkt';
  return undefined;
}
