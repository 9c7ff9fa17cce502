import { Type, type Vector } from 'apache-arrow';

/**
 * A column's values as comparable, hashable keys, read once in bulk: numbers stay in a typed
 * array (NaN standing for null, as pandas reads it), 64-bit integers become numbers when they are
 * exact (else bigints), everything else comes from Arrow's own reader (strings, booleans, dates
 * as epoch milliseconds). `isNull(i)` is pandas' `isna`.
 */
export interface ColumnKeys {
  readonly values: ArrayLike<unknown>;
  readonly nulls: Uint8Array;
  readonly numeric: boolean;
}

/** Reads `vector` as {@link ColumnKeys}; geometry and nested columns are rejected by name. */
export function columnKeys(vector: Vector, name: string, caller: string): ColumnKeys {
  const n = vector.length;
  const nulls = new Uint8Array(n);
  const typeId = vector.type.typeId;
  if (
    typeId === Type.List ||
    typeId === Type.Struct ||
    typeId === Type.FixedSizeList ||
    typeId === Type.Map
  ) {
    throw new TypeError(
      `${caller}: column "${name}" holds nested values (${vector.type}), which cannot be keys`,
    );
  }
  if (vector.nullCount > 0) for (let i = 0; i < n; i++) nulls[i] = vector.isValid(i) ? 0 : 1;
  if (typeId === Type.Int || typeId === Type.Float) {
    const raw = vector.toArray() as ArrayLike<number | bigint>;
    if (raw instanceof BigInt64Array || raw instanceof BigUint64Array) {
      const exact = Array.from(raw, (v) => (v <= 2n ** 53n && v >= -(2n ** 53n) ? Number(v) : v));
      return { values: exact, nulls, numeric: true };
    }
    const values = raw as ArrayLike<number>;
    if (typeId === Type.Float) for (let i = 0; i < n; i++) if (Number.isNaN(values[i])) nulls[i] = 1;
    return { values, nulls, numeric: true };
  }
  const values = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    if (nulls[i]) continue;
    const v = vector.get(i);
    values[i] =
      v instanceof Date
        ? v.getTime()
        : typeof v === 'bigint' && v <= 2n ** 53n && v >= -(2n ** 53n)
          ? Number(v)
          : v;
    if (v === null || v === undefined) nulls[i] = 1;
    else if (typeof v === 'object') {
      throw new TypeError(`${caller}: column "${name}" holds ${vector.type} values, which cannot be keys`);
    }
  }
  return { values, nulls, numeric: false };
}

/** Ascending order of two non-null keys (numbers and bigints by value, strings by code unit). */
export function compareKeys(a: unknown, b: unknown): number {
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}
