import { type Data, Field, Float64, Int32, makeData, type Table } from 'apache-arrow';
import { columnKeys, compareKeys } from './column-keys.js';
import { makeTable } from './make-table.js';
import { takeColumn } from './take-column.js';

/** Options of `valueCounts` (pandas' `Series.value_counts`). */
export interface ValueCountsOptions {
  /** Order by count (default true): descending unless `ascending`; else in first-seen order. */
  sort?: boolean;
  /** With `sort`, smallest counts first (default false). */
  ascending?: boolean;
  /** Leave nulls out (default true); false counts them as one value, a null key row. */
  dropna?: boolean;
  /** Proportions (count / rows counted) in a Float64 column `proportion` instead of `count`. */
  normalize?: boolean;
}

/** Rows of the first occurrence of each distinct value, and how many rows hold it (nulls: key -1 when kept). */
function distinctRows(table: Table, name: string, caller: string, dropna: boolean) {
  const vector = table.getChild(name);
  if (!vector) {
    const columns = table.schema.fields.map((f) => f.name).join(', ');
    throw new RangeError(`${caller}: no column named "${name}" (columns: ${columns})`);
  }
  const { values, nulls } = columnKeys(vector, name, caller);
  const slot = new Map<unknown, number>();
  const first: number[] = [];
  const counts: number[] = [];
  let nullSlot = -1;
  for (let i = 0; i < table.numRows; i++) {
    if (nulls[i]) {
      if (dropna) continue;
      if (nullSlot < 0) {
        nullSlot = first.length;
        first.push(i);
        counts.push(0);
      }
      counts[nullSlot]++;
      continue;
    }
    const s = slot.get(values[i]);
    if (s === undefined) {
      slot.set(values[i], first.length);
      first.push(i);
      counts.push(1);
    } else counts[s]++;
  }
  return { vector, values, first, counts, nullSlot };
}

/** A table of the distinct values of column `name` and their counts (pandas' `value_counts().reset_index()`). */
export function valueCounts(table: Table, name: string, options: ValueCountsOptions = {}): Table {
  const { vector, first, counts } = distinctRows(table, name, 'valueCounts', options.dropna ?? true);
  const order = Int32Array.from(first.keys());
  if (options.sort ?? true) {
    const sign = options.ascending ? 1 : -1;
    order.sort((a, b) => sign * (counts[a] - counts[b]) || a - b); // ties in first-seen order
  }
  const keys = takeColumn(
    vector,
    Int32Array.from(order, (s) => first[s]),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const countColumn = options.normalize
    ? numbers(
        'proportion',
        Float64Array.from(order, (s) => counts[s] / total),
      )
    : int32(
        'count',
        Array.from(order, (s) => counts[s]),
      );
  const keyField = table.schema.fields.find((f) => f.name === name)!;
  return makeTable([keyField.clone({ nullable: true }), countColumn.field], [keys, countColumn.data]);
}

/**
 * Rows per group of column `by` (pandas' `groupby(by).size().reset_index(name='count')`): one row
 * per distinct non-null value, in ascending key order.
 */
export function countBy(table: Table, by: string): Table {
  const { vector, values, first, counts } = distinctRows(table, by, 'countBy', true);
  const order = Int32Array.from(first.keys());
  order.sort((a, b) => compareKeys(values[first[a]], values[first[b]]));
  const keys = takeColumn(
    vector,
    Int32Array.from(order, (s) => first[s]),
  );
  const countColumn = int32(
    'count',
    Array.from(order, (s) => counts[s]),
  );
  const keyField = table.schema.fields.find((f) => f.name === by)!;
  return makeTable([keyField, countColumn.field], [keys, countColumn.data]);
}

/** Counts as Int32 (numbers in JS, where pandas has int64: a frame never holds 2³¹ rows). */
function int32(name: string, counts: number[]): { field: Field; data: Data } {
  const data = makeData({ type: new Int32(), length: counts.length, data: Int32Array.from(counts) });
  return { field: new Field(name, new Int32(), false), data };
}

function numbers(name: string, values: Float64Array): { field: Field; data: Data } {
  const data = makeData({ type: new Float64(), length: values.length, data: values });
  return { field: new Field(name, new Float64(), false), data };
}
