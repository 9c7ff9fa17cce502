// The exact-mode CVT: energies against a brute-force reference, gradients against finite
// differences, Lloyd's monotone energy, L-BFGS, on box, clipped and holed regions.
import { cvtConverged } from '@geoframe/core';
import {
  cvtExact,
  densityPieces,
  type ExactDensity,
  exactEvaluator,
  prepareClipRegion,
  regionContains,
  voronoiCells,
} from '@geoframe/cpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { multiPolygonColumn } from './clip-helpers.js';
import { boxRegion, bruteEnergy, exactProblem, L_SHAPE, polygonRegion } from './cvt-helpers.js';

const UNIT = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
const cells = voronoiCells;
const gaussian = (x: number, y: number) => Math.exp(-4 * ((x - 0.3) ** 2 + (y - 0.6) ** 2)) + 0.1;

function randomSites(n: number, seed: number, box = UNIT): Float64Array {
  const rnd = new SeededRandom(seed);
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    xy[2 * i] = box.minX + (box.maxX - box.minX) * (0.02 + 0.96 * rnd.next());
    xy[2 * i + 1] = box.minY + (box.maxY - box.minY) * (0.02 + 0.96 * rnd.next());
  }
  return xy;
}

function lShapeInside(x: number, y: number): boolean {
  const inL = x >= 0 && y >= 0 && x <= 2 && y <= 2 && !(x > 1 && y > 1);
  return inL && !(x > 0.2 && x < 0.4 && y > 0.2 && y < 0.4);
}

describe('exact-mode energy', () => {
  test('a single site: the polygon moments of the unit square about a point', async () => {
    const ev = exactEvaluator(
      exactProblem(new Float64Array(2), boxRegion(UNIT), { kind: 'uniform' }, 'lloyd', 1),
      cells,
    );
    const e = await ev(Float64Array.of(0.25, 0.5));
    // ∫(x − .25)² + (y − .5)² over [0,1]² = (1/3 − .5 + .0625) + (1/3 − 1 + .25 + ... ) computed directly
    const exact = 1 / 3 - 0.25 + 0.0625 + (1 / 3 - 0.5 + 0.25);
    expect(e.energy).toBeCloseTo(exact, 14);
    expect(e.totalMass).toBeCloseTo(1, 14);
    expect(e.centroids[0]).toBeCloseTo(0.5, 14);
    expect(e.centroids[1]).toBeCloseTo(0.5, 14);
  });

  for (const seed of [1, 2, 3]) {
    test(`matches brute force on a holed L (uniform and a density function), seed ${seed}`, async () => {
      const sites = randomSites(25, seed, { minX: 0, minY: 0, maxX: 1, maxY: 2 });
      const region = polygonRegion(L_SHAPE);
      const box = { minX: 0, minY: 0, maxX: 2, maxY: 2 };
      const uniform = await exactEvaluator(
        exactProblem(sites, region, { kind: 'uniform' }, 'lloyd', 1),
        cells,
      )(sites);
      const ref = bruteEnergy(sites, box, 600, lShapeInside);
      expect(Math.abs(uniform.energy - ref) / ref).toBeLessThan(3e-3);
      expect(uniform.totalMass).toBeCloseTo(3 - 0.04, 12);
      const density: ExactDensity = { kind: 'function', at: gaussian };
      const weighted = await exactEvaluator(exactProblem(sites, region, density, 'lloyd', 1), cells)(sites);
      const refW = bruteEnergy(sites, box, 600, lShapeInside, gaussian);
      expect(Math.abs(weighted.energy - refW) / refW).toBeLessThan(3e-3);
    });
  }

  test('weights on polygons: exact per piece, and equal to the uniform energy for one covering polygon', async () => {
    const sites = randomSites(30, 9);
    const region = boxRegion(UNIT);
    const halves = multiPolygonColumn([
      [
        [
          [
            [0, 0],
            [0.5, 0],
            [0.5, 1],
            [0, 1],
          ],
        ],
      ],
      [
        [
          [
            [0.5, 0],
            [1, 0],
            [1, 1],
            [0.5, 1],
          ],
        ],
      ],
    ]);
    const pieces = densityPieces(halves, [1, 3], region);
    const ev = await exactEvaluator(
      exactProblem(sites, region, { kind: 'pieces', pieces }, 'lloyd', 1),
      cells,
    )(sites);
    const step = (x: number) => (x < 0.5 ? 1 : 3);
    const ref = bruteEnergy(
      sites,
      UNIT,
      800,
      () => true,
      (x) => step(x),
    );
    expect(Math.abs(ev.energy - ref) / ref).toBeLessThan(2e-3);
    expect(ev.totalMass).toBeCloseTo(2, 12);
    const one = densityPieces(
      multiPolygonColumn([
        [
          [
            [
              [-1, -1],
              [2, -1],
              [2, 2],
              [-1, 2],
            ],
          ],
        ],
      ]),
      [1],
      region,
    );
    const a = await exactEvaluator(
      exactProblem(sites, region, { kind: 'pieces', pieces: one }, 'lloyd', 1),
      cells,
    )(sites);
    const b = await exactEvaluator(
      exactProblem(sites, region, { kind: 'uniform' }, 'lloyd', 1),
      cells,
    )(sites);
    expect(a.energy).toBeCloseTo(b.energy, 12);
  });
});

describe('gradient', () => {
  const cases: [string, ExactDensity, number][] = [
    ['uniform', { kind: 'uniform' }, 1e-6],
    ['density function', { kind: 'function', at: gaussian }, 1e-4],
  ];
  for (const [name, density, tol] of cases) {
    test(`∇F matches central finite differences (${name}, clipped L region)`, async () => {
      const sites = randomSites(6, 5, { minX: 0, minY: 0, maxX: 1, maxY: 2 });
      const ev = exactEvaluator(exactProblem(sites, polygonRegion(L_SHAPE), density, 'lloyd', 1), cells);
      const at = await ev(sites);
      const h = 1e-5;
      let worst = 0;
      let scale = 0;
      for (let k = 0; k < sites.length; k++) {
        const plus = sites.slice();
        const minus = sites.slice();
        plus[k] += h;
        minus[k] -= h;
        const fd = ((await ev(plus)).energy - (await ev(minus)).energy) / (2 * h);
        worst = Math.max(worst, Math.abs(fd - at.gradient[k]));
        scale = Math.max(scale, Math.abs(at.gradient[k]));
      }
      expect(scale).toBeGreaterThan(1e-3);
      expect(worst / scale).toBeLessThan(tol);
    });
  }
});

describe('optimisers', () => {
  for (const seed of [11, 12]) {
    test(`Lloyd's energy never increases, and it converges to centroids (seed ${seed})`, async () => {
      const sites = randomSites(15, seed, { minX: 0, minY: 0, maxX: 1, maxY: 2 });
      const region = polygonRegion(L_SHAPE);
      const tolerance = 5e-4;
      const run = await cvtExact(
        exactProblem(sites, region, { kind: 'function', at: gaussian }, 'lloyd', 300, tolerance),
        { cells },
      );
      for (let i = 1; i < run.energy.length; i++)
        expect(run.energy[i]).toBeLessThanOrEqual(run.energy[i - 1] * (1 + 1e-12));
      expect(run.converged).toBe(true);
      const mass = (
        await exactEvaluator(
          exactProblem(sites, region, { kind: 'function', at: gaussian }, 'lloyd', 1),
          cells,
        )(run.sites)
      ).totalMass;
      expect(
        cvtConverged(run.gradientNorm[run.gradientNorm.length - 1], mass, Math.hypot(2, 2), tolerance),
      ).toBe(true);
    });
  }

  test('L-BFGS: accepted energies decrease and it reaches a lower energy than Lloyd with the same evaluations', async () => {
    const sites = randomSites(60, 21);
    const region = boxRegion(UNIT);
    const lloyd = await cvtExact(exactProblem(sites, region, { kind: 'uniform' }, 'lloyd', 40, 0, UNIT), {
      cells,
    });
    const lbfgs = await cvtExact(exactProblem(sites, region, { kind: 'uniform' }, 'lbfgs', 40, 0, UNIT), {
      cells,
    });
    for (let i = 1; i < lbfgs.energy.length; i++) expect(lbfgs.energy[i]).toBeLessThan(lbfgs.energy[i - 1]);
    expect(lbfgs.evaluations).toBeLessThanOrEqual(40);
    expect(lbfgs.energy[lbfgs.energy.length - 1]).toBeLessThan(lloyd.energy[lloyd.energy.length - 1]);
  });

  test('deterministic: the same start gives the same sites bit for bit', async () => {
    const sites = randomSites(30, 4);
    const p = exactProblem(sites, boxRegion(UNIT), { kind: 'uniform' }, 'lbfgs', 25, 0, UNIT);
    const a = await cvtExact(p, { cells });
    const b = await cvtExact(p, { cells });
    expect(a.sites).toEqual(b.sites);
    expect(a.energy).toEqual(b.energy);
  });
});

describe('adversarial starts', () => {
  const region = boxRegion(UNIT);
  const starts: [string, Float64Array][] = [
    ['one site', Float64Array.of(0.1, 0.9)],
    ['two sites', Float64Array.of(0.1, 0.1, 0.2, 0.1)],
    ['three collinear', Float64Array.of(0.1, 0.1, 0.2, 0.2, 0.3, 0.3)],
    ['collinear row', Float64Array.from({ length: 40 }, (_, k) => (k % 2 === 0 ? 0.05 + 0.02 * k : 0.5))],
    ['duplicates', Float64Array.of(0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.7, 0.7)],
    ['lattice', generatePoints('lattice', 25, 3).map((v) => 0.1 + 0.2 * v)],
    ['cluster', Float64Array.from(randomSites(20, 8).map((v) => 0.5 + 1e-6 * v))],
  ];
  for (const [name, start] of starts) {
    test(`${name}: finite, inside the region, energy not above the start's`, async () => {
      const run = await cvtExact(exactProblem(start, region, { kind: 'uniform' }, 'lloyd', 25, 1e-6, UNIT), {
        cells,
      });
      expect(run.sites.every(Number.isFinite)).toBe(true);
      for (let i = 0; i < run.sites.length; i += 2)
        expect(regionContains(region, run.sites[i], run.sites[i + 1])).toBe(true);
      expect(run.energy.every(Number.isFinite)).toBe(true);
      expect(run.energy[run.energy.length - 1]).toBeLessThanOrEqual(run.energy[0]);
    });
  }

  test('huge offsets: the same CVT shifted by 1e7 keeps the energy to 1e-6', async () => {
    const sites = randomSites(20, 31);
    const off = 1e7;
    const shifted = sites.map((v) => v + off);
    const box = { minX: off, minY: off, maxX: off + 1, maxY: off + 1 };
    const a = await cvtExact(exactProblem(sites, region, { kind: 'uniform' }, 'lloyd', 30, 0, UNIT), {
      cells,
    });
    const b = await cvtExact(
      exactProblem(shifted, boxRegion(box), { kind: 'uniform' }, 'lloyd', 30, 0, box),
      { cells },
    );
    expect(Math.abs(b.energy[29] - a.energy[29]) / a.energy[29]).toBeLessThan(1e-6);
  });

  test('a clipped region whose convex hull differs: the unclipped path is not taken', async () => {
    const r = prepareClipRegion(
      multiPolygonColumn([
        [
          [
            [
              [0, 0],
              [1, 0],
              [0, 1],
            ],
          ],
        ],
      ]),
    );
    const ev = await exactEvaluator(
      exactProblem(new Float64Array(2), r, { kind: 'uniform' }, 'lloyd', 1),
      cells,
    )(Float64Array.of(0.2, 0.2));
    expect(ev.totalMass).toBeCloseTo(0.5, 14);
  });
});
