import {
  checkOptions,
  FileError,
  GeoframeError,
  type ProgressOption,
  ProgressReporter,
} from '@geoframe/core';
import { readBytes, writeBytes } from '#platform/files';
import { GeoDataFrame } from './geo-data-frame.js';
import { GeoSeries } from './geo-series.js';
import { writeFlatGeobuf } from './io/flatgeobuf.js';
import {
  type GeoTable,
  readArrowIpc,
  readGeoJson,
  readGeoParquet,
  writeArrowIpc,
  writeGeoJson,
  writeGeoParquet,
} from './io/index.js';
import { readVectorFormat } from './io/vector-formats.js';
import type { ByteSource } from './platform/contract.js';

/** File formats, chosen by extension. */
export type FileFormat = 'geojson' | 'parquet' | 'arrow' | 'shapefile' | 'flatgeobuf' | 'geopackage';

const EXTENSIONS: Record<string, FileFormat> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.parquet': 'parquet',
  '.geoparquet': 'parquet',
  '.arrow': 'arrow',
  '.feather': 'arrow',
  '.arrows': 'arrow',
  '.ipc': 'arrow',
  '.shp': 'shapefile',
  '.zip': 'shapefile',
  '.fgb': 'flatgeobuf',
  '.gpkg': 'geopackage',
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
  shapefile: 'Shapefile',
  flatgeobuf: 'FlatGeobuf',
  geopackage: 'GeoPackage',
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
  /** Hears progress on big files (stages 'encode', 'write'; see `voronoiPolygons`). */
  onProgress?: ProgressOption;
}

/** Options of {@link readFile}. */
export interface ReadFileOptions {
  /** The format, when the name cannot tell it (a Blob without a name, a URL without an extension). */
  format?: FileFormat;
  /** Hears progress on big files (stages 'read', 'decode', 'frame'; see `voronoiPolygons`). */
  onProgress?: ProgressOption;
  /** GeoPackage: the feature table to read (needed when the file has several). */
  layer?: string;
}

/** The name errors and format detection use for a source: its path, URL, or File name. */
function nameOf(source: ByteSource): string {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return source.href;
  return (source as { name?: string }).name ?? 'Blob';
}

/**
 * Reads a GeoJSON (.geojson, .json), GeoParquet (.parquet), GeoArrow IPC or Feather (.arrow,
 * .feather, .arrows; LZ4/Zstandard compressed too), Shapefile (.shp with its .dbf/.prj/.cpg
 * beside it, or a .zip holding one), FlatGeobuf (.fgb) or GeoPackage (.gpkg) file into a
 * GeoDataFrame, the format chosen by extension unless `options.format` says it. The source is a
 * path (or `file:` URL) in Node, a URL to fetch in a page, or a Blob/File (a file dropped or
 * picked in a page) anywhere. The active geometry is the file's primary column (GeoParquet/Feather
 * `geo` metadata), else "geometry", else the first GeoArrow column.
 */
export async function readFile(source: ByteSource, options: ReadFileOptions = {}): Promise<GeoDataFrame> {
  checkOptions(options, ['format', 'onProgress', 'layer'], 'readFile');
  const path = nameOf(source);
  if (options.format !== undefined && !(options.format in FORMAT_NAMES)) {
    throw new FileError(
      'UNKNOWN_FORMAT',
      path,
      `format must be one of ${Object.keys(FORMAT_NAMES).join(', ')}`,
    );
  }
  const format = options.format ?? formatOfPath(path);
  const progress = new ProgressReporter('readFile', options.onProgress, [
    { name: 'read', weight: 1, unit: 'bytes' },
    { name: 'decode', weight: 4, unit: 'bytes' },
    { name: 'frame', weight: 1, unit: 'rows' },
  ]);
  progress.stage('read');
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(source);
  } catch (error) {
    throw fileSystemError(error, path, 'read');
  }
  progress.stage('decode', bytes.length);
  let geoTable: GeoTable;
  try {
    if (format === 'geojson') geoTable = readGeoJson(new TextDecoder().decode(bytes));
    else if (format === 'parquet') geoTable = await readGeoParquet(bytes);
    else if (format === 'arrow') geoTable = readArrowIpc(bytes);
    else geoTable = await readVectorFormat(format, path, bytes, options);
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
    progress.stage('frame', geoTable.table.numRows);
    const frame = GeoDataFrame.fromArrow(geoTable.table, { geometry: geoTable.primary });
    progress.finish();
    return frame;
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
  checkOptions(options, ['encoding', 'compression', 'ipcFormat', 'onProgress'], 'writeFile');
  const { onProgress, ...encoding } = options;
  const progress = new ProgressReporter('writeFile', onProgress, [
    { name: 'encode', weight: 4, unit: 'rows' },
    { name: 'write', weight: 1, unit: 'bytes' },
  ]);
  progress.stage('encode', data.length);
  const bytes = await encodeFile(data, path, encoding);
  progress.stage('write', bytes.length);
  try {
    await writeBytes(path, bytes);
  } catch (error) {
    throw fileSystemError(error, path, 'write');
  }
  progress.finish();
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
  if (format === 'shapefile' || format === 'geopackage') {
    throw new FileError(
      'UNSUPPORTED_WRITE',
      path,
      `geoframe reads ${FORMAT_NAMES[format]} but does not write it: write .fgb or .parquet instead`,
    );
  }
  if (format === 'flatgeobuf') {
    try {
      bytes = writeFlatGeobuf(geoTable);
    } catch (error) {
      throw new FileError('WRITE_FAILED', path, (error as Error).message, { cause: error });
    }
  } else if (format === 'geojson') bytes = new TextEncoder().encode(writeGeoJson(geoTable));
  else if (format === 'parquet') {
    try {
      bytes = await writeGeoParquet(geoTable, {
        encoding: options.encoding,
        compression: options.compression,
      });
    } catch (error) {
      // parquet-wasm traps ("unreachable") when its 4 GiB WebAssembly memory runs out
      if (!(error instanceof Error && error.name === 'RuntimeError')) throw error; // WebAssembly.RuntimeError
      throw new FileError(
        'FILE_WRITE_FAILED',
        path,
        `the GeoParquet encoder (parquet-wasm) failed on ${frame.length} rows (${error.message}), most likely out of its 4 GiB WebAssembly memory: write .arrow (GeoArrow IPC) for data this large`,
        { cause: error },
      );
    }
  } else {
    const ipcFormat = options.ipcFormat ?? (extname(path).toLowerCase() === '.arrows' ? 'stream' : 'file');
    bytes = writeArrowIpc(geoTable, { format: ipcFormat });
  }
  return bytes;
}
