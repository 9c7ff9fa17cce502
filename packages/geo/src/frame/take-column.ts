import { type Data, type DataType, makeData, Type, Vector, vectorFromArray } from 'apache-arrow';

/** Where global row `i` of a chunked column lives: chunk number and row inside it. */
function locate(starts: Int32Array, i: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function isValidAt(data: Data, row: number): boolean {
  const bitmap = data.nullBitmap;
  if (!bitmap || bitmap.length === 0 || data.nullCount === 0) return true;
  const bit = data.offset + row;
  return (bitmap[bit >> 3] & (1 << (bit & 7))) !== 0;
}

/**
 * The rows at `indices` of any Arrow column, as one Data of the same type. Fixed-width,
 * boolean, string/binary and dictionary columns are gathered buffer to buffer; other nested types
 * fall back to Arrow's own builders. Works across chunks.
 */
export function takeColumn(vector: Vector, indices: ArrayLike<number>): Data {
  const chunks = vector.data;
  const starts = new Int32Array(chunks.length);
  for (let c = 1; c < chunks.length; c++) starts[c] = starts[c - 1] + chunks[c - 1].length;
  const n = indices.length;
  const chunkOf = new Int32Array(n);
  const rowOf = new Int32Array(n);
  let nulls = 0;
  const validity = new Uint8Array((n + 7) >> 3);
  for (let j = 0; j < n; j++) {
    const i = indices[j];
    if (i < 0 || i >= vector.length)
      throw new RangeError(`take: index ${i} is outside 0..${vector.length - 1}`);
    const c = locate(starts, i);
    chunkOf[j] = c;
    rowOf[j] = i - starts[c];
    if (isValidAt(chunks[c], rowOf[j])) validity[j >> 3] |= 1 << (j & 7);
    else nulls++;
  }
  const type = vector.type as DataType;
  const nullBitmap = nulls > 0 ? validity : undefined;
  const base = { type, length: n, nullCount: nulls, nullBitmap } as const;

  switch (type.typeId) {
    case Type.Null:
      return makeData({ type, length: n, nullCount: n } as never);
    case Type.Bool: {
      const values = new Uint8Array((n + 7) >> 3);
      for (let j = 0; j < n; j++) {
        const d = chunks[chunkOf[j]];
        const bit = d.offset + rowOf[j];
        if (d.values[bit >> 3] & (1 << (bit & 7))) values[j >> 3] |= 1 << (j & 7);
      }
      return makeData({ ...base, data: values } as never);
    }
    case Type.Int:
    case Type.Float:
    case Type.Date:
    case Type.Time:
    case Type.Timestamp:
    case Type.Interval:
    case Type.Duration:
    case Type.Decimal:
    case Type.FixedSizeBinary: {
      const stride = chunks[0]?.stride ?? 1;
      const first = chunks[0]?.values;
      const ctor = (first?.constructor ?? Float64Array) as { new (n: number): typeof first };
      const values = new ctor(n * stride);
      for (let j = 0; j < n; j++) {
        const d = chunks[chunkOf[j]];
        // values of a sliced Data are already offset by Arrow
        const from = rowOf[j] * stride;
        for (let s = 0; s < stride; s++) values[j * stride + s] = d.values[from + s];
      }
      return makeData({ ...base, data: values } as never);
    }
    case Type.Utf8:
    case Type.Binary:
    case Type.LargeUtf8:
    case Type.LargeBinary: {
      const large = type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary;
      let total = 0;
      for (let j = 0; j < n; j++) {
        const o = chunks[chunkOf[j]].valueOffsets;
        total += Number(o[rowOf[j] + 1]) - Number(o[rowOf[j]]);
      }
      const bytes = new Uint8Array(total);
      const offsets = large ? new BigInt64Array(n + 1) : new Int32Array(n + 1);
      let at = 0;
      for (let j = 0; j < n; j++) {
        const d = chunks[chunkOf[j]];
        const lo = Number(d.valueOffsets[rowOf[j]]);
        const hi = Number(d.valueOffsets[rowOf[j] + 1]);
        bytes.set(d.values.subarray(lo, hi), at);
        at += hi - lo;
        offsets[j + 1] = large ? BigInt(at) : (at as never);
      }
      return makeData({ ...base, valueOffsets: offsets, data: bytes } as never);
    }
    case Type.Dictionary: {
      if (chunks.some((d) => d.dictionary !== chunks[0].dictionary)) break;
      const keys = chunks[0].values;
      const ctor = keys.constructor as { new (n: number): typeof keys };
      const values = new ctor(n);
      for (let j = 0; j < n; j++) values[j] = chunks[chunkOf[j]].values[rowOf[j]];
      return makeData({ ...base, data: values, dictionary: chunks[0].dictionary } as never);
    }
  }
  // Nested types (lists, structs, maps, unions): rebuild through Arrow's builders from plain values.
  const rows = Array.from({ length: n }, (_, j) => toPlain(vector.get(indices[j])));
  return vectorFromArray(rows, type).data[0];
}

/** An Arrow value as plain JS (lists → arrays, structs and maps → objects) for Arrow's builders. */
function toPlain(value: unknown): unknown {
  if (value instanceof Vector) return Array.from(value, toPlain);
  if (value !== null && typeof value === 'object' && 'toJSON' in value && !(value instanceof Date)) {
    const json = (value as { toJSON(): unknown }).toJSON();
    if (json instanceof Map) return new Map([...json].map(([k, v]) => [k, toPlain(v)]));
    if (json !== null && typeof json === 'object') {
      return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, toPlain(v)]));
    }
    return json;
  }
  return value;
}
