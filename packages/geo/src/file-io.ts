import { checkOptions, FileError, GeoframeError } from '@geoframe/core';
import { readBytes, writeBytes } from '#platform/files';
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
import type { ByteSource } from './platform/contract.js';

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

/** The extension of a path or URL's last segment, with its dot ('' when none), as node:path's extname. */
function extname(path: string): string {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
  const name = (url ? path.replace(/[?#].*$/, '') : path).replace(/^.*[/\\]/, '');
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
}

/** The format of a path by its extension; an unknown extension is an error listing the known ones. */
export function formatOfPath(path: string): FileFormat {
  const format = EXTENSIONS[extname(path).toLowerCase()];
  if (!format) {
    throw new FileError(
      'UNKNOWN_FORMAT',
      path,
      `cannot tell the format from the extension: use one of ${Object.keys(EXTENSIONS).join(', ')}`,
    );
  }
  return format;
}

const FORMAT_NAMES: Record<FileFormat, string> = {
  geojson: 'GeoJSON',
  parquet: 'GeoParquet',
  arrow: 'GeoArrow IPC',
};

/** A file system failure as a {@link FileError} naming the path and what went wrong. */
function fileSystemError(error: unknown, path: string, doing: 'read' | 'write'): FileError {
  const code = (error as { code?: string }).code;
  const problem =
    code === 'ENOENT'
      ? doing === 'read'
        ? 'no such file'
        : 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? `permission denied (cannot ${doing} it)`
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : `cannot ${doing} it: ${(error as Error).message}`;
  const name =
    code === 'ENOENT' && doing === 'read' ? 'FILE_NOT_FOUND' : `FILE_${doing.toUpperCase()}_FAILED`;
  return new FileError(name, path, problem, { cause: error });
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

/** Options of {@link readFile}. */
export interface ReadFileOptions {
  /** The format, when the name cannot tell it (a Blob without a name, a URL without an extension). */
  format?: FileFormat;
}

/** The name errors and format detection use for a source: its path, URL, or File name. */
function nameOf(source: ByteSource): string {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return source.href;
  return (source as { name?: string }).name ?? 'Blob';
}

/**
 * Reads a GeoJSON (.geojson, .json), GeoParquet (.parquet) or GeoArrow IPC (.arrow, .feather,
 * .arrows) file into a GeoDataFrame, the format chosen by extension unless `options.format` says
 * it. The source is a path (or `file:` URL) in Node, a URL to fetch in a page, or a Blob/File
 * (a file dropped or picked in a page) anywhere. The active geometry is the GeoParquet primary
 * column, else "geometry", else the first GeoArrow column.
 */
export async function readFile(source: ByteSource, options: ReadFileOptions = {}): Promise<GeoDataFrame> {
  checkOptions(options, ['format'], 'readFile');
  const path = nameOf(source);
  if (options.format !== undefined && !(options.format in FORMAT_NAMES)) {
    throw new FileError(
      'UNKNOWN_FORMAT',
      path,
      `format must be one of ${Object.keys(FORMAT_NAMES).join(', ')}`,
    );
  }
  const format = options.format ?? formatOfPath(path);
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(source);
  } catch (error) {
    throw fileSystemError(error, path, 'read');
  }
  let geoTable: GeoTable;
  try {
    if (format === 'geojson') geoTable = readGeoJson(new TextDecoder().decode(bytes));
    else if (format === 'parquet') geoTable = await readGeoParquet(bytes);
    else geoTable = readArrowIpc(bytes);
  } catch (error) {
    const code = error instanceof GeoframeError ? error.code : 'READ_FAILED';
    throw new FileError(
      code,
      path,
      `not a readable ${FORMAT_NAMES[format]} file: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (geoTable.primary === null) {
    // GeoPandas refuses these too ("Missing geo metadata"): no column says it holds geometry
    const columns = geoTable.table.schema.fields.map((f) => f.name).join(', ') || 'none';
    throw new FileError(
      'NO_GEOMETRY',
      path,
      `no geometry column: the file has no ${format === 'parquet' ? 'GeoParquet "geo" metadata' : 'GeoArrow extension type'} and no GeoArrow column (columns: ${columns})`,
    );
  }
  try {
    return GeoDataFrame.fromArrow(geoTable.table, { geometry: geoTable.primary });
  } catch (error) {
    if (!(error instanceof GeoframeError)) throw error;
    throw new FileError(error.code, path, error.message, { cause: error });
  }
}

/**
 * Writes a GeoDataFrame or GeoSeries in the format its extension names: a file in Node; in a
 * page, a download of that name (use {@link encodeFile} for the bytes themselves).
 */
export async function writeFile(
  data: GeoDataFrame | GeoSeries,
  path: string,
  options: WriteFileOptions = {},
): Promise<void> {
  const bytes = await encodeFile(data, path, options);
  try {
    await writeBytes(path, bytes);
  } catch (error) {
    throw fileSystemError(error, path, 'write');
  }
}

/**
 * The bytes {@link writeFile} would write to `name` (a file name or bare extension such as
 * '.parquet', which picks the format): for a page's Blob, a fetch body or a worker's message.
 */
export async function encodeFile(
  data: GeoDataFrame | GeoSeries,
  name: string,
  options: WriteFileOptions = {},
): Promise<Uint8Array> {
  checkOptions(options, ['encoding', 'compression', 'ipcFormat'], 'writeFile');
  const path = name.startsWith('.') ? `file${name}` : name;
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
  return bytes;
}
