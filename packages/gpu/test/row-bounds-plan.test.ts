import { GeometryType } from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import { planChunks, rowCoordStarts, splitRows } from '../src/kernels/row-bounds-plan.js';
import { randomGeometryArray } from './random-geometry.js';

describe('rowCoordStarts', () => {
  test('composes every offset level, for whole arrays and slices', () => {
    for (const type of [
      GeometryType.Point,
      GeometryType.LineString,
      GeometryType.Polygon,
      GeometryType.MultiPolygon,
      'mixed',
    ] as const) {
      const array = randomGeometryArray(type, 'xy', 300, 11);
      for (const a of [array, array.slice(17, 250)]) {
        const starts = rowCoordStarts(a);
        expect(starts.length).toBe(a.length + 1);
        for (let i = 0; i < a.length; i++) {
          const [lo, hi] = a.coordRange(i);
          // an empty point is one NaN coordinate here, an empty range for coordRange
          if (type === GeometryType.Point) expect([starts[i], starts[i + 1]]).toEqual([i, i + 1]);
          else expect([starts[i], starts[i + 1]]).toEqual([lo, hi]);
        }
      }
    }
  });
});

describe('splitRows', () => {
  test('cuts rows into pieces of at most pieceSize coordinates; an empty row is one empty piece', () => {
    const starts = new Int32Array([5, 5, 8, 18, 18, 19, 23]);
    const { rowPiece, pieceStart } = splitRows(starts, 4);
    expect([...rowPiece]).toEqual([0, 1, 2, 5, 6, 7, 8]);
    expect([...pieceStart]).toEqual([5, 5, 8, 12, 16, 18, 18, 19, 23]);
  });

  test('rows no longer than pieceSize are their own pieces, without a copy', () => {
    const starts = new Int32Array([0, 4, 4, 6]);
    const { rowPiece, pieceStart } = splitRows(starts, 4);
    expect([...rowPiece]).toEqual([0, 1, 2, 3]);
    expect(pieceStart).toBe(starts);
  });

  test('rejects decreasing offsets, naming the row', () => {
    expect(() => splitRows(new Int32Array([0, 4, 2]), 8)).toThrow(/row 1/);
  });
});

describe('planChunks', () => {
  test('everything in one chunk when it fits', () => {
    const pieces = splitRows(new Int32Array([0, 3, 3, 10]), 4);
    expect(planChunks(pieces, 4, { maxBindingBytes: 1 << 20, stride: 2 })).toEqual([
      { firstRow: 0, endRow: 3, firstPiece: 0, endPiece: 4 },
    ]);
    expect(planChunks(splitRows(new Int32Array([0]), 4), 4, { maxBindingBytes: 1024, stride: 2 })).toEqual(
      [],
    );
  });

  test('chunks tile the rows, respect every limit, and split only rows too big for one chunk', () => {
    const array = randomGeometryArray(GeometryType.MultiPolygon, 'xyz', 2000, 4, {
      maxCoords: 60,
      empties: 0.3,
    });
    const pieceSize = 8;
    const limits = { maxBindingBytes: 2048, stride: 3 };
    const starts = rowCoordStarts(array);
    const pieces = splitRows(starts, pieceSize);
    const chunks = planChunks(pieces, pieceSize, limits);
    expect(chunks.length).toBeGreaterThan(10);
    let splits = 0;
    for (let c = 0; c < chunks.length; c++) {
      const { firstRow, endRow, firstPiece, endPiece } = chunks[c];
      expect(endRow).toBeGreaterThan(firstRow);
      expect((endRow - firstRow) * 32).toBeLessThanOrEqual(limits.maxBindingBytes);
      expect((endPiece - firstPiece) * 32).toBeLessThanOrEqual(limits.maxBindingBytes);
      const coords = pieces.pieceStart[endPiece] - pieces.pieceStart[firstPiece];
      expect(coords * 8 * limits.stride).toBeLessThanOrEqual(limits.maxBindingBytes);
      // the chunk's pieces are exactly its rows' pieces, clipped where a row is split
      expect(firstPiece).toBeGreaterThanOrEqual(pieces.rowPiece[firstRow]);
      expect(endPiece).toBeLessThanOrEqual(pieces.rowPiece[endRow]);
      if (c === 0) expect([firstRow, firstPiece]).toEqual([0, 0]);
      else {
        const prev = chunks[c - 1];
        expect(firstPiece).toBe(prev.endPiece);
        const split = firstRow === prev.endRow - 1;
        if (split) splits++;
        expect(split || firstRow === prev.endRow).toBe(true);
        // only a row whose pieces straddle the boundary is shared
        if (split) expect(firstPiece).toBeGreaterThan(pieces.rowPiece[firstRow]);
        else expect(firstPiece).toBe(pieces.rowPiece[firstRow]);
      }
    }
    const last = chunks[chunks.length - 1];
    expect([last.endRow, last.endPiece]).toEqual([array.length, pieces.rowPiece[array.length]]);
    expect(splits).toBeGreaterThan(0);
  });

  test('many empty rows are spread over chunks by the row limit', () => {
    const pieces = splitRows(new Int32Array(101), 4);
    const chunks = planChunks(pieces, 4, { maxBindingBytes: 320, stride: 2 });
    expect(chunks.map((c) => [c.firstRow, c.endRow])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i * 10, i * 10 + 10]),
    );
  });

  test('rejects a binding too small for one piece', () => {
    expect(() =>
      planChunks(splitRows(new Int32Array([0, 100]), 64), 64, { maxBindingBytes: 512, stride: 2 }),
    ).toThrow(RangeError);
  });
});
