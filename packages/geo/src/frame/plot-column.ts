import { isGeoArrowField } from '@geoframe/core';
import type { Table, Vector } from 'apache-arrow';
import type { ColumnValues } from '../plot/column-colors.js';

/** The values of an Arrow column for colouring: the typed array itself when it has no nulls, else one value per row. */
function valuesOf(vector: Vector): ColumnValues {
  if (vector.nullCount === 0) {
    const array = vector.toArray() as unknown;
    if (ArrayBuffer.isView(array) && !(array instanceof BigInt64Array || array instanceof BigUint64Array)) {
      return array as unknown as ArrayLike<number>;
    }
  }
  return Array.from({ length: vector.length }, (_, i) => {
    const v = vector.get(i);
    return typeof v === 'bigint' ? Number(v) : v;
  });
}

/**
 * `column` of a frame's `plot` as values to colour by: a column name (its values, and its name as
 * the legend's heading), or values given directly. An unknown name, or a geometry column, is a
 * RangeError listing the columns.
 */
export function plotColumn(
  table: Table,
  column: string | ColumnValues,
): { values: ColumnValues; label: string | undefined } {
  if (typeof column !== 'string') return { values: column, label: undefined };
  const field = table.schema.fields.find((f) => f.name === column);
  const names = table.schema.fields.filter((f) => !isGeoArrowField(f)).map((f) => f.name);
  if (!field || isGeoArrowField(field)) {
    throw new RangeError(
      `plot: no column named "${column}" to colour by (columns: ${names.join(', ') || 'none'})`,
    );
  }
  return { values: valuesOf(table.getChild(column) as Vector), label: column };
}
