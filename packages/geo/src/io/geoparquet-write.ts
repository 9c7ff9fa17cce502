import {
  type GeometryArray,
  type GeometryType,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  geometryTypeName,
  readGeoArrowMetadata,
  UnsupportedInputError,
} from '@geoframe/core';
import { tableToIPC } from 'apache-arrow';
import { defaultPrimary, type GeoTable, geometryEncodingOfField, mapColumns } from './geo-table.js';
import { nativeTypeFor, rebuildGeometryArray, unifyArrays } from './geometry-rebuild.js';
import { GeometryStats } from './geometry-stats.js';
import { crsToGeoParquet } from './geoparquet-crs.js';
import { GEOPARQUET_VERSION, type GeoParquetColumn, type GeoParquetMetadata } from './geoparquet-metadata.js';
import { loadParquetWasm } from './parquet-wasm.js';
import { toSeparatedArrow } from './separated-coords.js';

/** Options of {@link writeGeoParquet}. */
export interface WriteGeoParquetOptions {
  /** 'wkb' (default; ISO WKB in a binary column, what every reader takes) or 'geoarrow' (native, separated coordinates). */
  encoding?: 'wkb' | 'geoarrow';
  /** Default 'snappy', as GeoPandas. */
  compression?: 'snappy' | 'zstd' | 'uncompressed';
  /** Maximum rows per row group; default parquet-wasm's (1 048 576). */
  rowGroupSize?: number;
}

/**
 * Writes a {@link GeoTable} as GeoParquet 1.1 with parquet-wasm.
 *
 * Every GeoArrow column (native, WKB or WKT; any layout core reads) is written in `encoding`:
 * 'wkb' → a Binary column of little-endian ISO WKB; 'geoarrow' → the native GeoArrow type with
 * separated x/y[/z][/m] coordinates, except a column of several types, which has no native
 * encoding and is written as WKB (its `encoding` says so). The fields keep their GeoArrow
 * `ARROW:extension:name`/`metadata` (in Parquet's embedded Arrow schema), as GeoPandas' own files
 * do; readers that do not know them see plain binary/list columns. Other columns and schema
 * metadata pass through (a `geo` key there is replaced).
 *
 * The `geo` key-value metadata: version "1.1.0", `primary_column` (the table's primary, or
 * "geometry"/the first geometry column when null), and per geometry column `encoding`,
 * `geometry_types` (each non-null row's type with " Z"/" M"/" ZM", e.g. ["Polygon",
 * "MultiPolygon"] or ["Point Z"]), `bbox` [xmin, ymin, xmax, ymax] when any coordinate exists,
 * `edges` when the extension metadata says spherical, and `crs`: omitted for OGC:CRS84 (the
 * default), PROJJSON as it is, "EPSG:4326" written as its PROJJSON, null for no CRS, and any
 * other string CRS written as that string (read by GeoPandas and GDAL, though 1.1 asks for
 * PROJJSON).
 *
 * Throws UnsupportedInputError when the table has no geometry column.
 */
export async function writeGeoParquet(
  t: GeoTable,
  options: WriteGeoParquetOptions = {},
): Promise<Uint8Array> {
  const table = t.table;
  const fields = table.schema.fields;
  const geometry = fields.map((f) => geometryEncodingOfField(f) !== null);
  const names = fields.filter((_, c) => geometry[c]).map((f) => f.name);
  const primary = t.primary ?? defaultPrimary(names);
  if (primary === null)
    throw new UnsupportedInputError('GeoParquet needs a geometry column; the table has none');
  if (!names.includes(primary)) {
    throw new UnsupportedInputError(`GeoParquet: the primary column "${primary}" is not a geometry column`);
  }
  const encoding = options.encoding ?? 'wkb';
  const arrays = new Map<number, GeometryArray[]>();
  const columns: Record<string, GeoParquetColumn> = {};
  fields.forEach((field, c) => {
    if (!geometry[c]) return;
    const perBatch = table.batches.map((b) => geometryArrayFromArrow(b.data.children[c], { field }));
    const unified = encoding === 'geoarrow' ? unifyArrays(perBatch) : perBatch;
    const stats = new GeometryStats();
    for (const a of unified) stats.add(a);
    arrays.set(c, encoding === 'geoarrow' ? nativeLayout(unified) : unified);
    const laidOut = arrays.get(c)!;
    const native = encoding === 'geoarrow' && laidOut.length > 0 && laidOut[0].type !== 'mixed';
    const entry: GeoParquetColumn = {
      encoding: native ? geometryTypeName(laidOut[0].type as never).toLowerCase() : 'WKB',
      geometry_types: stats.geometryTypes(),
    };
    const extension = readGeoArrowMetadata(field);
    const crs = crsToGeoParquet(extension.crs);
    if (crs !== undefined) entry.crs = crs;
    const bbox = stats.bbox();
    if (bbox) entry.bbox = bbox;
    if (extension.edges === 'spherical') entry.edges = 'spherical';
    columns[field.name] = entry;
  });
  const geo: GeoParquetMetadata = { version: GEOPARQUET_VERSION, primary_column: primary, columns };
  // the Arrow schema carries `geo` too, as pyarrow writes it; `pandas` metadata inherited from a
  // file GeoPandas wrote describes that file's index and columns, not this table's
  const metadata = new Map(table.schema.metadata);
  metadata.set('geo', JSON.stringify(geo));
  metadata.delete('pandas');
  const out = mapColumns(
    table,
    (c, field, data, batch) => {
      if (!geometry[c]) return null;
      const array = arrays.get(c)?.[batch] ?? geometryArrayFromArrow(data, { field });
      if (columns[field.name].encoding === 'WKB') {
        return geometryArrayToArrow(array, { name: field.name, encoding: 'wkb' });
      }
      // the native field's extension metadata, with the separated layout
      const native = geometryArrayToArrow(array.slice(0, 0), { name: field.name, encoding: 'native' });
      return toSeparatedArrow(array, field.name, native.field.metadata);
    },
    metadata,
  );
  const parquet = await loadParquetWasm();
  const compression = {
    snappy: parquet.Compression.SNAPPY,
    zstd: parquet.Compression.ZSTD,
    uncompressed: parquet.Compression.UNCOMPRESSED,
  }[options.compression ?? 'snappy'];
  let builder = new parquet.WriterPropertiesBuilder()
    .setCompression(compression)
    .setKeyValueMetadata(new Map([['geo', JSON.stringify(geo)]]));
  if (options.rowGroupSize !== undefined) {
    if (!Number.isInteger(options.rowGroupSize) || options.rowGroupSize < 1) {
      throw new RangeError(`rowGroupSize must be a positive integer, got ${options.rowGroupSize}`);
    }
    builder = builder.setMaxRowGroupSize(options.rowGroupSize);
  }
  const wasmTable = parquet.Table.fromIPCStream(tableToIPC(out, 'stream'));
  return parquet.writeParquet(wasmTable, builder.build());
}

/**
 * Batches of a mixed column laid out for a native encoding: Polygon and MultiPolygon rows (a type
 * and its Multi type) become MultiPolygons, as GeoPandas writes them; other mixes stay mixed (WKB).
 */
function nativeLayout(arrays: GeometryArray[]): GeometryArray[] {
  if (arrays.length === 0 || arrays[0].type !== 'mixed') return arrays;
  const types = new Set<GeometryType>();
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      const t = a.typeOf(i);
      if (t !== null) types.add(t);
    }
  }
  const target = nativeTypeFor(types);
  if (target === null) return arrays;
  return arrays.map((a) => rebuildGeometryArray(a, target, a.dimension));
}
