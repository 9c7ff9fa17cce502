import { isGeoArrowField } from '@geoframe/core';
import { type Data, Field, type Table } from 'apache-arrow';
import { type ColumnInput, columnFrom, columnsOf } from './column-data.js';
import { makeTable } from './make-table.js';

/** A column to set: plain input, or an already built field and data (a geometry column). */
export type ColumnSpec = ColumnInput | { field: Field; data: Data };

function isBuilt(value: ColumnSpec): value is { field: Field; data: Data } {
  return value !== null && typeof value === 'object' && 'field' in value && 'data' in value;
}

/**
 * pandas' `assign(**columns)`: each column replaces the one of that name in place or is appended,
 * in the order given. Replacing the active geometry with a non-geometry column is an error.
 */
export function assignColumns(
  table: Table,
  geometryName: string,
  columns: Record<string, ColumnSpec>,
): Table {
  const { fields, datas } = columnsOf(table);
  for (const [name, value] of Object.entries(columns)) {
    let field: Field;
    let data: Data;
    if (isBuilt(value)) {
      if (value.data.length !== table.numRows) {
        throw new RangeError(
          `assign: column "${name}" has ${value.data.length} rows, the frame ${table.numRows}`,
        );
      }
      field = value.field.clone({ name });
      data = value.data;
    } else {
      data = columnFrom(value, table.numRows, name, 'assign');
      field = new Field(name, data.type, data.nullCount > 0 || value === null);
    }
    if (name === geometryName && !isGeoArrowField(field)) {
      throw new TypeError(
        `assign: "${name}" is the active geometry column; give a GeoSeries, or setGeometry another column first`,
      );
    }
    const at = fields.findIndex((f) => f.name === name);
    if (at >= 0) {
      fields[at] = field;
      datas[at] = data;
    } else {
      fields.push(field);
      datas.push(data);
    }
  }
  return makeTable(fields, datas, table.schema.metadata);
}

function checkNames(table: Table, names: string[], caller: string): void {
  const have = new Set(table.schema.fields.map((f) => f.name));
  const missing = names.filter((n) => !have.has(n));
  if (missing.length > 0) {
    throw new RangeError(
      `${caller}: no column named ${missing.map((n) => `"${n}"`).join(', ')} (columns: ${[...have].join(', ')})`,
    );
  }
}

/**
 * pandas' `rename(columns=mapping, errors='raise')`: names not in the frame are an error, and so
 * is a result with two columns of one name. Returns the table and the active geometry's new name.
 */
export function renameColumns(
  table: Table,
  geometryName: string,
  mapping: Record<string, string>,
): { table: Table; geometryName: string } {
  checkNames(table, Object.keys(mapping), 'rename');
  const { fields, datas } = columnsOf(table);
  const renamed = fields.map((f) => (f.name in mapping ? f.clone({ name: mapping[f.name] }) : f));
  const seen = new Set<string>();
  for (const f of renamed) {
    if (seen.has(f.name)) throw new RangeError(`rename: two columns would be named "${f.name}"`);
    seen.add(f.name);
  }
  return {
    table: makeTable(renamed, datas, table.schema.metadata),
    geometryName: mapping[geometryName] ?? geometryName,
  };
}

/** pandas' `drop(columns=…)`: unknown names are an error; the active geometry cannot be dropped from a GeoDataFrame. */
export function dropColumns(table: Table, geometryName: string, names: string[]): Table {
  checkNames(table, names, 'drop');
  if (names.includes(geometryName)) {
    throw new TypeError(
      `drop: "${geometryName}" is the active geometry column; setGeometry another column first, or use toArrow() for a table without it`,
    );
  }
  const { fields, datas } = columnsOf(table);
  const keep = fields.map((f) => !names.includes(f.name));
  return makeTable(
    fields.filter((_, i) => keep[i]),
    datas.filter((_, i) => keep[i]),
    table.schema.metadata,
  );
}
