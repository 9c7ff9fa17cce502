import {
  extensionNameOfField,
  type GeoArrowEncoding,
  geoArrowEncodingOf,
  UnsupportedInputError,
} from '@geoframe/core';
import { Data, DataType, type Field, makeData, RecordBatch, Schema, Struct, Table } from 'apache-arrow';

/**
 * An Arrow table with geometry columns, as the readers return and the writers take. Geometry
 * columns are GeoArrow fields (`ARROW:extension:name` `geoarrow.*`, the CRS in
 * `ARROW:extension:metadata`); every other column is ordinary Arrow data passed through untouched.
 * `primary` names the active geometry column, or is null when the table has none.
 */
export interface GeoTable {
  table: Table;
  primary: string | null;
}

/**
 * The geometry encoding of a field from its extension name (core's `geoArrowEncodingOf`); null for
 * a field that is not a geometry column. A `geoarrow.*` name geoframe cannot read (`geoarrow.box`,
 * `geoarrow.geometry`, `geoarrow.geometrycollection`, …) is an UnsupportedInputError naming the
 * column, rather than a geometry column silently read as plain data.
 */
export function geometryEncodingOfField(field: Field): GeoArrowEncoding | null {
  const encoding = geoArrowEncodingOf(field);
  if (encoding !== null) return encoding;
  const name = extensionNameOfField(field);
  if (name?.startsWith('geoarrow.')) {
    throw new UnsupportedInputError(`column "${field.name}": the GeoArrow type ${name} is not supported`);
  }
  return null;
}

/** Names of the table's geometry columns (fields with a readable GeoArrow extension name), in order. */
export function geometryColumnNames(table: Table): string[] {
  return table.schema.fields.filter((f) => geometryEncodingOfField(f) !== null).map((f) => f.name);
}

/** The primary geometry column when no metadata names one: "geometry" if present, else the first. */
export function defaultPrimary(geometryColumns: readonly string[]): string | null {
  if (geometryColumns.includes('geometry')) return 'geometry';
  return geometryColumns[0] ?? null;
}

/** A one-batch table from fields and their column data (all of the same length). */
export function tableFromColumns(
  fields: Field[],
  columns: Data[],
  length: number,
  metadata?: Map<string, string>,
): Table {
  const schema = new Schema(fields, metadata);
  const data = makeData({ type: new Struct(fields), length, nullCount: 0, children: columns });
  return new Table(schema, [new RecordBatch(schema, data)]);
}

/**
 * A copy of `table` where `convert` may replace columns batch by batch: it gets the column's
 * index, field, one batch's data and the batch's index (a table without batches is given one
 * empty batch), and returns the new field and data of equal length, or null
 * to keep the column. Batch boundaries are kept, so the other columns are not copied. The new
 * field of a column must be the same for every batch. `metadata` replaces the schema metadata.
 */
export function mapColumns(
  table: Table,
  convert: (index: number, field: Field, data: Data, batch: number) => { field: Field; data: Data } | null,
  metadata: Map<string, string> = table.schema.metadata,
): Table {
  let fields = table.schema.fields.slice();
  // a table without batches still needs its new fields: convert one empty batch
  const inputs =
    table.batches.length > 0
      ? table.batches.map((b) => ({ children: b.data.children, length: b.numRows }))
      : [{ children: fields.map((f) => emptyData(f.type)), length: 0 }];
  const rebuilt: Data[][] = [];
  for (const [b, input] of inputs.entries()) {
    const children = input.children.slice();
    const batchFields = table.schema.fields.slice();
    for (let c = 0; c < children.length; c++) {
      const out = convert(c, table.schema.fields[c], children[c], b);
      if (out) {
        batchFields[c] = out.field;
        children[c] = out.data;
      }
    }
    fields = batchFields;
    rebuilt.push(children);
  }
  const schema = new Schema(fields, metadata);
  const batches = rebuilt.map((children, b) => {
    const data = makeData({ type: new Struct(fields), length: inputs[b].length, nullCount: 0, children });
    return new RecordBatch(schema, data);
  });
  return new Table(schema, batches);
}

/** Zero-length data of any type, nested children included. */
export function emptyData(type: DataType): Data {
  const children = (type.children ?? []).map((f: Field) => emptyData(f.type));
  const variable = DataType.isList(type) || DataType.isBinary(type) || DataType.isUtf8(type);
  const large = DataType.isLargeBinary(type) || DataType.isLargeUtf8(type) || DataType.isLargeList(type);
  const offsets = large ? new BigInt64Array(1) : variable ? new Int32Array(1) : undefined;
  return new Data(type, 0, 0, 0, [offsets, new Uint8Array(0), undefined] as never, children);
}
