import { type GeometryArray, geometryArrayToArrow } from '@geoframe/core';
import type { Table } from 'apache-arrow';
import { makeTable } from '../frame/make-table.js';
import { checkSameCrs } from './crs-resolve.js';
import { type Column, gatherColumn } from './join-columns.js';
import { type OverlayHow, overlayRows } from './overlay.js';
import type { JoinSide } from './sjoin.js';

/**
 * GeoPandas' `overlay(df1, df2, how)` as a table: df1's attribute columns, df2's (a name on both
 * sides gets `_1` / `_2`), then the geometry under df1's geometry name; null where a piece has no
 * row on that side. Row order: see `overlayRows`.
 */
export function overlayTable(a: JoinSide, b: JoinSide, how: OverlayHow): Table {
  checkSameCrs(a.geometry.crs, b.geometry.crs, 'overlay');
  const rows = overlayRows(a.geometry, b.geometry, how);
  const aFields = a.table.schema.fields.filter((f) => f.name !== a.geometryName);
  const bFields = how === 'difference' ? [] : b.table.schema.fields.filter((f) => f.name !== b.geometryName);
  const aNames = new Set(aFields.map((f) => f.name));
  const bNames = new Set(bFields.map((f) => f.name));
  const columns: Column[] = [];
  for (const f of aFields)
    columns.push(gatherColumn(a.table, f, rows.left, bNames.has(f.name) ? `${f.name}_1` : f.name));
  for (const f of bFields)
    columns.push(gatherColumn(b.table, f, rows.right, aNames.has(f.name) ? `${f.name}_2` : f.name));
  columns.push(geometryColumn(rows.geometry, a.geometryName));
  return makeTable(
    columns.map((c) => c.field),
    columns.map((c) => c.data),
  );
}

/** A geometry column from an array. */
export function geometryColumn(geometry: GeometryArray, name: string): Column {
  return geometryArrayToArrow(geometry, { name });
}

/** The table's rows at `rows` with `geometry` replacing its geometry column (explode, clip). */
export function replaceRows(
  table: Table,
  geometryName: string,
  rows: Int32Array,
  geometry: GeometryArray,
): Table {
  const columns = table.schema.fields.map((f) =>
    f.name === geometryName ? geometryColumn(geometry, geometryName) : gatherColumn(table, f, rows),
  );
  return makeTable(
    columns.map((c) => c.field),
    columns.map((c) => c.data),
    table.schema.metadata,
  );
}
