import { readFile as readBytes, writeFile as writeBytes } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  checkOptions,
  FileError,
  GeoframeError,
  type ProgressOption,
  ProgressReporter,
} from '@geoframe/core';
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
  /** Hears progress on big files (stages 'read', 'decode', 'frame'; see `voronoiPolygons`). */
  onProgress?: ProgressOption;
  /** GeoPackage: the feature table to read (needed when the file has several). */
  layer?: string;
}

/**
 * Reads a GeoJSON (.geojson, .json), GeoParquet (.parquet), GeoArrow IPC or Feather (.arrow,
 * .feather, .arrows; LZ4/Zstandard compressed too), Shapefile (.shp with its .dbf/.prj/.cpg
 * beside it, or a .zip holding one), FlatGeobuf (.fgb) or GeoPackage (.gpkg) file into a
 * GeoDataFrame, the format chosen by extension. The active geometry is the file's primary column
 * (GeoParquet/Feather `geo` metadata), else "geometry", else the first GeoArrow column.
 */
export async function readFile(path: string, options: ReadFileOptions = {}): Promise<GeoDataFrame> {
  checkOptions(options, ['onProgress', 'layer'], 'readFile');
  const format = formatOfPath(path);
  const progress = new ProgressReporter('readFile', options.onProgress, [
    { name: 'read', weight: 1, unit: 'bytes' },
    { name: 'decode', weight: 4, unit: 'bytes' },
    { name: 'frame', weight: 1, unit: 'rows' },
  ]);
  progress.stage('read');
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readBytes(path));
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

/** Writes a GeoDataFrame or GeoSeries in the format its extension names. */
export async function writeFile(
  data: GeoDataFrame | GeoSeries,
  path: string,
  options: WriteFileOptions = {},
): Promise<void> {
  checkOptions(options, ['encoding', 'compression', 'ipcFormat', 'onProgress'], 'writeFile');
  const format = formatOfPath(path);
  const frame = data instanceof GeoSeries ? GeoDataFrame.fromSeries(data) : data;
  const progress = new ProgressReporter('writeFile', options.onProgress, [
    { name: 'encode', weight: 4, unit: 'rows' },
    { name: 'write', weight: 1, unit: 'bytes' },
  ]);
  progress.stage('encode', frame.length);
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
  progress.stage('write', bytes.length);
  try {
    await writeBytes(path, bytes);
  } catch (error) {
    throw fileSystemError(error, path, 'write');
  }
  progress.finish();
}
