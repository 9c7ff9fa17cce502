import { UnsupportedInputError } from '@geoframe/core';
import { RecordBatch, Schema, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { featherGeoMetadata } from './feather-geo-metadata.js';
import { defaultPrimary, type GeoTable, geometryColumnNames } from './geo-table.js';
import { geoTableOf } from './geoparquet-read.js';
import { registerIpcCodecs } from './ipc-codecs.js';

/** Options of {@link writeArrowIpc}. */
export interface WriteArrowIpcOptions {
  /** 'file' (default: random-access, starts with "ARROW1"; .arrow/.feather) or 'stream' (.arrows). */
  format?: 'file' | 'stream';
}

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"

/** Whether `bytes` start with the Arrow IPC file magic "ARROW1". */
export function isArrowIpcFile(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);
}

/** Whether `bytes` start like an Arrow IPC stream: a 0xFFFFFFFF continuation marker or (legacy) a message length. */
function looksLikeIpcStream(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  const first = new DataView(bytes.buffer, bytes.byteOffset, 8).getInt32(0, true);
  return first === -1 || (first > 0 && first < bytes.length);
}

/**
 * Reads an Arrow IPC file (magic "ARROW1") or stream into a {@link GeoTable}. The table is
 * returned as it is: GeoArrow columns, found by `ARROW:extension:name`, keep their storage
 * (interleaved or separated native coordinates, geoarrow.wkb, geoarrow.wkt), which
 * `geometryArrayFromArrow` reads. Compressed IPC (LZ4 frame, Zstandard: pyarrow's Feather
 * default) is decoded. The primary column is the one the `geo` metadata names (GeoPandas'
 * `to_feather`, whose plain WKB columns are decoded as geometry), else "geometry" if that is a
 * geometry column, else the first one, else null (GeoPandas' `to_arrow` names none).
 *
 * Throws UnsupportedInputError for bytes that are not Arrow IPC, and for a column with a
 * `geoarrow.*` extension geoframe does not read.
 */
export function readArrowIpc(bytes: Uint8Array): GeoTable {
  if (!isArrowIpcFile(bytes) && !looksLikeIpcStream(bytes)) {
    throw new UnsupportedInputError('not an Arrow IPC file or stream (no "ARROW1" magic, no stream message)');
  }
  registerIpcCodecs();
  let table: ReturnType<typeof tableFromIPC>;
  try {
    table = tableFromIPC(bytes);
  } catch (error) {
    throw new UnsupportedInputError(`cannot read the Arrow IPC data: ${(error as Error).message}`);
  }
  return withGeoMetadata(table);
}

/**
 * The primary column and geometry columns of an IPC table: a `geo` schema metadata (GeoPandas'
 * `to_feather`, ours) names the primary; columns it lists that are plain binary (GeoPandas' WKB)
 * are decoded as GeoParquet's reader does. GeoArrow columns keep their storage.
 */
function withGeoMetadata(table: Table): GeoTable {
  const names = geometryColumnNames(table);
  const text = table.schema.metadata.get('geo');
  if (text === undefined) return { table, primary: defaultPrimary(names) };
  let geo: { primary_column?: unknown; columns?: Record<string, unknown> } | null = null;
  try {
    geo = JSON.parse(text);
  } catch {
    // geoTableOf names the problem
  }
  const listed = Object.keys(geo?.columns ?? {});
  if (geo === null || listed.some((c) => !names.includes(c))) return geoTableOf(table);
  const primary = typeof geo.primary_column === 'string' && names.includes(geo.primary_column);
  return { table, primary: primary ? (geo.primary_column as string) : defaultPrimary(names) };
}

/**
 * Writes the table as Arrow IPC, plain GeoArrow: geometry columns keep their extension name and
 * CRS metadata, as `geopandas.GeoDataFrame.from_arrow` reads them, and the schema gets the `geo`
 * metadata `geopandas.read_feather` requires (naming the primary column; see featherGeoMetadata).
 */
export function writeArrowIpc(t: GeoTable, options: WriteArrowIpcOptions = {}): Uint8Array {
  const geo = featherGeoMetadata(t);
  let table = t.table;
  if (geo !== null) {
    const metadata = new Map(table.schema.metadata);
    metadata.set('geo', geo);
    const schema = new Schema(table.schema.fields, metadata, table.schema.dictionaries);
    table = new Table(
      schema,
      table.batches.map((b) => new RecordBatch(schema, b.data)),
    );
  }
  return tableToIPC(table, options.format ?? 'file');
}
