import { Bool, type Data, Field, Float64, Int64, makeData, Null, Utf8 } from 'apache-arrow';

/**
 * Field metadata key marking a Utf8 column whose values are JSON text (GeoJSON properties holding
 * objects, arrays or values of several JSON types). {@link writeGeoJson} writes those values back
 * as JSON, not as strings.
 */
export const JSON_COLUMN_KEY = 'geoframe:json';

/** Field metadata key marking the column that holds the GeoJSON feature `id`. */
export const FEATURE_ID_KEY = 'geoframe:feature_id';

type Kind = 'null' | 'int64' | 'float64' | 'utf8' | 'bool' | 'json';

/**
 * The column type for a property's values (null/undefined are missing values): numbers all
 * integers within ±(2^53 − 1) → Int64, other numbers → Float64, strings → Utf8, booleans → Bool,
 * no value at all → Null; objects, arrays or a mix of JSON types → Utf8 JSON text.
 */
export function propertyKind(values: readonly unknown[]): Kind {
  let numbers = false;
  let integers = true;
  let strings = false;
  let bools = false;
  let other = false;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') {
      numbers = true;
      if (!Number.isSafeInteger(v)) integers = false;
    } else if (typeof v === 'string') strings = true;
    else if (typeof v === 'boolean') bools = true;
    else other = true;
  }
  const kinds = Number(numbers) + Number(strings) + Number(bools) + Number(other);
  if (kinds === 0) return 'null';
  if (kinds > 1 || other) return 'json';
  if (numbers) return integers ? 'int64' : 'float64';
  return strings ? 'utf8' : 'bool';
}

function validity(values: readonly unknown[]): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null || values[i] === undefined) nulls++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  }
  return { bitmap, nulls };
}

function utf8Data(strings: readonly (string | null)[], nullBitmap: Uint8Array, nullCount: number): Data {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const valueOffsets = new Int32Array(strings.length + 1);
  let size = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    if (s !== null) {
      const bytes = encoder.encode(s);
      parts.push(bytes);
      size += bytes.length;
    }
    valueOffsets[i + 1] = size;
  }
  const data = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  return makeData({ type: new Utf8(), length: strings.length, nullCount, nullBitmap, valueOffsets, data });
}

/** Builds one typed property column (see {@link propertyKind}); the field is nullable. */
export function buildPropertyColumn(
  name: string,
  values: readonly unknown[],
  metadata: Map<string, string> = new Map(),
): { field: Field; data: Data } {
  const kind = propertyKind(values);
  const n = values.length;
  const { bitmap, nulls } = validity(values);
  const nullBitmap = nulls > 0 ? bitmap : undefined;
  let data: Data;
  switch (kind) {
    case 'null':
      data = makeData({ type: new Null(), length: n });
      break;
    case 'int64': {
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) if (typeof values[i] === 'number') out[i] = BigInt(values[i] as number);
      data = makeData({ type: new Int64(), length: n, nullCount: nulls, nullBitmap, data: out });
      break;
    }
    case 'float64': {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) if (typeof values[i] === 'number') out[i] = values[i] as number;
      data = makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap, data: out });
      break;
    }
    case 'bool': {
      const out = new Uint8Array((n + 7) >> 3);
      for (let i = 0; i < n; i++) if (values[i] === true) out[i >> 3] |= 1 << (i & 7);
      data = makeData({ type: new Bool(), length: n, nullCount: nulls, nullBitmap, data: out });
      break;
    }
    case 'utf8':
      data = utf8Data(
        values.map((v) => (typeof v === 'string' ? v : null)),
        bitmap,
        nulls,
      );
      break;
    case 'json':
      metadata = new Map(metadata).set(JSON_COLUMN_KEY, 'true');
      data = utf8Data(
        values.map((v) => (v === null || v === undefined ? null : JSON.stringify(v))),
        bitmap,
        nulls,
      );
      break;
  }
  return { field: new Field(name, data.type, true, metadata), data };
}
