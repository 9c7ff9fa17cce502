import { readFile as readBytes, writeFile as writeBytes } from 'node:fs/promises';
import { extname } from 'node:path';
import { GeoframeError } from '@geoframe/core';
import { GeoDataFrame } from './geo-data-frame.js';
import { GeoSeries } from './geo-series.js';
import {
  type GeoTable,
  readArrowIpc,
  readGeoJson,
  readGeoParquet,
  writeArrowIpc,
  writeGeoJson,
  writeGeoParquet,
} from './io/index.js';

/** File formats, chosen by extension. */
export type FileFormat = 'geojson' | 'parquet' | 'arrow';

const EXTENSIONS: Record<string, FileFormat> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.parquet': 'parquet',
  '.geoparquet': 'parquet',
  '.arrow': 'arrow',
  '.feather': 'arrow',
  '.arrows': 'arrow',
  '.ipc': 'arrow',
};

/** The format of a path by its extension; an unknown extension is an error listing the known ones. */
export function formatOfPath(path: string): FileFormat {
  const format = EXTENSIONS[extname(path).toLowerCase()];
  if (!format) {
    throw new GeoframeError(
      'UNKNOWN_FORMAT',
      `cannot tell the format of "${path}": use one of ${Object.keys(EXTENSIONS).join(', ')}`,
    );
  }
  return format;
}

/** Options of {@link writeFile}. */
export interface WriteFileOptions {
  /** GeoParquet geometry encoding: 'wkb' (default, what every reader takes) or 'geoarrow' (native). */
  encoding?: 'wkb' | 'geoarrow';
  /** GeoParquet compression (default 'snappy'). */
  compression?: 'snappy' | 'zstd' | 'uncompressed';
  /** Arrow IPC: 'file' (default; .arrow/.feather) or 'stream' (.arrows). */
  ipcFormat?: 'file' | 'stream';
}

/**
 * Reads a GeoJSON (.geojson, .json), GeoParquet (.parquet) or GeoArrow IPC (.arrow, .feather,
 * .arrows) file into a GeoDataFrame, the format chosen by extension. The active geometry is the
 * GeoParquet primary column, else "geometry", else the first GeoArrow column.
 */
export async function readFile(path: string): Promise<GeoDataFrame> {
  const format = formatOfPath(path);
  const bytes = new Uint8Array(await readBytes(path));
  let geoTable: GeoTable;
  try {
    if (format === 'geojson') geoTable = readGeoJson(new TextDecoder().decode(bytes));
    else if (format === 'parquet') geoTable = await readGeoParquet(bytes);
    else geoTable = readArrowIpc(bytes);
  } catch (error) {
    if (error instanceof GeoframeError) throw error;
    throw new GeoframeError('READ_FAILED', `cannot read ${path} as ${format}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return GeoDataFrame.fromArrow(geoTable.table, { geometry: geoTable.primary ?? undefined });
}

/** Writes a GeoDataFrame or GeoSeries in the format its extension names. */
export async function writeFile(
  data: GeoDataFrame | GeoSeries,
  path: string,
  options: WriteFileOptions = {},
): Promise<void> {
  const format = formatOfPath(path);
  const frame = data instanceof GeoSeries ? GeoDataFrame.fromSeries(data) : data;
  const geoTable: GeoTable = { table: frame.table, primary: frame.geometryName };
  let bytes: Uint8Array;
  if (format === 'geojson') bytes = new TextEncoder().encode(writeGeoJson(geoTable));
  else if (format === 'parquet') {
    bytes = await writeGeoParquet(geoTable, { encoding: options.encoding, compression: options.compression });
  } else {
    const ipcFormat = options.ipcFormat ?? (extname(path).toLowerCase() === '.arrows' ? 'stream' : 'file');
    bytes = writeArrowIpc(geoTable, { format: ipcFormat });
  }
  await writeBytes(path, bytes);
}
