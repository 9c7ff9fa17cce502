import { type GeometryArray, isGeoArrowField } from '@geoframe/core';
import type { Table } from 'apache-arrow';
import { displayGeometry, shownRows, truncate } from './format-series.js';

const CELL_WIDTH = 24;
const GEOMETRY_WIDTH = 60;

/** A cell value as text: None for null, numbers to 8 significant digits, bytes by size. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(8)));
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (typeof value === 'object')
    return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value);
}

/**
 * The text a GeoDataFrame prints: a header of column names, the first and last five rows
 * (geometries as WKT, other values as text, long cells cut), and a footer with the shape, the
 * geometry column and the CRS.
 */
export function formatFrame(
  table: Table,
  geometry: GeometryArray,
  meta: { geometryName: string; crs: string | null },
): string {
  const rows = shownRows(table.numRows);
  const fields = table.schema.fields;
  const cells: string[][] = [['', ...fields.map((f) => f.name)]];
  for (const i of rows) {
    if (i < 0) {
      cells.push(['…', ...fields.map(() => '…')]);
      continue;
    }
    const line = [String(i)];
    for (const f of fields) {
      if (f.name === meta.geometryName) line.push(displayGeometry(geometry, i, GEOMETRY_WIDTH));
      else if (isGeoArrowField(f)) line.push('<geometry>');
      else line.push(truncate(formatValue(table.getChild(f.name)!.get(i)), CELL_WIDTH));
    }
    cells.push(line);
  }
  const widths = cells[0].map((_, c) => Math.max(...cells.map((row) => row[c].length)));
  const text = cells.map((row) =>
    row
      .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
  text.push(
    `[${table.numRows} rows x ${fields.length} columns; geometry: ${meta.geometryName}, crs: ${meta.crs ?? 'None'}]`,
  );
  return text.join('\n');
}
