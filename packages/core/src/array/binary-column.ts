/**
 * A column of variable-length byte strings laid out as Arrow does (Binary, LargeBinary, Utf8,
 * LargeUtf8): row `i` is `values[offsets[i]..offsets[i + 1])`. WKB and WKT columns travel in
 * this form, so codecs never need one object per row.
 */
export interface BinaryColumn {
  /** Number of rows. */
  length: number;
  /** The concatenated bytes. */
  values: Uint8Array;
  /** `length + 1` positions into `values` (BigInt64Array for Large* types). */
  offsets: Int32Array | BigInt64Array;
  /** Arrow validity bitmap (bit set = valid), or null when every row is valid. */
  validity: Uint8Array | null;
  /** Bit position of row 0 in `validity`. */
  validityOffset: number;
}
