import { expect } from 'vitest';

/**
 * Asserts that two bounds arrays (4 values per row) are identical bit for bit in the sense of
 * `Object.is` (so -0 ≠ 0 and NaN = NaN), naming the first row that differs.
 */
export function expectSameBounds(actual: Float64Array, expected: Float64Array): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) {
      const row = Math.floor(i / 4);
      const show = (a: Float64Array) => `[${[...a.subarray(row * 4, row * 4 + 4)].map(format).join(', ')}]`;
      expect.fail(`row ${row}: got ${show(actual)}, expected ${show(expected)}`);
    }
  }
}

function format(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}
