import { type GeometryArray, GeometryType } from '@geoframe/core';

/**
 * Where each row's coordinates start, composed through the array's offset levels on the CPU:
 * `length + 1` coordinate indices, row `i` covering `[starts[i], starts[i + 1])`. A point row is
 * its own coordinate (`starts[i] = i`; an empty point is one NaN coordinate).
 */
export function rowCoordStarts(array: GeometryArray): Int32Array {
  const n = array.length;
  const starts = new Int32Array(n + 1);
  const o = array.offsets;
  if (array.type === GeometryType.Point) {
    for (let i = 0; i <= n; i++) starts[i] = i;
  } else if (o.length === 1) {
    starts.set(o[0].subarray(0, n + 1));
  } else if (o.length === 2) {
    const [o0, o1] = o;
    for (let i = 0; i <= n; i++) starts[i] = o1[o0[i]];
  } else {
    const [o0, o1, o2] = o;
    for (let i = 0; i <= n; i++) starts[i] = o2[o1[o0[i]]];
  }
  return starts;
}

/** Rows cut into pieces of at most `pieceSize` coordinates, each piece one GPU thread's walk. */
export interface RowPieces {
  /** `rows + 1` entries: row `i` owns pieces `[rowPiece[i], rowPiece[i + 1])` (at least one). */
  rowPiece: Int32Array;
  /** `pieces + 1` entries: piece `p` covers coordinates `[pieceStart[p], pieceStart[p + 1])`. */
  pieceStart: Int32Array;
}

/**
 * Cuts each row's coordinate range into consecutive pieces of `pieceSize` coordinates (the last
 * may be shorter); an empty row gets one empty piece. Pieces of consecutive rows are
 * consecutive, so the piece starts are one prefix array. In the common case where no row is
 * longer than `pieceSize`, pieces are rows: `pieceStart` is `starts` itself (not copied).
 *
 * @throws RangeError when the starts decrease (corrupt offsets), naming the row.
 */
export function splitRows(starts: Int32Array, pieceSize: number): RowPieces {
  const n = starts.length - 1;
  const rowPiece = new Int32Array(n + 1);
  let pieces = 0;
  for (let i = 0; i < n; i++) {
    rowPiece[i] = pieces;
    const count = starts[i + 1] - starts[i];
    if (count < 0)
      throw new RangeError(`row ${i}: coordinate offsets decrease (${starts[i]} → ${starts[i + 1]})`);
    pieces += count > pieceSize ? Math.ceil(count / pieceSize) : 1;
  }
  rowPiece[n] = pieces;
  if (pieces === n) return { rowPiece, pieceStart: starts };
  const pieceStart = new Int32Array(pieces + 1);
  for (let i = 0, p = 0; i < n; i++) {
    pieceStart[p++] = starts[i];
    for (let k = starts[i] + pieceSize, end = starts[i + 1]; k < end; k += pieceSize) pieceStart[p++] = k;
  }
  pieceStart[pieces] = starts[n];
  return { rowPiece, pieceStart };
}

/**
 * One GPU round: rows `[firstRow, endRow)` and their pieces `[firstPiece, endPiece)`. Consecutive
 * chunks tile the rows; a row too big for one chunk is split, and then it is the last row of one
 * chunk and the first row of the next, and the host merges its two results.
 */
export interface BoundsChunk {
  firstRow: number;
  endRow: number;
  firstPiece: number;
  endPiece: number;
}

/** Bytes one chunk may bind per buffer, and bytes per coordinate. */
export interface ChunkLimits {
  /** Largest storage binding (and buffer), in bytes. */
  maxBindingBytes: number;
  /** Values per coordinate (2–4); a coordinate takes `8 * stride` bytes on the GPU. */
  stride: number;
}

/** Bytes the kernel keeps per piece (partial keys) and per row (output): four 64-bit values. */
export const BYTES_PER_PIECE = 32;
export const BYTES_PER_ROW = 32;

/**
 * Splits the work into chunks whose every buffer fits one binding: the coordinate window
 * (`8 * stride` bytes per coordinate), the pieces' partial results and the rows' output
 * (32 bytes each). Greedy: a chunk takes whole rows while they fit, then as many pieces of the
 * next row as fit (splitting it), so an array that fits in one binding is one chunk. Zero rows
 * give no chunk.
 *
 * @throws RangeError when one piece cannot fit (`pieceSize` coordinates over the binding size).
 */
export function planChunks(pieces: RowPieces, pieceSize: number, limits: ChunkLimits): BoundsChunk[] {
  const { rowPiece, pieceStart } = pieces;
  const n = rowPiece.length - 1;
  const maxCoords = Math.floor(limits.maxBindingBytes / (8 * limits.stride));
  const maxPieces = Math.floor(limits.maxBindingBytes / BYTES_PER_PIECE);
  const maxRows = Math.floor(limits.maxBindingBytes / BYTES_PER_ROW);
  if (maxCoords < pieceSize || maxPieces < 1 || maxRows < 1) {
    throw new RangeError(
      `a binding of ${limits.maxBindingBytes} bytes cannot hold one piece of ${pieceSize} coordinates`,
    );
  }
  const chunks: BoundsChunk[] = [];
  if (n === 0) return chunks;
  const total = rowPiece[n];
  if (n <= maxRows && total <= maxPieces && pieceStart[total] - pieceStart[0] <= maxCoords) {
    return [{ firstRow: 0, endRow: n, firstPiece: 0, endPiece: total }];
  }
  let firstRow = 0;
  let firstPiece = 0;
  const fits = (endPiece: number) =>
    endPiece - firstPiece <= maxPieces && pieceStart[endPiece] - pieceStart[firstPiece] <= maxCoords;
  let row = 0;
  while (row < n) {
    const rowFirst = Math.max(rowPiece[row], firstPiece);
    const rowEnd = rowPiece[row + 1];
    if (row + 1 - firstRow > maxRows) {
      chunks.push({ firstRow, endRow: row, firstPiece, endPiece: rowFirst });
      firstRow = row;
      firstPiece = rowFirst;
      continue;
    }
    if (fits(rowEnd)) {
      row++;
      continue;
    }
    let end = rowFirst;
    while (end < rowEnd && fits(end + 1)) end++;
    if (end > rowFirst) {
      // the row goes on in the next chunk
      chunks.push({ firstRow, endRow: row + 1, firstPiece, endPiece: end });
      firstPiece = end;
    } else {
      chunks.push({ firstRow, endRow: row, firstPiece, endPiece: rowFirst });
      firstPiece = rowFirst;
    }
    firstRow = row;
  }
  chunks.push({ firstRow, endRow: n, firstPiece, endPiece: total });
  return chunks;
}
