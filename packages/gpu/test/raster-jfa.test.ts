import type { RasterGrid, RasterMode } from '@geoframe/core';
import { voronoiRasterCpu } from '@geoframe/cpu';
import { voronoiRasterGpu } from '@geoframe/gpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { compareLabels } from './raster-reference.js';

function uniform(n: number, dims: 2 | 3, lo: number, hi: number, seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  return Float64Array.from({ length: n * dims }, () => lo + (hi - lo) * rng.next());
}

/** Integer lattice points 0..side−1 per axis in a seeded random order (index order ≠ space order). */
function shuffledLattice(side: number, dims: 2 | 3, seed: number): Float64Array {
  const n = side ** dims;
  const order = Array.from({ length: n }, (_, i) => i);
  const rng = new SeededRandom(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const out = new Float64Array(n * dims);
  order.forEach((v, k) => {
    for (let a = 0; a < dims; a++) out[k * dims + a] = Math.floor(v / side ** a) % side;
  });
  return out;
}

const MODES: RasterMode[] = ['jfa', 'jfa+1', '1+jfa'];

const CASES: [string, Float64Array, 2 | 3, RasterGrid][] = [
  [
    '2D uniform 200 sites, 128²',
    uniform(200, 2, 0, 50, 11),
    2,
    { width: 128, height: 128, depth: 1, bounds: [0, 0, 50, 50] },
  ],
  [
    '2D clusters, non-square 150×90 over non-square bounds, sites cut off',
    generatePoints('clusters', 300, 4),
    2,
    { width: 150, height: 90, depth: 1, bounds: [100, 200, 900, 700] },
  ],
  [
    '2D lattice 64², ties',
    generatePoints('lattice', 64, 1),
    2,
    { width: 64, height: 64, depth: 1, bounds: [-0.5, -0.5, 7.5, 7.5] },
  ],
  [
    '2D duplicates, one pixel holding several sites',
    generatePoints('duplicates', 60, 3),
    2,
    { width: 64, height: 48, depth: 1, bounds: [0, 0, 1000, 1000] },
  ],
  ['2D one site', Float64Array.of(3, 4), 2, { width: 64, height: 64, depth: 1, bounds: [0, 0, 10, 10] }],
  [
    // pixel centres at half-integers: every pixel is equidistant from 4 sites, whose order is random
    '2D shuffled lattice, exact 4-way ties',
    shuffledLattice(24, 2, 7),
    2,
    { width: 24, height: 24, depth: 1, bounds: [0, 0, 24, 24] },
  ],
  [
    '3D shuffled lattice, exact 8-way ties',
    shuffledLattice(8, 3, 8),
    3,
    { width: 8, height: 8, depth: 8, bounds: [0, 0, 0, 8, 8, 8] },
  ],
  [
    '3D uniform 80 sites, 32×24×16',
    uniform(80, 3, 0, 8, 12),
    3,
    { width: 32, height: 24, depth: 16, bounds: [0, 0, 0, 8, 8, 8] },
  ],
];

describe.each(MODES)('%s equals voronoiRasterCpu except at f32 near-ties', (mode) => {
  test.each(CASES)('%s', async (_name, sites, dims, grid) => {
    const ctx = await requireGpu();
    const result = await voronoiRasterGpu(ctx, sites, dims, grid, { mode });
    const ref = voronoiRasterCpu(sites, dims, grid, { mode }).labels;
    const { nearTies, real } = compareLabels(result.labels, ref, sites, dims, grid);
    expect(real).toEqual([]);
    expect(nearTies).toBeLessThanOrEqual(result.labels.length / 1000);
    const steps = Math.log2(2 ** Math.ceil(Math.log2(Math.max(grid.width, grid.height, grid.depth))));
    expect(result.stats.jfaSteps.length).toBe(steps + (mode === 'jfa' ? 0 : 1));
    expect(result.stats.pixelsProcessed).toBe(result.stats.jfaSteps.length * result.labels.length);
  });
});

test('all sites outside the bounds: every JFA label is −1; no sites at all too', async () => {
  const ctx = await requireGpu();
  const grid = { width: 40, height: 30, depth: 1, bounds: [0, 0, 1, 1] };
  for (const sites of [Float64Array.of(2, 2, -1, 0.5), new Float64Array(0)]) {
    const result = await voronoiRasterGpu(ctx, sites, 2, grid, { mode: 'jfa+1', distance: true });
    expect(result.labels.every((l) => l === -1)).toBe(true);
    expect(result.distance!.every((d) => d === Number.POSITIVE_INFINITY)).toBe(true);
  }
});

test('JFA+1 and 1+JFA misclassify < 0.1% of pixels against exact at ~1000 pixels per site (256 sites, 512²)', async () => {
  const ctx = await requireGpu();
  const grid = { width: 512, height: 512, depth: 1, bounds: [0, 0, 1, 1] };
  const sites = uniform(256, 2, 0, 1, 21);
  const exact = (await voronoiRasterGpu(ctx, sites, 2, grid, { mode: 'exact' })).labels;
  for (const mode of ['jfa+1', '1+jfa'] as const) {
    const labels = (await voronoiRasterGpu(ctx, sites, 2, grid, { mode })).labels;
    let wrong = 0;
    for (let p = 0; p < labels.length; p++) if (labels[p] !== exact[p]) wrong++;
    expect(wrong / labels.length).toBeLessThan(1e-3);
  }
});

test('grid and site validation', async () => {
  const ctx = await requireGpu();
  const grid = { width: 4, height: 4, depth: 1, bounds: [0, 0, 1, 1] };
  await expect(
    voronoiRasterGpu(ctx, Float64Array.of(0, 0), 2, { ...grid, width: 0 }, { mode: 'jfa' }),
  ).rejects.toThrow(RangeError);
  await expect(
    voronoiRasterGpu(ctx, Float64Array.of(0, 0), 2, { ...grid, bounds: [0, 0, 0, 1] }, { mode: 'jfa' }),
  ).rejects.toThrow(RangeError);
  await expect(
    voronoiRasterGpu(ctx, Float64Array.of(0, Number.NaN), 2, grid, { mode: 'exact' }),
  ).rejects.toThrow(/site 0/);
  await expect(voronoiRasterGpu(ctx, Float64Array.of(0, 0, 1), 2, grid, { mode: 'jfa' })).rejects.toThrow(
    RangeError,
  );
  const huge = { width: 2 ** 15, height: 2 ** 15, depth: 1, bounds: [0, 0, 1, 1] };
  await expect(voronoiRasterGpu(ctx, Float64Array.of(0, 0), 2, huge, { mode: 'jfa' })).rejects.toThrow(
    /storage binding/,
  );
});

// one test a grid (each runs its four modes three ways and the CPU), so that each stays well
// inside the per-test timeout on a loaded machine
const CARRY_CASES: [string, Float64Array, RasterGrid][] = [
  // 300 rows: 38 tile rows, so the step-256 pass visits 32 × 2 dispatch rows, 26 beyond the grid
  [
    'uniform 500 on 200×300',
    uniform(500, 2, 0, 1, 41),
    { width: 200, height: 300, depth: 1, bounds: [0, 0, 1, 1.5] },
  ],
  [
    'lattice 100 on 97×61',
    generatePoints('lattice', 100, 2),
    { width: 97, height: 61, depth: 1, bounds: [-1, -1, 11, 11] },
  ],
  // exact ties everywhere, decided by site index (ranks in the passes, see rankSites)
  [
    'shuffled lattice 24² on 24²',
    shuffledLattice(24, 2, 9),
    { width: 24, height: 24, depth: 1, bounds: [0, 0, 24, 24] },
  ],
  [
    'clusters 2000 on 256²',
    generatePoints('clusters', 2000, 5),
    { width: 256, height: 256, depth: 1, bounds: [0, 0, 1000, 1000] },
  ],
  // dense enough that 'auto' carries the middle passes only (gather → carry → gather)
  [
    'uniform 20000 on 512²',
    uniform(20000, 2, 0, 1, 42),
    { width: 512, height: 512, depth: 1, bounds: [0, 0, 1, 1] },
  ],
];

test.each(CARRY_CASES)(
  '2D passes that carry site positions give the labels of passes that gather them, on grids of ragged tiles: %s',
  async (_, sites, grid) => {
    const ctx = await requireGpu();
    for (const mode of [...MODES, 'facet-jfa'] as const) {
      const all = await voronoiRasterGpu(ctx, sites, 2, grid, { mode, carryPositions: true });
      const none = await voronoiRasterGpu(ctx, sites, 2, grid, { mode, carryPositions: false });
      const auto = await voronoiRasterGpu(ctx, sites, 2, grid, { mode });
      expect(all.stats.carriedPasses).toBe(all.stats.jfaSteps.length);
      expect(none.stats.carriedPasses).toBe(0);
      expect(all.labels).toEqual(none.labels);
      expect(auto.labels).toEqual(none.labels);
      const ref = voronoiRasterCpu(sites, 2, grid, { mode }).labels;
      expect(compareLabels(all.labels, ref, sites, 2, grid).real).toEqual([]);
    }
  },
);

test("'auto' carries the middle passes only on a dense grid (gather → carry → gather)", async () => {
  const ctx = await requireGpu();
  const [, sites, grid] = CARRY_CASES[4] as [string, Float64Array, RasterGrid];
  const mixed = await voronoiRasterGpu(ctx, sites, 2, grid, { mode: 'jfa+1' });
  expect(mixed.stats.carriedPasses).toBeGreaterThan(0);
  expect(mixed.stats.carriedPasses).toBeLessThan(mixed.stats.jfaSteps.length - 1);
});
