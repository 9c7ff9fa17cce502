// The exact mode's evaluation from a moment source (the GPU's path): the one-pass site check
// (finite, distinct, box) against a brute-force pairwise check, and F, ∇F and the centroids from
// the source's rows and host rows against the square cells' closed forms.
import { CvtError } from '@geoframe/core';
import { type MomentSource, prepareClipRegion, type SourcedMoments } from '@geoframe/cpu';
import { SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { evaluationOf, SiteCheck, sourcedEvaluator } from '../src/cvt/sourced-evaluator.js';
import { multiPolygonColumn, square } from './clip-helpers.js';

function bruteDistinct(x: Float64Array): boolean {
  for (let i = 0; i < x.length; i += 2)
    for (let j = i + 2; j < x.length; j += 2) if (x[i] === x[j] && x[i + 1] === x[j + 1]) return false;
  return true;
}

describe('SiteCheck', () => {
  test.each([1, 2, 3])('distinct or not as a pairwise check says, seed %i', (seed) => {
    const random = new SeededRandom(seed);
    const check = new SiteCheck();
    for (const n of [0, 1, 2, 3, 17, 400]) {
      const x = new Float64Array(2 * n);
      // coarse coordinates, so that random repeats happen
      for (let i = 0; i < 2 * n; i++) x[i] = Math.floor(random.next() * 40) / 8 - 2;
      expect(check.scan(x), `n ${n}`).toBe(bruteDistinct(x));
      if (n > 1) {
        const y = x.slice();
        const [a, b] = [Math.floor(random.next() * n), Math.floor(random.next() * n)];
        y[2 * a] = y[2 * b];
        y[2 * a + 1] = y[2 * b + 1];
        expect(check.scan(y)).toBe(bruteDistinct(y));
      }
    }
  });

  test('−0 equals 0; one ulp apart is distinct; huge and tiny magnitudes', () => {
    const check = new SiteCheck();
    expect(check.scan(new Float64Array([0, 1, -0, 1]))).toBe(false);
    expect(check.scan(new Float64Array([1, -0, 1, 0]))).toBe(false);
    const u = 1 + 2 ** -52;
    expect(check.scan(new Float64Array([1, 1, u, 1, 1, u]))).toBe(true);
    expect(check.scan(new Float64Array([1e300, -1e-300, 1e300, 1e-300, 1e300, -1e-300]))).toBe(false);
  });

  test('a non-finite site is an error naming it; the box is the sites’', () => {
    const check = new SiteCheck();
    expect(() => check.scan(new Float64Array([0, 0, 1, Number.NaN]))).toThrow(
      /site 1 became non-finite \(NaN\)/,
    );
    expect(() => check.scan(new Float64Array([Number.POSITIVE_INFINITY, 0]))).toThrow(CvtError);
    check.scan(new Float64Array([0.25, 0.5, 0.75, 0.125]));
    expect(check.within({ minX: 0, minY: 0, maxX: 1, maxY: 1 })).toBe(true);
    expect(check.within({ minX: 0.3, minY: 0, maxX: 1, maxY: 1 })).toBe(false);
  });
});

/** Square cells of side `side(i)` centred `shift(i)` to the right of the sites. */
function squareCells(xy: Float64Array, side: (i: number) => number, shift: (i: number) => number) {
  const n = xy.length >> 1;
  const coords: number[] = [];
  const ringOffsets = [0];
  for (let i = 0; i < n; i++) {
    const [x0, y0] = [xy[2 * i] - side(i) / 2 + shift(i), xy[2 * i + 1] - side(i) / 2];
    for (const [x, y] of [...square(x0, y0, side(i)), [x0, y0]]) coords.push(x, y);
    ringOffsets.push(coords.length >> 1);
  }
  return { coords: Float64Array.from(coords), ringOffsets: Int32Array.from(ringOffsets) };
}

describe('evaluationOf', () => {
  // sites on a grid of spacing 1; cell i a square of its own side, moved right of its site
  const n = 50;
  const xy = Float64Array.from({ length: 2 * n }, (_, k) => (k % 2 ? Math.floor(k / 20) : (k >> 1) % 10));
  const side = (i: number) => 0.25 + (i % 5) / 16;
  const shift = (i: number) => (i % 7) / 32;
  const mass = (i: number) => side(i) ** 2;
  const sx = (i: number) => mass(i) * shift(i);
  // ∫‖p − x‖² over the moved square: s⁴/6 + m d²
  const energy = (i: number) => side(i) ** 4 / 6 + mass(i) * shift(i) ** 2;
  const sum = (f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i)).reduce((a, b) => a + b);
  const cells = squareCells(xy, side, shift);

  test('rows from the source and host rows merge in site order, as the closed forms say', () => {
    const hostRows = Uint32Array.from([0, 3, 4, 17, 49]);
    const raw = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) raw.set([2 * mass(i), 6 * sx(i), 0, 12 * energy(i)], 4 * i);
    for (const r of hostRows) raw[4 * r] = Number.NaN;
    const host = { coords: [] as number[], ringOffsets: [0] };
    for (const r of hostRows) {
      for (let k = cells.ringOffsets[r]; k < cells.ringOffsets[r + 1]; k++)
        host.coords.push(cells.coords[2 * k], cells.coords[2 * k + 1]);
      host.ringOffsets.push(host.coords.length >> 1);
    }
    const got: SourcedMoments = {
      raw,
      hostRows,
      hostCells: { coords: Float64Array.from(host.coords), ringOffsets: Int32Array.from(host.ringOffsets) },
    };
    const e = evaluationOf(got, xy, null);
    const everyHost = evaluationOf({ raw: null, hostRows: null, hostCells: cells }, xy, null);
    for (const ev of [e, everyHost]) {
      expect(ev.totalMass).toBeCloseTo(sum(mass), 12);
      expect(ev.energy).toBeCloseTo(sum(energy), 12);
      for (let i = 0; i < n; i++) {
        expect(ev.gradient[2 * i]).toBeCloseTo(-2 * sx(i), 12);
        expect(ev.gradient[2 * i + 1]).toBeCloseTo(0, 12);
        expect(ev.centroids[2 * i]).toBeCloseTo(xy[2 * i] + shift(i), 12);
        expect(ev.centroids[2 * i + 1]).toBeCloseTo(xy[2 * i + 1], 12);
      }
    }
  });

  test('repeated sites: the source gets the unique ones; a repeat has no cell and keeps its place', async () => {
    const region = prepareClipRegion(multiPolygonColumn([[[square(-1, -1, 12)]]]));
    const seen: number[] = [];
    const source: MomentSource = async (sites) => {
      seen.push(sites.length >> 1);
      return { raw: null, hostRows: null, hostCells: squareCells(sites, side, shift) };
    };
    const evaluate = sourcedEvaluator(region, { minX: -1, minY: -1, maxX: 11, maxY: 11 }, source);
    const x = new Float64Array([...xy, xy[6], xy[7]]); // site n repeats site 3
    const e = await evaluate(x);
    expect(seen).toEqual([n]);
    expect(e.totalMass).toBeCloseTo(sum(mass), 12);
    expect(e.gradient[2 * n]).toBe(0);
    expect([e.centroids[2 * n], e.centroids[2 * n + 1]]).toEqual([xy[6], xy[7]]);
    expect(e.centroids[6]).toBeCloseTo(xy[6] + shift(3), 12);
    expect(e.centroids[10]).toBeCloseTo(xy[10] + shift(5), 12);
    const again = await evaluate(xy);
    expect(seen).toEqual([n, n]);
    expect(again.energy).toBeCloseTo(sum(energy), 12);
  });
});
