import { type GeometryArray, geometryArrayToArrow, isGeoArrowField } from '@geoframe/core';
import { Field, Float64, makeData, type Table, Type } from 'apache-arrow';
import { makeTable } from '../frame/make-table.js';
import { type Column, gatherColumn } from './join-columns.js';
import { fromJsts } from './jsts-geometry.js';
import { unionAllJsts } from './overlay.js';

/** How `dissolve` aggregates the other columns (pandas' names). */
export type AggFunc = 'first' | 'last' | 'sum' | 'min' | 'max' | 'mean';

/** Options of `dissolve`. */
export interface DissolveOptions {
  /** The column whose values form the groups; default: one group of every row. */
  by?: string;
  /** Aggregation of the other columns (default 'first': the first non-null value, as pandas). */
  aggfunc?: AggFunc;
}

/**
 * GeoPandas' `dissolve(by, aggfunc).reset_index()`: one row per distinct non-null value of `by`,
 * in sorted order, its geometry the union of the group's geometries (jsts' cascaded union), the
 * other columns aggregated. Columns: `by`, the geometry, then the others in order. 'first'/'last'
 * keep types; numeric aggregates give Float64 (sum of nothing is 0; min, max, mean of nothing
 * null) and reject non-numeric columns.
 */
export function dissolveTable(
  table: Table,
  geometryName: string,
  geometry: GeometryArray,
  options: DissolveOptions = {},
): Table {
  const aggfunc = options.aggfunc ?? 'first';
  if (!['first', 'last', 'sum', 'min', 'max', 'mean'].includes(aggfunc)) {
    throw new TypeError(`dissolve: aggfunc must be first, last, sum, min, max or mean, got "${aggfunc}"`);
  }
  const groups = groupRows(table, options.by);
  const union = groups.map((rows) => unionAllJsts(geometry, rows));
  const geometryField = table.schema.fields.find((f) => f.name === geometryName)!;
  const { field, data } = geometryArrayToArrow(fromJsts(union, geometry.crs), { name: geometryName });
  const columns: Column[] = [];
  if (options.by !== undefined) {
    const byField = table.schema.fields.find((f) => f.name === options.by)!;
    columns.push(
      gatherColumn(
        table,
        byField,
        Int32Array.from(groups, (rows) => rows[0]),
      ),
    );
  }
  columns.push({ field: field.clone({ metadata: field.metadata ?? geometryField.metadata }), data });
  for (const f of table.schema.fields) {
    if (f.name === options.by || f.name === geometryName || isGeoArrowField(f)) continue;
    columns.push(aggregate(table, f, groups, aggfunc));
  }
  return makeTable(
    columns.map((c) => c.field),
    columns.map((c) => c.data),
  );
}

/** Row lists per group, groups in sorted key order, rows ascending; null keys dropped. */
function groupRows(table: Table, by: string | undefined): number[][] {
  const n = table.numRows;
  if (by === undefined) return n === 0 ? [] : [Array.from({ length: n }, (_, i) => i)];
  const column = table.getChild(by);
  if (!column) throw new RangeError(`dissolve: no column named "${by}"`);
  const groups = new Map<unknown, number[]>();
  for (let i = 0; i < n; i++) {
    const v = column.get(i);
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) continue;
    const key = typeof v === 'object' ? JSON.stringify(v) : v;
    const rows = groups.get(key);
    if (rows) rows.push(i);
    else groups.set(key, [i]);
  }
  const keys = [...groups.keys()].sort((x, y) => (x! < y! ? -1 : x! > y! ? 1 : 0));
  return keys.map((k) => groups.get(k)!);
}

function aggregate(table: Table, field: Field, groups: number[][], aggfunc: AggFunc): Column {
  const column = table.getChild(field.name)!;
  if (aggfunc === 'first' || aggfunc === 'last') {
    const pick = groups.map((rows) => {
      const order = aggfunc === 'first' ? rows : [...rows].reverse();
      return order.find((i) => column.isValid(i) && !Number.isNaN(column.get(i))) ?? order[0];
    });
    return gatherColumn(table, field, Int32Array.from(pick));
  }
  const numeric = [Type.Int, Type.Float, Type.Decimal].includes(field.type.typeId);
  if (!numeric)
    throw new TypeError(
      `dissolve: aggfunc "${aggfunc}" needs numeric columns; "${field.name}" is ${field.type}`,
    );
  const out = new Float64Array(groups.length);
  const validity = new Uint8Array((groups.length + 7) >> 3);
  let nulls = 0;
  groups.forEach((rows, g) => {
    const values = rows
      .filter((i) => column.isValid(i))
      .map((i) => Number(column.get(i)))
      .filter((v) => !Number.isNaN(v));
    let v: number | null;
    if (aggfunc === 'sum') v = values.reduce((s, x) => s + x, 0);
    else if (values.length === 0) v = null;
    else if (aggfunc === 'min') v = Math.min(...values);
    else if (aggfunc === 'max') v = Math.max(...values);
    else v = values.reduce((s, x) => s + x, 0) / values.length;
    if (v === null) nulls++;
    else {
      out[g] = v;
      validity[g >> 3] |= 1 << (g & 7);
    }
  });
  const data = makeData({
    type: new Float64(),
    length: groups.length,
    nullCount: nulls,
    nullBitmap: nulls ? validity : undefined,
    data: out,
  });
  return { field: new Field(field.name, new Float64(), nulls > 0), data };
}
