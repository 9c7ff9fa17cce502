import { InvalidGeometryError } from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import { hilbertKeysCpu } from '../src/primitives/hilbert/hilbert-cpu.js';
import { hilbertBounds, quantizeHilbertGrid } from '../src/primitives/hilbert/hilbert-grid.js';
import { seededRandom } from './random-geometry.js';

/** Points at the integer cells of a 2^k grid, row by row, with bounds making cell = coordinate. */
function fullGrid(k: number): { xy: Float64Array; bounds: [number, number, number, number] } {
  const side = 2 ** k;
  const xy = new Float64Array(2 * side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      xy[2 * (y * side + x)] = x;
      xy[2 * (y * side + x) + 1] = y;
    }
  }
  return { xy, bounds: [0, 0, side, side] };
}

/**
 * The order-k curve index of each point: the key's top 2k bits (the finer levels only order the
 * points within one order-k cell).
 */
function curveIndex(keys: Uint32Array, bits: 16 | 32, k: number): number[] {
  const out: number[] = [];
  const shift = BigInt(2 * (bits - k));
  for (let i = 0; i < keys.length / (bits / 16); i++) {
    const key = bits === 16 ? BigInt(keys[i]) : (BigInt(keys[2 * i]) << 32n) | BigInt(keys[2 * i + 1]);
    out.push(Number(key >> shift));
  }
  return out;
}

describe('Hilbert keys on the CPU: curve properties', () => {
  test('order 1 and 2 equal the hand-drawn curve from (0, 0) to (side - 1, 0)', () => {
    for (const bits of [16, 32] as const) {
      const one = fullGrid(1);
      // cells (0,0) (1,0) (0,1) (1,1) → the curve visits (0,0) (0,1) (1,1) (1,0)
      expect(curveIndex(hilbertKeysCpu(one.xy, { bits, bounds: one.bounds }), bits, 1)).toEqual([0, 3, 1, 2]);
      const two = fullGrid(2);
      const walk = [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 3],
        [1, 2],
        [2, 2],
        [2, 3],
        [3, 3],
        [3, 2],
        [3, 1],
        [2, 1],
        [2, 0],
        [3, 0],
      ];
      const expected = new Array<number>(16);
      walk.forEach(([x, y], d) => {
        expected[y * 4 + x] = d;
      });
      expect(curveIndex(hilbertKeysCpu(two.xy, { bits, bounds: two.bounds }), bits, 2)).toEqual(expected);
    }
  });

  test.each([1, 2, 3, 4, 5, 6, 7])(
    'order %i: keys are a permutation of 0..4^k-1 walking adjacent cells',
    (k) => {
      const side = 2 ** k;
      for (const bits of [16, 32] as const) {
        const { xy, bounds } = fullGrid(k);
        const index = curveIndex(hilbertKeysCpu(xy, { bits, bounds }), bits, k);
        const cellAt = new Int32Array(side * side).fill(-1);
        index.forEach((d, cell) => {
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThan(side * side);
          expect(cellAt[d]).toBe(-1);
          cellAt[d] = cell;
        });
        expect(cellAt[0]).toBe(0); // starts at (0, 0)
        expect(cellAt[side * side - 1]).toBe(side - 1); // ends at (side - 1, 0)
        for (let d = 1; d < side * side; d++) {
          const a = cellAt[d - 1];
          const b = cellAt[d];
          const dx = Math.abs((a % side) - (b % side));
          const dy = Math.abs(Math.floor(a / side) - Math.floor(b / side));
          expect(dx + dy).toBe(1);
        }
      }
    },
  );

  test('the 16-bit key is the top half of the 32-bit key on the same points', () => {
    const random = seededRandom(7);
    const xy = new Float64Array(2000).map(() => random() * 1000 - 500);
    const k16 = hilbertKeysCpu(xy, { bits: 16 });
    const k32 = hilbertKeysCpu(xy, { bits: 32 });
    for (let i = 0; i < 1000; i++) expect(k32[2 * i]).toBe(k16[i]);
  });

  test('nearby points get nearby keys more often than not (locality)', () => {
    const random = seededRandom(11);
    const n = 4096;
    const xy = new Float64Array(2 * n).map(() => random());
    const keys = hilbertKeysCpu(xy, { bits: 16 });
    const order = [...keys.keys()].sort((a, b) => keys[a] - keys[b]);
    let walk = 0;
    for (let i = 1; i < n; i++) {
      walk += Math.hypot(
        xy[2 * order[i]] - xy[2 * order[i - 1]],
        xy[2 * order[i] + 1] - xy[2 * order[i - 1] + 1],
      );
    }
    // a random order walks about 0.52 per step; a Hilbert order about 1/sqrt(n)-ish
    expect(walk / (n - 1)).toBeLessThan(0.05);
  });
});

describe('quantization onto the grid', () => {
  test('box corners land in the first and last cells, per axis', () => {
    const xy = new Float64Array([-3, 10, 5, 20, 1, 15]);
    expect([...quantizeHilbertGrid(xy, { bits: 32 })]).toEqual([
      0,
      0,
      2 ** 32 - 1,
      2 ** 32 - 1,
      2 ** 31,
      2 ** 31,
    ]);
    const g16 = quantizeHilbertGrid(xy, { bits: 16 });
    expect([...g16]).toEqual(
      [0, 0xffff | ((0xffff << 16) >>> 0), 0x8000 | (0x8000 << 16)].map((v) => v >>> 0),
    );
  });

  test('monotone per axis, also at a 1e7 offset with a spread of 1e-3', () => {
    const random = seededRandom(3);
    const n = 5000;
    const xy = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      xy[2 * i] = 1e7 + random() * 1e-3;
      xy[2 * i + 1] = -1e7 - random() * 1e-3;
    }
    const grid = quantizeHilbertGrid(xy, { bits: 32 });
    const byX = [...Array(n).keys()].sort((a, b) => xy[2 * a] - xy[2 * b]);
    const byY = [...Array(n).keys()].sort((a, b) => xy[2 * a + 1] - xy[2 * b + 1]);
    let distinctCells = 0;
    let distinctValues = 0;
    for (let i = 1; i < n; i++) {
      expect(grid[2 * byX[i]]).toBeGreaterThanOrEqual(grid[2 * byX[i - 1]]);
      expect(grid[2 * byY[i] + 1]).toBeGreaterThanOrEqual(grid[2 * byY[i - 1] + 1]);
      if (grid[2 * byX[i]] !== grid[2 * byX[i - 1]]) distinctCells++;
      if (xy[2 * byX[i]] !== xy[2 * byX[i - 1]]) distinctValues++;
    }
    // cells (1e-3 / 2^32 wide) are finer than f64's spacing at 1e7: distinct values, distinct cells
    expect(distinctValues).toBeGreaterThan(n - 100);
    expect(distinctCells).toBe(distinctValues);
  });

  test('degenerate boxes: all points equal, zero width, zero height', () => {
    expect([...quantizeHilbertGrid(new Float64Array([4, 4, 4, 4, 4, 4]), { bits: 32 })]).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
    expect([...quantizeHilbertGrid(new Float64Array([2, 0, 2, 1]), { bits: 32 })]).toEqual([
      0,
      0,
      0,
      2 ** 32 - 1,
    ]);
    expect([...quantizeHilbertGrid(new Float64Array([0, 2, 1, 2]), { bits: 16 })]).toEqual([0, 0xffff]);
    expect([...hilbertKeysCpu(new Float64Array([7, 7]), { bits: 16 })]).toEqual([0]);
    expect([...hilbertKeysCpu(new Float64Array([7, 7, 7, 7]), { bits: 32 })]).toEqual([0, 0, 0, 0]);
  });

  test('caller bounds: points outside are clamped to the edge cells; a zero-width box puts points above it in the last cell', () => {
    const xy = new Float64Array([-5, 0.5, 0.5, 9, 0.25, 0.75]);
    const grid = quantizeHilbertGrid(xy, { bits: 32, bounds: [0, 0, 1, 1] });
    expect([...grid]).toEqual([0, 2 ** 31, 2 ** 31, 2 ** 32 - 1, 2 ** 30, 3 * 2 ** 30]);
    const flat = quantizeHilbertGrid(new Float64Array([1, 0, 2, 0, 3, 0]), {
      bits: 16,
      bounds: [2, 0, 2, 0],
    });
    expect([...flat]).toEqual([0, 0, 0xffff]);
  });

  test('boxes as wide as the f64 range do not overflow', () => {
    const xy = new Float64Array([
      -Number.MAX_VALUE,
      Number.MAX_VALUE,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      0,
      0,
    ]);
    expect([...quantizeHilbertGrid(xy, { bits: 32 })]).toEqual([
      0,
      2 ** 32 - 1,
      2 ** 32 - 1,
      0,
      2 ** 31,
      2 ** 31,
    ]);
    const tiny = new Float64Array([0, 0, Number.MIN_VALUE, 4 * Number.MIN_VALUE]);
    expect([...quantizeHilbertGrid(tiny, { bits: 32 })]).toEqual([0, 0, 2 ** 32 - 1, 2 ** 32 - 1]);
  });

  test('hilbertBounds: the box, [0, 0, 0, 0] for no points', () => {
    expect(hilbertBounds(new Float64Array([3, -1, -2, 5, 0, 0]))).toEqual([-2, -1, 3, 5]);
    expect(hilbertBounds(new Float64Array(0))).toEqual([0, 0, 0, 0]);
    // the widest finite box (its width overflows: the points are scanned again, all finite)
    const widest = new Float64Array([
      -Number.MAX_VALUE,
      1,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      0,
      Number.MAX_VALUE,
    ]);
    expect(hilbertBounds(widest)).toEqual([
      -Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MAX_VALUE,
      Number.MAX_VALUE,
    ]);
    // seeded points against a plain scan
    const random = new Float64Array(2000).map((_, i) => Math.sin(i * 12.9898) * 43758.5453 * (i % 7));
    const plain = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < 1000; i++) {
      plain[0] = Math.min(plain[0], random[2 * i]);
      plain[1] = Math.min(plain[1], random[2 * i + 1]);
      plain[2] = Math.max(plain[2], random[2 * i]);
      plain[3] = Math.max(plain[3], random[2 * i + 1]);
    }
    expect(hilbertBounds(random)).toEqual(plain);
    expect([...hilbertKeysCpu(new Float64Array(0), { bits: 32 })]).toEqual([]);
  });
});

describe('bad input', () => {
  test('NaN or infinity is an InvalidGeometryError naming the point index', () => {
    const xy = new Float64Array([0, 0, 1, 1, 2, Number.NaN, 3, 3]);
    for (const bounds of [undefined, [0, 0, 4, 4] as const]) {
      const error = (() => {
        try {
          hilbertKeysCpu(xy, { bits: 16, ...(bounds ? { bounds } : {}) });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidGeometryError);
      expect((error as InvalidGeometryError).row).toBe(2);
      expect((error as Error).message).toMatch(/point 2 .*y coordinate \(NaN\)/);
    }
    expect(() => hilbertKeysCpu(new Float64Array([0, 0, Number.NEGATIVE_INFINITY, 1]), { bits: 32 })).toThrow(
      /point 1 .*x coordinate \(-Infinity\)/,
    );
    // the first bad point is named, whichever bound it would have set
    expect(() => hilbertBounds(new Float64Array([0, 0, 1, Number.POSITIVE_INFINITY, Number.NaN, 2]))).toThrow(
      /point 1 .*y coordinate \(Infinity\)/,
    );
  });

  test('odd length, bad bits and bad bounds are RangeErrors', () => {
    expect(() => hilbertKeysCpu(new Float64Array(3), { bits: 16 })).toThrow(RangeError);
    expect(() => hilbertKeysCpu(new Float64Array(2), { bits: 8 as 16 })).toThrow(/16 or 32/);
    expect(() => hilbertKeysCpu(new Float64Array(2), { bits: 16, bounds: [1, 0, 0, 1] })).toThrow(RangeError);
    expect(() => hilbertKeysCpu(new Float64Array(2), { bits: 16, bounds: [0, 0, Number.NaN, 1] })).toThrow(
      RangeError,
    );
  });
});
