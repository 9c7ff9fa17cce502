import type { CvtIteration, CvtRasterProblem, RasterGrid } from '@geoframe/core';
import { cvtRasterGpu, GpuProfiler, runOnGpu } from '@geoframe/gpu';
import { SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { jfaPasses } from '../src/cvt/cvt-programs.js';
import { CvtSession } from '../src/cvt/cvt-session.js';
import { prepareCvt } from '../src/cvt/cvt-setup.js';
import { STATE } from '../src/cvt/cvt-wgsl.js';
import { asDeviceSites, evaluateReference, lloydReference } from './cvt-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/** Runs the GPU CVT under the watchdog, collecting the onIteration reports. */
async function runGpu(problem: CvtRasterProblem) {
  const ctx = await requireGpu();
  const reports: CvtIteration[] = [];
  const run = await runOnGpu(
    'cvt',
    problem.grid.width * problem.grid.height,
    (c) => cvtRasterGpu(c, problem, { onIteration: (s) => reports.push(s) }),
    { context: ctx },
  );
  return { ...run, reports };
}

function uniformSites(n: number, grid: RasterGrid, seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  const [x0, y0, x1, y1] = grid.bounds;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = x0 + (x1 - x0) * rng.next();
    out[2 * i + 1] = y0 + (y1 - y0) * rng.next();
  }
  return out;
}

function problemOf(
  sites: Float64Array,
  grid: RasterGrid,
  extra: Partial<CvtRasterProblem> = {},
): CvtRasterProblem {
  return { sites, grid, method: 'lloyd', maxIterations: 1, tolerance: 0, labelling: 'exact', ...extra };
}

/** The paper's Table 2 density over the grid's pixel centres, with the grid mapped onto [−1, 1]². */
function bumpDensity(grid: RasterGrid): Float32Array {
  const out = new Float32Array(grid.width * grid.height);
  for (let r = 0; r < grid.height; r++)
    for (let c = 0; c < grid.width; c++) {
      const x = (2 * (c + 0.5)) / grid.width - 1;
      const y = (2 * (r + 0.5)) / grid.height - 1;
      out[r * grid.width + c] =
        Math.exp(-20 * x * x - 20 * y * y) + 0.05 * Math.sin(Math.PI * x) ** 2 * Math.sin(Math.PI * y) ** 2;
    }
  return out;
}

/** A disk mask of radius 0.45·min(width, height) pixels about the grid's centre. */
function diskMask(grid: RasterGrid): Uint8Array {
  const out = new Uint8Array(grid.width * grid.height);
  const r = 0.45 * Math.min(grid.width, grid.height);
  for (let row = 0; row < grid.height; row++)
    for (let col = 0; col < grid.width; col++) {
      const dx = col + 0.5 - grid.width / 2;
      const dy = row + 0.5 - grid.height / 2;
      out[row * grid.width + col] = dx * dx + dy * dy <= r * r ? 1 : 0;
    }
  return out;
}

const G64: RasterGrid = { width: 64, height: 48, depth: 1, bounds: [-3, 2, 7, 7] }; // non-square pixels
const G96: RasterGrid = { width: 96, height: 96, depth: 1, bounds: [-1, -1, 1, 1] };
const OFFSET: RasterGrid = { width: 80, height: 64, depth: 1, bounds: [1e7, -1e7, 1e7 + 1e-3, -1e7 + 8e-4] };
const TINY: RasterGrid = { width: 64, height: 64, depth: 1, bounds: [0, 0, 1e-12, 1e-12] };

/** `n` sites in three tight clusters (1 % of the extent) of the grid. */
function clustered(n: number, grid: RasterGrid, seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  const [x0, y0, x1, y1] = grid.bounds;
  const centres = [0.2, 0.3, 0.7, 0.6, 0.5, 0.85];
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const c = i % 3;
    out[2 * i] = x0 + (x1 - x0) * (centres[2 * c] + 0.01 * rng.next());
    out[2 * i + 1] = y0 + (y1 - y0) * (centres[2 * c + 1] + 0.01 * rng.next());
  }
  return out;
}

/**
 * Bounds of one evaluation against the f64 brute force from the same f32 sites: F and ‖∇F‖ within
 * 2e-5 relative (f32 terms and positions, exact fixed-point sums), centroids within 2e-4 pixel
 * widths (f32 division of sums of ~10⁴ terms; no label differs on these inputs).
 */
const ENERGY_REL = 2e-5;
const CENTROID_PX = 2e-4;

function expectEvaluation(problem: CvtRasterProblem, run: Awaited<ReturnType<typeof runGpu>>) {
  const ref = evaluateReference(problem, asDeviceSites(problem));
  const pw = (problem.grid.bounds[2] - problem.grid.bounds[0]) / problem.grid.width;
  expect(Math.abs(run.energy[0] - ref.energy)).toBeLessThanOrEqual(ENERGY_REL * ref.energy);
  expect(Math.abs(run.gradientNorm[0] - ref.gradientNorm)).toBeLessThanOrEqual(
    ENERGY_REL * ref.gradientNorm + 1e-9 * ref.energy,
  );
  for (let k = 0; k < run.sites.length; k++) {
    // plus the f64 rounding of coordinates far from the origin (4 ulps)
    const ulps = (4 * Math.abs(ref.centroid[k]) * Number.EPSILON) / pw;
    expect(Math.abs(run.sites[k] - ref.centroid[k]) / pw).toBeLessThanOrEqual(CENTROID_PX + ulps);
  }
}

describe('cvtRasterGpu: one evaluation equals the f64 brute force', () => {
  const cases: [string, CvtRasterProblem][] = [
    ['uniform ρ, 20 sites, non-square pixels', problemOf(uniformSites(20, G64, 1), G64)],
    ['bump density, 37 sites', problemOf(uniformSites(37, G96, 2), G96, { density: bumpDensity(G96) })],
    [
      'disk mask with sites outside it, density',
      problemOf(Float64Array.of(-0.95, -0.95, 0.95, 0.95, 0, 0, 0.2, 0.1, -0.3, 0.4), G96, {
        mask: diskMask(G96),
        density: bumpDensity(G96),
      }),
    ],
    [
      'huge offset (1e7) and tiny extent (1e-3), 15 sites',
      problemOf(uniformSites(15, OFFSET, 4), OFFSET, { density: bumpDensity(OFFSET) }),
    ],
    ['extreme magnitudes (extent 1e-12), 12 sites', problemOf(uniformSites(12, TINY, 6), TINY)],
    ['clustered sites (most cells empty-ish), 30 sites', problemOf(clustered(30, G96, 12), G96)],
  ];
  test.each(cases)('%s', async (_, problem) => {
    expectEvaluation(problem, await runGpu(problem));
  });
});

describe('cvtRasterGpu: Lloyd with exact labelling follows a brute-force Lloyd', () => {
  const lattice = new Float64Array(2 * 16);
  for (let i = 0; i < 16; i++) {
    lattice[2 * i] = -0.75 + 0.5 * (i % 4);
    lattice[2 * i + 1] = -0.75 + 0.5 * Math.floor(i / 4);
  }
  const collinear = Float64Array.from({ length: 20 }, (_, k) => (k % 2 === 0 ? -0.9 + 0.19 * (k / 2) : 0.3));
  const onePixel = Float64Array.from({ length: 12 }, (_, k) => (k % 2 === 0 ? 0.301 : -0.402));
  const duplicates = uniformSites(8, G96, 5);
  const withCopies = Float64Array.from([...duplicates, ...duplicates.subarray(0, 6)]);
  // [name, problem, allowance in pixels for sites whose bisectors pass exactly through pixel
  // centres: there the tie is decided by the f32 rounding of the centroids (WGSL's division
  // is not correctly rounded), so a whole column of pixels may go either way]
  const cases: [string, CvtRasterProblem, number][] = [
    ['25 uniform sites, 4 steps', problemOf(uniformSites(25, G64, 3), G64, { maxIterations: 4 }), 0],
    ['lattice (exact ties), 3 steps', problemOf(lattice, G96, { maxIterations: 3 }), 0],
    [
      'collinear (strips: ties at pixel centres), 4 steps',
      problemOf(collinear, G96, { maxIterations: 4 }),
      1,
    ],
    ['all sites in one pixel (empty cells stay), 3 steps', problemOf(onePixel, G96, { maxIterations: 3 }), 0],
    [
      'duplicates, density, 3 steps',
      problemOf(withCopies, G96, { maxIterations: 3, density: bumpDensity(G96) }),
      0,
    ],
    [
      'one site, mask',
      problemOf(Float64Array.of(0.9, -0.9), G96, { maxIterations: 2, mask: diskMask(G96) }),
      0,
    ],
  ];
  test.each(cases)('%s', async (_, problem, tiePx) => {
    const run = await runGpu(problem);
    const ref = lloydReference(problem, problem.maxIterations);
    expect(run.iterations).toBe(problem.maxIterations);
    expect(run.energy.length).toBe(problem.maxIterations);
    for (let k = 0; k < ref.energy.length; k++) {
      expect(Math.abs(run.energy[k] - ref.energy[k])).toBeLessThanOrEqual(ENERGY_REL * ref.energy[k]);
    }
    const final = ref.sites;
    const pw = (problem.grid.bounds[2] - problem.grid.bounds[0]) / problem.grid.width;
    for (let k = 0; k < final.length; k++) {
      expect(Math.abs(run.sites[k] - final[k]) / pw).toBeLessThanOrEqual(
        problem.maxIterations * CENTROID_PX + tiePx,
      );
    }
    expect(run.reports.map((r) => r.iteration)).toEqual(Array.from(run.energy, (_, i) => i + 1));
    for (const e of run.energy) expect(Number.isFinite(e)).toBe(true);
  });
});

describe('cvtRasterGpu: 1+JFA, determinism, L-BFGS', () => {
  test('1+JFA with the adaptive first step stays within 0.5 % of the exact labelling over 30 Lloyd iterations', async () => {
    const base = problemOf(uniformSites(40, G96, 7), G96, { maxIterations: 30, density: bumpDensity(G96) });
    const exact = await runGpu(base);
    const jfa = await runGpu({ ...base, labelling: '1+jfa' });
    expect(jfa.iterations).toBe(30);
    for (let k = 0; k < 30; k++) {
      expect(Math.abs(jfa.energy[k] - exact.energy[k])).toBeLessThanOrEqual(5e-3 * exact.energy[k]);
    }
    // the first evaluation's labels are the exact ones but for f32 JFA misses: energy equal to 1e-4
    expect(Math.abs(jfa.energy[0] - exact.energy[0])).toBeLessThanOrEqual(1e-4 * exact.energy[0]);
  });

  test("two islands, sites crowded into one: the adaptive step gives the full sequence's energies", async () => {
    const mask = new Uint8Array(96 * 96);
    for (let r = 0; r < 96; r++)
      for (let c = 0; c < 96; c++) mask[r * 96 + c] = c < 20 || (c >= 84 && r >= 70) ? 1 : 0;
    const sites = clustered(45, { ...G96, bounds: [-1, -1, -0.6, 1] }, 14);
    for (const method of ['lloyd', 'lbfgs'] as const) {
      const base = problemOf(sites, G96, { maxIterations: 25, labelling: '1+jfa', mask, method });
      const adaptive = await runGpu(base);
      const ctx = await requireGpu();
      const full = await runOnGpu('cvt', 96 * 96, (c) => cvtRasterGpu(c, base, { adaptiveStep: false }), {
        context: ctx,
      });
      const last = (e: Float64Array) => e[e.length - 1];
      expect(Math.abs(last(adaptive.energy) - last(full.energy))).toBeLessThanOrEqual(
        5e-3 * last(full.energy),
      );
    }
  });

  test('two runs give bit-identical results (1+JFA and L-BFGS)', async () => {
    const problem = problemOf(uniformSites(30, G96, 8), G96, { maxIterations: 12, labelling: '1+jfa' });
    for (const method of ['lloyd', 'lbfgs'] as const) {
      const a = await runGpu({ ...problem, method });
      const b = await runGpu({ ...problem, method });
      expect(Array.from(b.sites)).toEqual(Array.from(a.sites));
      expect(Array.from(b.energy)).toEqual(Array.from(a.energy));
      expect(Array.from(b.gradientNorm)).toEqual(Array.from(a.gradientNorm));
    }
  });

  test('a pass per stage (profiled) and one pass per submission give bit-identical results; what a Lloyd iteration records', async () => {
    const ctx = await requireGpu();
    const problem = problemOf(uniformSites(30, G96, 8), G96, { maxIterations: 12, labelling: '1+jfa' });
    const passes = jfaPasses(prepareCvt(problem));
    for (const method of ['lloyd', 'lbfgs'] as const) {
      for (const labelling of ['1+jfa', 'exact'] as const) {
        const p = { ...problem, method, labelling };
        const host: Record<string, number> = {};
        const plain = await runOnGpu('cvt', 96 * 96, (c) => cvtRasterGpu(c, p, { hostMs: host }), {
          context: ctx,
        });
        const profiler = new GpuProfiler(ctx, { maxPasses: 1024 });
        const timed = await runOnGpu('cvt', 96 * 96, (c) => cvtRasterGpu(c, p, { profiler }), {
          context: ctx,
        }).finally(() => profiler.destroy());
        expect(Array.from(timed.sites)).toEqual(Array.from(plain.sites));
        expect(Array.from(timed.energy)).toEqual(Array.from(plain.energy));
        expect(Array.from(timed.gradientNorm)).toEqual(Array.from(plain.gradientNorm));
        const stages = Object.keys(timed.gpuPassMs ?? {});
        expect(stages).toEqual(expect.arrayContaining(['cvt seed', 'cvt moments', 'cvt finish']));
        if (method === 'lbfgs')
          expect(stages).toEqual(expect.arrayContaining(['cvt trial', 'cvt direction']));
        if (method === 'lloyd') {
          // 1+JFA: the prologue (2 fills, the seeding), then per iteration the JFA passes, the
          // moments, the finish and the next seeding; 'exact': one fill, then label, moments, finish
          const perIteration = labelling === 'exact' ? 3 : passes + 3;
          const prologue = labelling === 'exact' ? 1 : 3;
          expect(host.dispatches).toBe(prologue + plain.iterations * perIteration);
        }
      }
    }
  });

  test.each([
    ['uniform ρ', undefined],
    ['bump density', bumpDensity(G96)],
  ] as const)(
    "L-BFGS (%s) decreases F and reaches Lloyd's energy in fewer evaluations",
    async (_, density) => {
      const base = problemOf(uniformSites(30, G96, 9), G96, {
        maxIterations: 40,
        labelling: '1+jfa',
        density,
      });
      const lloyd = await runGpu(base);
      const lbfgs = await runGpu({ ...base, method: 'lbfgs' });
      const target = lloyd.energy[lloyd.energy.length - 1];
      for (let k = 1; k < lbfgs.energy.length; k++) expect(lbfgs.energy[k]).toBeLessThan(lbfgs.energy[k - 1]);
      expect(lbfgs.energy[0]).toBe(lloyd.energy[0]);
      const reached = lbfgs.reports.find((r) => r.energy <= target);
      expect(reached).toBeDefined();
      expect(reached!.iteration).toBeLessThan(lloyd.iterations);
      expect(lbfgs.evaluations).toBeLessThanOrEqual(40);
      for (const v of lbfgs.sites) expect(Number.isFinite(v)).toBe(true);
    },
  );

  test('L-BFGS never exceeds its evaluation budget, and one evaluation returns the start', async () => {
    const problem = problemOf(uniformSites(20, G96, 13), G96, { method: 'lbfgs', labelling: '1+jfa' });
    for (const max of [1, 2, 7]) {
      const reports: number[] = [];
      const ctx = await requireGpu();
      const run = await runOnGpu(
        'cvt',
        96 * 96,
        (c) =>
          cvtRasterGpu(
            c,
            { ...problem, maxIterations: max },
            { onIteration: (r) => reports.push(r.iteration) },
          ),
        { context: ctx },
      );
      expect(run.evaluations).toBeLessThanOrEqual(max);
      expect(reports.at(-1)).toBeLessThanOrEqual(max);
      if (max === 1) expect(Array.from(run.sites)).toEqual(Array.from(asDeviceSites(problem)));
    }
  });

  test('Lloyd stops when the labels stop changing, and at the tolerance', async () => {
    const problem = problemOf(uniformSites(6, G64, 10), G64, { maxIterations: 400 });
    const run = await runGpu(problem);
    expect(run.converged).toBe(true);
    expect(run.iterations).toBeLessThan(400);
    const loose = await runGpu({ ...problem, tolerance: 1e-2 });
    expect(loose.converged).toBe(true);
    expect(loose.iterations).toBeLessThan(run.iterations);
  });
});

describe('cvtRasterGpu: bad problems get clear errors', () => {
  const ok = problemOf(uniformSites(3, G64, 11), G64);
  const cases: [string, Partial<CvtRasterProblem>, RegExp][] = [
    ['a NaN site', { sites: Float64Array.of(0, 3, Number.NaN, 4) }, /site 1 is not finite/],
    ['a site outside the grid', { sites: Float64Array.of(0, 3, 8, 4) }, /site 1 .* outside/],
    ['no sites', { sites: new Float64Array(0) }, /no sites/],
    ['an odd coordinate count', { sites: Float64Array.of(1, 3, 2) }, /pairs/],
    ['a negative density', { density: new Float32Array(64 * 48).fill(-1) }, /density -1 at pixel 0/],
    ['a density of the wrong length', { density: new Float32Array(5) }, /density has 5 values/],
    ['an empty mask', { mask: new Uint8Array(64 * 48) }, /zero mass/],
    ['a 3D grid', { grid: { width: 4, height: 4, depth: 2, bounds: [0, 0, 0, 1, 1, 1] } }, /2D/],
    ['zero iterations', { maxIterations: 0 }, /maxIterations 0/],
    ['a negative tolerance', { tolerance: -1 }, /tolerance -1/],
  ];
  test.each(cases)('%s', async (_, change, message) => {
    const ctx = await requireGpu();
    await expect(cvtRasterGpu(ctx, { ...ok, ...change })).rejects.toThrow(message);
  });
});

describe("cvtRasterGpu: the adaptive step's safety net", () => {
  test('an evaluation whose first JFA step is too short counts its unlabelled pixels, and the next runs every step', async () => {
    const ctx = await requireGpu();
    const problem = problemOf(uniformSites(12, G96, 15), G96, { maxIterations: 10, labelling: '1+jfa' });
    const setup = prepareCvt(problem);
    const session = await CvtSession.open(ctx, setup, problem, {});
    try {
      const warm = await session.submit(Array(6).fill(session.programs.evaluate), 0, 6);
      expect(warm.rows.every((r) => r.unlabelled === 0)).toBe(true);
      // pretend the cells were tiny: the prologue (seeding the same sites again) plans the next
      // evaluation's JFA from step 1
      ctx.device.queue.writeBuffer(session.buffers.state, 4 * STATE.maxMean, Float32Array.of(0.25));
      const short = await session.submit([session.programs.prologue, session.programs.evaluate], 6, 7);
      expect(short.rows[0].step).toBe(1);
      expect(short.rows[0].unlabelled).toBeGreaterThan(0);
      const next = await session.submit([session.programs.evaluate, session.programs.evaluate], 7, 9);
      expect(next.rows[0].step).toBe(setup.firstStep);
      expect(next.rows[0].unlabelled).toBe(0);
      expect(next.rows[1].unlabelled).toBe(0);
    } finally {
      session.destroy();
    }
  });
});
