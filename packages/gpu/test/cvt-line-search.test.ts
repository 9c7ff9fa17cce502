import { SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { type LineProbe, WOLFE_DEFAULTS, wolfeLineSearch } from '../src/cvt/line-search.js';

/** A line search over φ with derivative dφ, from α = `first`; returns the result and the probes made. */
async function search(
  phi: (a: number) => number,
  dphi: (a: number) => number,
  first = 1,
  remaining?: () => number,
) {
  const probes: number[] = [];
  const at = (alpha: number): LineProbe => ({ alpha, value: phi(alpha), slope: dphi(alpha) });
  const result = await wolfeLineSearch(
    phi(0),
    dphi(0),
    at(first),
    async (a) => {
      probes.push(a);
      return at(a);
    },
    { ...WOLFE_DEFAULTS, remaining },
  );
  return { result, probes };
}

function strongWolfe(phi: (a: number) => number, dphi: (a: number) => number, a: number): boolean {
  const { c1, c2 } = WOLFE_DEFAULTS;
  return phi(a) <= phi(0) + c1 * a * dphi(0) && Math.abs(dphi(a)) <= c2 * Math.abs(dphi(0));
}

describe('wolfeLineSearch', () => {
  test.each([
    ['minimum beyond the first probe (bracketing by doubling)', 7.3],
    ['minimum before the first probe (zoom)', 0.02],
    ['minimum at the first probe', 1],
  ])('%s: quadratics with random curvature meet the strong Wolfe conditions', async (_, centre) => {
    const rng = new SeededRandom(Math.round(centre * 100));
    for (let k = 0; k < 20; k++) {
      const c = centre * (0.5 + rng.next());
      const h = 10 ** (4 * rng.next() - 2);
      const phi = (a: number) => h * (a - c) ** 2 + 3;
      const dphi = (a: number) => 2 * h * (a - c);
      const { result, probes } = await search(phi, dphi);
      expect(result.accepted).not.toBeNull();
      expect(result.wolfe).toBe(true);
      expect(strongWolfe(phi, dphi, result.accepted!.alpha)).toBe(true);
      // the accepted probe is the last one evaluated (the device holds that point)
      expect(probes.length === 0 || probes.at(-1) === result.accepted!.alpha).toBe(true);
    }
  });

  test('a non-smooth, piecewise-constant-slope φ (like a raster energy) still gets a decrease', async () => {
    const phi = (a: number) => Math.abs(a - 0.37) + 0.001 * Math.floor(a * 50);
    const dphi = (a: number) => Math.sign(a - 0.37);
    const { result } = await search(phi, dphi);
    expect(result.accepted).not.toBeNull();
    expect(result.accepted!.value).toBeLessThan(phi(0));
  });

  test('no decreasing step: nothing is accepted', async () => {
    const phi = (a: number) => 1 + a * a; // dφ(0) = 0, but told it is negative
    const result = await wolfeLineSearch(1, -1, { alpha: 1, value: 2, slope: 2 }, async (a) => ({
      alpha: a,
      value: phi(a),
      slope: 2 * a,
    }));
    expect(result.accepted).toBeNull();
  });

  test("the caller's budget stops the search", async () => {
    let left = 2;
    const phi = (a: number) => (a - 0.001) ** 2;
    const dphi = (a: number) => 2 * (a - 0.001);
    const { probes } = await search(phi, dphi, 1, () => left--);
    expect(probes.length).toBeLessThanOrEqual(2);
  });
});
