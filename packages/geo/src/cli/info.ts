import { crsLabel, geometryTypeName, isGeoArrowField } from '@geoframe/core';
import { formatOfPath, readFile } from '../file-io.js';
import { type Command, UsageError } from './command.js';

export const infoCommand: Command = {
  name: 'info',
  summary: 'rows, geometry type, bounds, CRS and columns of a file',
  usage: `Usage: geoframe info <file> [--json]

Prints the number of rows, the active geometry column with its type, bounds and CRS, and every
column with its Arrow type.

Options:
  --json       print the same as one JSON object
  -h, --help   this text`,
  options: { json: { type: 'boolean' } },
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('info needs exactly one <file>');
    const [path] = positionals;
    const frame = await readFile(path);
    const geometry = frame.geometry.array;
    const types = new Set<string>();
    for (let i = 0; i < geometry.length; i++) {
      const type = geometry.typeOf(i);
      if (type !== null) types.add(geometryTypeName(type));
    }
    const info = {
      file: path,
      format: formatOfPath(path),
      rows: frame.length,
      geometry: {
        column: frame.geometryName,
        types: [...types],
        dimension: geometry.dimension,
        nulls: geometry.nullCount(),
        bounds: frame.totalBounds,
        crs: crsLabel(frame.crs),
      },
      columns: frame.table.schema.fields.map((f) => ({
        name: f.name,
        type: isGeoArrowField(f) ? (f.metadata.get('ARROW:extension:name') ?? 'geometry') : String(f.type),
        nullable: f.nullable,
      })),
    };
    if (values.json) {
      io.out(`${JSON.stringify(info, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...info.columns.map((c) => c.name.length));
    const lines = [
      `file:      ${info.file} (${info.format})`,
      `rows:      ${info.rows}`,
      `geometry:  ${info.geometry.column} — ${info.geometry.types.join(', ') || 'no geometries'} (${info.geometry.dimension}), ${info.geometry.nulls} null`,
      `bounds:    ${info.geometry.bounds.join(' ')}`,
      `crs:       ${info.geometry.crs ?? 'None'}`,
      'columns:',
      ...info.columns.map((c) => `  ${c.name.padEnd(width)}  ${c.type}`),
    ];
    io.out(`${lines.join('\n')}\n`);
    return 0;
  },
};
