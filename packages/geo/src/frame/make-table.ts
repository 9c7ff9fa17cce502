import { type Data, type Field, makeData, RecordBatch, Schema, Struct, Table } from 'apache-arrow';

/**
 * A Table from fields and their column data, keeping each field's metadata (GeoArrow's
 * extension name and CRS live there) and the schema metadata given.
 */
export function makeTable(fields: Field[], columns: Data[], metadata?: Map<string, string>): Table {
  if (fields.length !== columns.length) throw new RangeError('makeTable: one Data per field');
  const length = columns.length > 0 ? columns[0].length : 0;
  for (let i = 0; i < columns.length; i++) {
    if (columns[i].length !== length) {
      throw new RangeError(
        `makeTable: column ${fields[i].name} has ${columns[i].length} rows, expected ${length}`,
      );
    }
  }
  const schema = new Schema(fields, metadata);
  const struct = makeData({ type: new Struct(fields), length, nullCount: 0, children: columns });
  return new Table(schema, new RecordBatch(schema, struct));
}
