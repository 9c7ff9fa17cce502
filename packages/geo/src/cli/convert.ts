import { readFile, writeFile } from '../file-io.js';
import { type Command, UsageError } from './command.js';
import { checkOutputs } from './voronoi.js';

export const convertCommand: Command = {
  name: 'convert',
  summary:
    'convert between GeoJSON, GeoParquet, GeoArrow IPC/Feather, FlatGeobuf (and read Shapefile, GeoPackage)',
  usage: `Usage: geoframe convert <in> <out> [options]

Reads <in> and writes <out>, each format chosen by extension:
  .geojson .json            GeoJSON (RFC 7946)
  .parquet                  GeoParquet 1.1
  .arrow .feather .arrows   GeoArrow in Arrow IPC (file; .arrows: stream); LZ4/Zstandard read
  .fgb                      FlatGeobuf
  .shp .zip                 Shapefile (read only; .zip holding one)
  .gpkg                     GeoPackage (read only; one feature table)

Options:
  --encoding wkb|geoarrow   GeoParquet geometry encoding (default wkb)
  --compression snappy|zstd|uncompressed   GeoParquet compression (default snappy)
  -h, --help                this text`,
  options: {
    encoding: { type: 'string' },
    compression: { type: 'string' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 2) throw new UsageError('convert needs <in> and <out>');
    const [input, output] = positionals;
    checkOutputs(output, undefined); // fail on an unknown output extension before reading anything
    const encoding = values.encoding as string | undefined;
    if (encoding !== undefined && encoding !== 'wkb' && encoding !== 'geoarrow') {
      throw new UsageError(`--encoding must be wkb or geoarrow, got "${encoding}"`);
    }
    const compression = values.compression as string | undefined;
    if (compression !== undefined && !['snappy', 'zstd', 'uncompressed'].includes(compression)) {
      throw new UsageError(`--compression must be snappy, zstd or uncompressed, got "${compression}"`);
    }
    const started = performance.now();
    const frame = await readFile(input);
    await writeFile(frame, output, {
      encoding: encoding as 'wkb' | 'geoarrow' | undefined,
      compression: compression as 'snappy' | 'zstd' | 'uncompressed' | undefined,
    });
    const ms = (performance.now() - started).toFixed(0);
    io.out(`wrote ${output}: ${frame.length} rows, ${frame.columns.length} columns (${ms} ms)\n`);
    return 0;
  },
};
