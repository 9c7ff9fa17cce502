import type { Table } from 'apache-arrow';
import { type ColumnKeys, columnKeys, compareKeys } from './column-keys.js';

/** Options of `sortBy` (pandas' `sort_values`). */
export interface SortByOptions {
  /** Ascending (default true), one flag for all keys or one per key. */
  ascending?: boolean | boolean[];
  /** Where nulls (and NaN) go: 'last' (default) or 'first', whatever the direction. */
  naPosition?: 'last' | 'first';
}

/**
 * The row order of pandas' `sort_values(by, ascending, na_position, kind='stable')`: rows
 * ordered by the first key, ties by the next, remaining ties in their original order. The keys are
 * read once into typed arrays; the sort permutes an Int32Array of row numbers.
 */
export function sortIndices(table: Table, by: string | string[], options: SortByOptions = {}): Int32Array {
  const names = typeof by === 'string' ? [by] : by;
  if (names.length === 0) throw new RangeError('sortBy: name at least one column');
  const ascending = options.ascending ?? true;
  const flags = typeof ascending === 'boolean' ? names.map(() => ascending) : ascending;
  if (flags.length !== names.length) {
    throw new RangeError(`sortBy: ${flags.length} ascending flags for ${names.length} keys`);
  }
  const naPosition = options.naPosition ?? 'last';
  if (naPosition !== 'last' && naPosition !== 'first') {
    throw new RangeError(`sortBy: naPosition must be 'last' or 'first', got "${naPosition}"`);
  }
  const keys: ColumnKeys[] = names.map((name) => {
    const vector = table.getChild(name);
    if (!vector) {
      const columns = table.schema.fields.map((f) => f.name).join(', ');
      throw new RangeError(`sortBy: no column named "${name}" (columns: ${columns})`);
    }
    return columnKeys(vector, name, 'sortBy');
  });
  const nullSign = naPosition === 'last' ? 1 : -1;
  const order = Int32Array.from({ length: table.numRows }, (_, i) => i);
  order.sort((i, j) => {
    for (let k = 0; k < keys.length; k++) {
      const { values, nulls } = keys[k];
      const ni = nulls[i];
      const nj = nulls[j];
      if (ni || nj) {
        if (ni && nj) continue;
        return ni ? nullSign : -nullSign;
      }
      const c = compareKeys(values[i], values[j]);
      if (c !== 0) return flags[k] ? c : -c;
    }
    return i - j; // stable, whatever the engine's sort
  });
  return order;
}
