// The raster CVT on the CPU: against the exact mode, Lloyd against L-BFGS (the paper's Table 1
// setting at a small size), the labels-settled stop, bad input.
import type { CvtRasterProblem } from '@geoframe/core';
import { cvtExact, cvtRasterCpu, voronoiCells } from '@geoframe/cpu';
import { SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { boxRegion, exactProblem } from './cvt-helpers.js';

const SQUARE = { minX: -1, minY: -1, maxX: 1, maxY: 1 };

function randomSites(n: number, seed: number): Float64Array {
  const rnd = new SeededRandom(seed);
  return Float64Array.from({ length: 2 * n }, () => -0.98 + 1.96 * rnd.next());
}

function problem(sites: Float64Array, side: number, extra: Partial<CvtRasterProblem> = {}): CvtRasterProblem {
  return {
    sites,
    grid: { width: side, height: side, depth: 1, bounds: [-1, -1, 1, 1] },
    method: 'lloyd',
    maxIterations: 100,
    tolerance: 0,
    labelling: '1+jfa',
    ...extra,
  };
}

const table2 = (x: number, y: number) =>
  Math.exp(-20 * x * x - 20 * y * y) + 0.05 * Math.sin(Math.PI * x) ** 2 * Math.sin(Math.PI * y) ** 2;

function densityGrid(side: number, rho: (x: number, y: number) => number): Float32Array {
  const d = new Float32Array(side * side);
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++)
      d[r * side + c] = rho(-1 + (2 * (c + 0.5)) / side, 1 - (2 * (r + 0.5)) / side);
  }
  return d;
}

describe('raster CVT on the CPU', () => {
  for (const labelling of ['1+jfa', 'exact'] as const) {
    test(`final energy within 1 % of the exact mode on the same start (${labelling}, uniform and Table 2 density)`, async () => {
      const sites = randomSites(40, 3);
      const raster = cvtRasterCpu(problem(sites, 160, { labelling, maxIterations: 30 }));
      const exact = await cvtExact(
        exactProblem(sites, boxRegion(SQUARE), { kind: 'uniform' }, 'lloyd', 30, 0, SQUARE),
        {
          cells: voronoiCells,
        },
      );
      const last = (a: Float64Array) => a[a.length - 1];
      expect(Math.abs(last(raster.energy) - last(exact.energy)) / last(exact.energy)).toBeLessThan(0.01);
      const density = densityGrid(160, table2);
      const rasterW = cvtRasterCpu(problem(sites, 160, { labelling, maxIterations: 20, density }));
      const exactW = await cvtExact(
        exactProblem(
          sites,
          boxRegion(SQUARE),
          { kind: 'function', at: table2, h: 0.05 },
          'lloyd',
          20,
          0,
          SQUARE,
        ),
        { cells: voronoiCells },
      );
      expect(Math.abs(last(rasterW.energy) - last(exactW.energy)) / last(exactW.energy)).toBeLessThan(0.01);
    });
  }

  test('Table 1 at a small size: L-BFGS reaches Lloyd’s energy in fewer evaluations', () => {
    const sites = randomSites(64, 7);
    const lloyd = cvtRasterCpu(problem(sites, 96, { maxIterations: 400, tolerance: 1e-5 }));
    const target = lloyd.energy[lloyd.energy.length - 1];
    let reachedAt = -1;
    cvtRasterCpu(problem(sites, 96, { method: 'lbfgs', maxIterations: lloyd.evaluations }), {
      onIteration: (s) => {
        if (reachedAt < 0 && s.energy <= target) reachedAt = s.iteration;
      },
    });
    expect(lloyd.evaluations).toBeGreaterThan(20);
    expect(reachedAt).toBeGreaterThan(0);
    expect(reachedAt).toBeLessThan(lloyd.evaluations);
  });

  test('Lloyd stops when the labels stop changing, and the energy never rises much on exact labels', () => {
    const run = cvtRasterCpu(problem(randomSites(30, 9), 64, { labelling: 'exact', maxIterations: 500 }));
    expect(run.converged).toBe(true);
    expect(run.iterations).toBeLessThan(500);
    // pixel-quantised Lloyd: monotone up to the quantisation of one pixel's moment
    for (let i = 1; i < run.energy.length; i++)
      expect(run.energy[i]).toBeLessThanOrEqual(run.energy[i - 1] * 1.001);
  });

  test('deterministic, and a mask zeroes the density outside the region', () => {
    const sites = randomSites(20, 2);
    const mask = new Uint8Array(64 * 64);
    for (let p = 0; p < mask.length; p++) mask[p] = p % 64 < 32 ? 1 : 0;
    const a = cvtRasterCpu(problem(sites, 64, { mask, method: 'lbfgs', maxIterations: 30 }));
    const b = cvtRasterCpu(problem(sites, 64, { mask, method: 'lbfgs', maxIterations: 30 }));
    expect(a.sites).toEqual(b.sites);
    const lloyd = cvtRasterCpu(problem(sites, 64, { mask, maxIterations: 3 }));
    // after one Lloyd step every site with mass sits in the left half
    const moved = lloyd.sites.filter((v, k) => k % 2 === 0 && v > 0.05);
    expect(moved.length).toBeLessThan(sites.length / 4);
  });

  test('bad input: density of the wrong size, negative or NaN', () => {
    const sites = randomSites(5, 1);
    expect(() => cvtRasterCpu(problem(sites, 8, { density: new Float32Array(3) }))).toThrow(/3 values/);
    const neg = new Float32Array(64).fill(1);
    neg[10] = -1;
    expect(() => cvtRasterCpu(problem(sites, 8, { density: neg }))).toThrow(/pixel 10 is -1/);
    neg[10] = Number.NaN;
    expect(() => cvtRasterCpu(problem(sites, 8, { density: neg }))).toThrow(/pixel 10 is NaN/);
  });
});
