import type { Data } from 'apache-arrow';

/** A validity bitmap with the bit position of row 0; `bitmap` null means every row is valid. */
export interface Validity {
  bitmap: Uint8Array | null;
  offset: number;
}

/**
 * The validity of an Arrow Data's rows. In Arrow JS, `data.offset` is the bit position of row 0
 * in the null bitmap (the value and offset buffers of a slice already start at row 0).
 * Null when the Data has no nulls, so callers can skip per-row checks.
 */
export function validityOfData(data: Data): Validity {
  const bitmap = data.nullBitmap;
  if (!bitmap || bitmap.length === 0 || data.nullCount === 0) return { bitmap: null, offset: 0 };
  return { bitmap, offset: data.offset };
}

/** Whether bit `i` is set. */
export function bitIsSet(bitmap: Uint8Array, i: number): boolean {
  return (bitmap[i >> 3] & (1 << (i & 7))) !== 0;
}

/**
 * The bits `[offset, offset + length)` of `bitmap` as a bitmap starting at bit 0, and its number
 * of unset bits. Shares the buffer when `offset` is a multiple of 8 (no copy); returns a null
 * bitmap when every row is valid.
 */
export function compactValidity(
  bitmap: Uint8Array | null,
  offset: number,
  length: number,
): { bitmap: Uint8Array | null; nullCount: number } {
  if (bitmap === null) return { bitmap: null, nullCount: 0 };
  let nullCount = 0;
  for (let i = 0; i < length; i++) if (!bitIsSet(bitmap, offset + i)) nullCount++;
  if (nullCount === 0) return { bitmap: null, nullCount: 0 };
  const bytes = (length + 7) >> 3;
  if ((offset & 7) === 0) return { bitmap: bitmap.subarray(offset >> 3, (offset >> 3) + bytes), nullCount };
  const out = new Uint8Array(bytes);
  for (let i = 0; i < length; i++) if (bitIsSet(bitmap, offset + i)) out[i >> 3] |= 1 << (i & 7);
  return { bitmap: out, nullCount };
}

/**
 * Concatenates the validity of several runs of rows into one bitmap starting at bit 0, or null
 * when no run has a null.
 */
export function concatValidity(parts: readonly { validity: Validity; length: number }[]): Uint8Array | null {
  if (parts.every((p) => p.validity.bitmap === null)) return null;
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array((total + 7) >> 3);
  let row = 0;
  for (const { validity, length } of parts) {
    const { bitmap, offset } = validity;
    for (let i = 0; i < length; i++, row++) {
      if (bitmap === null || bitIsSet(bitmap, offset + i)) out[row >> 3] |= 1 << (row & 7);
    }
  }
  return out;
}
