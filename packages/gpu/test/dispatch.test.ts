import { expect, test } from 'vitest';
import { dispatchSize } from '../src/runtime/dispatch.js';

test('small grids stay one-dimensional', () => {
  expect(dispatchSize(0)).toEqual([0, 0]);
  expect(dispatchSize(1)).toEqual([1, 1]);
  expect(dispatchSize(65535)).toEqual([65535, 1]);
});

test('larger grids are split over x and y with little surplus', () => {
  expect(dispatchSize(65536)).toEqual([32768, 2]);
  expect(dispatchSize(391, 64)).toEqual([56, 7]);
  for (const [n, max] of [
    [65535 * 3 + 1, 65535],
    [1_000_000, 65535],
    [65535 * 65535, 65535],
    [16, 4],
    [13, 4],
  ]) {
    const [x, y] = dispatchSize(n, max);
    expect(x * y).toBeGreaterThanOrEqual(n);
    expect(x * y - n).toBeLessThan(y);
    expect(Math.max(x, y)).toBeLessThanOrEqual(max);
  }
});

test('grids beyond max² and non-integers are rejected', () => {
  expect(() => dispatchSize(17, 4)).toThrow(RangeError);
  expect(() => dispatchSize(1.5)).toThrow(RangeError);
  expect(() => dispatchSize(-1)).toThrow(RangeError);
});
