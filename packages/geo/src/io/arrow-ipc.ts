import { UnsupportedInputError } from '@geoframe/core';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { defaultPrimary, type GeoTable, geometryColumnNames } from './geo-table.js';

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
 * `geometryArrayFromArrow` reads. The primary column is "geometry" if that is a geometry column,
 * else the first one, else null: GeoPandas' `to_arrow` writes no metadata naming it.
 *
 * Throws UnsupportedInputError for bytes that are not Arrow IPC, and for a column with a
 * `geoarrow.*` extension geoframe does not read.
 */
export function readArrowIpc(bytes: Uint8Array): GeoTable {
  if (!isArrowIpcFile(bytes) && !looksLikeIpcStream(bytes)) {
    throw new UnsupportedInputError('not an Arrow IPC file or stream (no "ARROW1" magic, no stream message)');
  }
  let table: ReturnType<typeof tableFromIPC>;
  try {
    table = tableFromIPC(bytes);
  } catch (error) {
    throw new UnsupportedInputError(`cannot read the Arrow IPC data: ${(error as Error).message}`);
  }
  return { table, primary: defaultPrimary(geometryColumnNames(table)) };
}

/**
 * Writes the table as Arrow IPC, plain GeoArrow: geometry columns keep their extension name and
 * CRS metadata, as `geopandas.GeoDataFrame.from_arrow` reads them. Nothing records which column
 * is primary, so on reading it is "geometry" or the first geometry column again; a primary with
 * another name, after other geometry columns, is not recovered.
 */
export function writeArrowIpc(t: GeoTable, options: WriteArrowIpcOptions = {}): Uint8Array {
  return tableToIPC(t.table, options.format ?? 'file');
}
