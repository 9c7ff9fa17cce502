import { InvalidGeometryError } from '@geoframe/core';
import { describe, expect } from 'vitest';
import { sitesUp } from '../src/order/site-bounds.js';
import { hilbertBounds } from '../src/primitives/hilbert/hilbert-grid.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { seededWords } from './scan-reference.js';

/** Seeded sites of one kind: spread over magnitudes and signs, so extremes land anywhere. */
function sitesOf(kind: string, n: number, seed: number): Float64Array {
  const next = seededWords(seed);
  const u = () => next() / 2 ** 32;
  const xy = new Float64Array(2 * n);
  for (let k = 0; k < 2 * n; k++) {
    switch (kind) {
      case 'uniform':
        xy[k] = u() * 2 - 1;
        break;
      case 'offset':
        xy[k] = 1e7 + u();
        break;
      case 'negative':
        xy[k] = -1e300 * u() - 1e-300;
        break;
      case 'magnitudes':
        // every exponent from subnormals to near the largest double, both signs
        xy[k] = (u() < 0.5 ? -1 : 1) * 2 ** Math.floor(u() * 2098 - 1074) * (1 + u());
        break;
      case 'zeros':
        xy[k] = u() < 0.5 ? -0 : 0;
        break;
      default:
        xy[k] = 3.5;
    }
  }
  return xy;
}

describe('sitesUp: the sites on the device and their box', () => {
  test('equals hilbertBounds bit for bit, over sizes that take one to many strides', async () => {
    const ctx = await requireGpu();
    const kinds = ['uniform', 'offset', 'negative', 'magnitudes', 'zeros', 'equal'];
    let seed = 1;
    for (const n of [1, 2, 3, 255, 257, 4099, 300_001]) {
      for (const kind of kinds) {
        const xy = sitesOf(kind, n, seed++);
        const { bounds, input } = await sitesUp(ctx, xy);
        const expected = hilbertBounds(xy);
        // Object.is: −0 and +0 are told apart (Math.min takes −0 below +0)
        for (let k = 0; k < 4; k++)
          expect(Object.is(bounds[k], expected[k]), `${kind} ${n} [${k}]`).toBe(true);
        expect(input.size).toBeGreaterThanOrEqual(16 * n);
      }
    }
  });

  test('an extreme at the first, a middle or the last site is found', async () => {
    const ctx = await requireGpu();
    const n = 70_001;
    for (const at of [0, 12_345, n - 1]) {
      const xy = sitesOf('uniform', n, 99 + at);
      xy[2 * at] = -7;
      xy[2 * at + 1] = 9;
      const { bounds } = await sitesUp(ctx, xy);
      expect(bounds[0]).toBe(-7);
      expect(bounds[3]).toBe(9);
      expect(bounds).toEqual(hilbertBounds(xy));
    }
  });

  test('a NaN or infinite coordinate is an InvalidGeometryError naming the first such site', async () => {
    const ctx = await requireGpu();
    const n = 100_003;
    const cases: [number, number, number][] = [
      [0, 0, Number.NaN],
      [5_000, 1, Number.POSITIVE_INFINITY],
      [n - 1, 0, Number.NEGATIVE_INFINITY],
    ];
    for (const [site, axis, value] of cases) {
      const xy = sitesOf('uniform', n, site + 7);
      xy[2 * site + axis] = value;
      // a later bad site too: the lowest index is named
      if (site + 10 < n) xy[2 * (site + 10)] = Number.NaN;
      const error = await sitesUp(ctx, xy).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidGeometryError);
      expect((error as InvalidGeometryError).row).toBe(site);
      expect(String((error as Error).message)).toContain(`${axis === 0 ? 'x' : 'y'} coordinate (${value})`);
    }
  });
});
