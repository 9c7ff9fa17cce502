import { type Data, type Field, makeVector, type Table, type Vector, vectorFromArray } from 'apache-arrow';
import { takeColumn } from './take-column.js';

/** A column as one Arrow Data (several chunks are gathered into one). */
export function singleData(vector: Vector): Data {
  if (vector.data.length === 1) return vector.data[0];
  return takeColumn(
    vector,
    Int32Array.from({ length: vector.length }, (_, i) => i),
  );
}

/** The fields and single-chunk data of every column of `table`. */
export function columnsOf(table: Table): { fields: Field[]; datas: Data[] } {
  const fields = [...table.schema.fields];
  const datas = fields.map((f) => singleData(table.getChild(f.name)!));
  return { fields, datas };
}

/** What `assign`/`withColumn` take as a column: Arrow data, a typed array, a JS array, or one value for every row. */
export type ColumnInput = Vector | ArrayLike<unknown> | number | string | boolean | bigint | null;

/** `value` as one Arrow Data of `length` rows; a wrong length is an error naming the column. */
export function columnFrom(value: ColumnInput, length: number, name: string, caller: string): Data {
  let vector: Vector;
  if (value !== null && typeof value === 'object' && 'data' in value && 'type' in value)
    vector = value as Vector;
  else if (ArrayBuffer.isView(value)) vector = makeVector(value as never);
  else if (value === null || typeof value !== 'object') {
    vector = vectorFromArray(new Array(length).fill(value));
  } else vector = vectorFromArray(Array.from(value as ArrayLike<unknown>));
  if (vector.length !== length) {
    throw new RangeError(`${caller}: column "${name}" has ${vector.length} rows, the frame ${length}`);
  }
  return singleData(vector);
}
