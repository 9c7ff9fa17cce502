import { Binary, type Data, DataType, LargeBinary, LargeUtf8, makeData, Utf8, Vector } from 'apache-arrow';
import type { BinaryColumn } from '../array/binary-column.js';
import { UnsupportedInputError } from '../errors.js';
import { compactValidity, concatValidity, validityOfData } from './validity.js';

const INT32_MAX = 2 ** 31 - 1;

/** Whether an Arrow type is Binary, LargeBinary, Utf8 or LargeUtf8 (the layouts a BinaryColumn mirrors). */
export function isBinaryLikeType(type: DataType): boolean {
  return (
    DataType.isBinary(type) ||
    DataType.isLargeBinary(type) ||
    DataType.isUtf8(type) ||
    DataType.isLargeUtf8(type)
  );
}

/**
 * A {@link BinaryColumn} over an Arrow Binary, LargeBinary, Utf8 or LargeUtf8 column (WKB or
 * WKT). One Data, or a Vector of one chunk, is wrapped without copying: `values` and `offsets`
 * are views of Arrow's buffers (offsets need not start at 0; Large* types keep BigInt64Array
 * offsets). A Vector of several chunks is concatenated into new buffers (Int32 offsets unless
 * the bytes exceed 2^31 - 1). Throws UnsupportedInputError for other Arrow types (including the
 * view types BinaryView/Utf8View).
 */
export function binaryColumnFromArrow(input: Data | Vector): BinaryColumn {
  const chunks = input instanceof Vector ? input.data : [input];
  if (chunks.length === 1) return binaryColumnFromData(chunks[0]);
  if (chunks.length === 0) {
    return {
      length: 0,
      values: new Uint8Array(0),
      offsets: new Int32Array(1),
      validity: null,
      validityOffset: 0,
    };
  }
  return concatBinaryColumns(chunks.map(binaryColumnFromData));
}

function binaryColumnFromData(data: Data): BinaryColumn {
  if (!isBinaryLikeType(data.type)) {
    throw new UnsupportedInputError(
      `expected an Arrow Binary or Utf8 column (or Large*), got ${String(data.type)}`,
    );
  }
  const length = data.length;
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  const validity = validityOfData(data);
  return {
    length,
    values: (data.values as Uint8Array | undefined) ?? new Uint8Array(0),
    offsets: offsets.subarray(0, length + 1),
    validity: validity.bitmap,
    validityOffset: validity.offset,
  };
}

/**
 * Concatenates binary columns into new compact buffers (offsets start at 0). Offsets are Int32
 * unless the total byte length exceeds 2^31 - 1, then BigInt64.
 */
export function concatBinaryColumns(columns: readonly BinaryColumn[]): BinaryColumn {
  let bytes = 0;
  let rows = 0;
  for (const c of columns) {
    bytes += Number(c.offsets[c.length]) - Number(c.offsets[0]);
    rows += c.length;
  }
  const values = new Uint8Array(bytes);
  const large = bytes > INT32_MAX;
  const offsets = large ? new BigInt64Array(rows + 1) : new Int32Array(rows + 1);
  let row = 0;
  let at = 0;
  for (const c of columns) {
    const start = Number(c.offsets[0]);
    const end = Number(c.offsets[c.length]);
    values.set(c.values.subarray(start, end), at);
    for (let i = 1; i <= c.length; i++) {
      const v = at + Number(c.offsets[i]) - start;
      if (large) (offsets as BigInt64Array)[row + i] = BigInt(v);
      else (offsets as Int32Array)[row + i] = v;
    }
    row += c.length;
    at += end - start;
  }
  const validity = concatValidity(
    columns.map((c) => ({ validity: { bitmap: c.validity, offset: c.validityOffset }, length: c.length })),
  );
  return { length: rows, values, offsets, validity, validityOffset: 0 };
}

/**
 * An Arrow Data over a {@link BinaryColumn}: Utf8 (or LargeUtf8) when `utf8`, else Binary (or
 * LargeBinary); the Large types are chosen when the column's offsets are a BigInt64Array. Values
 * and offsets are shared, not copied (offsets may start past 0, as Arrow allows); the validity
 * bitmap is shared too unless its bit offset is not a multiple of 8, then rebased into a copy.
 */
export function binaryColumnToArrow(
  column: BinaryColumn,
  utf8: boolean,
): Data<Binary | LargeBinary | Utf8 | LargeUtf8> {
  const { bitmap, nullCount } = compactValidity(column.validity, column.validityOffset, column.length);
  const common = { length: column.length, nullCount, nullBitmap: bitmap ?? undefined, data: column.values };
  const n = column.length + 1;
  if (column.offsets instanceof BigInt64Array) {
    const valueOffsets = column.offsets.subarray(0, n);
    return utf8
      ? makeData({ type: new LargeUtf8(), ...common, valueOffsets })
      : makeData({ type: new LargeBinary(), ...common, valueOffsets });
  }
  const valueOffsets = column.offsets.subarray(0, n);
  return utf8
    ? makeData({ type: new Utf8(), ...common, valueOffsets })
    : makeData({ type: new Binary(), ...common, valueOffsets });
}
