import type { BinaryColumn } from '../array/binary-column.js';

/** Whether row `i` of a binary column is valid (not null), honouring the validity bit offset. */
export function binaryRowIsValid(column: BinaryColumn, i: number): boolean {
  if (column.validity === null) return true;
  const bit = i + column.validityOffset;
  return (column.validity[bit >> 3] & (1 << (bit & 7))) !== 0;
}

/** Position of row `i`'s first byte (or of row `i - 1`'s end) in `column.values`. */
export function binaryRowOffset(column: BinaryColumn, i: number): number {
  return Number(column.offsets[i]);
}

/** Throws a RangeError unless the offsets cover `length` rows inside `values`. */
export function checkBinaryColumn(column: BinaryColumn, what: string): void {
  if (column.offsets.length < column.length + 1) {
    throw new RangeError(`${what}: ${column.offsets.length} offsets for ${column.length} rows`);
  }
  if (column.length > 0) {
    const first = binaryRowOffset(column, 0);
    const last = binaryRowOffset(column, column.length);
    if (first < 0 || last < first || last > column.values.length) {
      throw new RangeError(`${what}: offsets ${first}..${last} fall outside ${column.values.length} bytes`);
    }
  }
}
