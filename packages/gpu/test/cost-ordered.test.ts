import type { CostGridProblem } from '@geoframe/core';
import { costAllocationGpu, type GpuContext } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { costRaster, problemOf, randomSources } from './cost-rasters.js';
import { checkAllocation } from './cost-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/**
 * The ordered cost pass (tiles run by key, delta-stepping at tile grain) with a tiny Δ (most
 * listed tiles wait), the default Δ and Δ = ∞ (the plain pass): one fixed point, so costs and labels agree bit for bit; the default is checked
 * against the f64 reference (with backlinks).
 */
async function orderings(ctx: GpuContext, problem: CostGridProblem) {
  const ordered = await costAllocationGpu(ctx, problem, { backlink: true });
  const report = checkAllocation(problem, ordered);
  const tiny = await costAllocationGpu(ctx, problem, { delta: 0.25 });
  const plain = await costAllocationGpu(ctx, problem, { delta: Number.POSITIVE_INFINITY });
  for (const other of [tiny, plain]) {
    expect(other.cost).toEqual(ordered.cost);
    expect(other.labels).toEqual(ordered.labels);
  }
  expect(plain.stats.deferred).toBe(0);
  return { ordered, tiny, plain, report };
}

describe('the ordered cost pass: the same fixed point for every Δ', { timeout: 300_000 }, () => {
  test('2D random costs, 8-connected, a cluster of sources in one tile and others spread', async () => {
    const ctx = await requireGpu();
    const dims = [83, 57];
    const cells = dims[0] * dims[1];
    const spread = randomSources(9, cells, 41);
    const cluster = Int32Array.from({ length: 12 }, (_, i) => (3 + (i % 4)) * dims[0] + 20 + (i >> 2));
    const sources = Int32Array.from([...cluster, ...spread]);
    const problem = problemOf(costRaster('random', dims, 40), dims, sources, 8);
    const { tiny, report } = await orderings(ctx, problem);
    expect(report.reached).toBe(cells);
    // a tiny Δ makes listed tiles wait: the ordering is exercised
    expect(tiny.stats.deferred).toBeGreaterThan(0);
  });

  test('2D barrier maze with extreme magnitudes: costs from 5e-4 to 4.5e4 per cell', async () => {
    const ctx = await requireGpu();
    const dims = [70, 44];
    const values = costRaster('maze', dims, 51);
    // extreme magnitudes: a band of very cheap and one of very dear cells
    for (let i = 0; i < values.length; i++) {
      if (Number.isNaN(values[i])) continue;
      const x = i % dims[0];
      if (x < 20) values[i] *= 1e-3;
      else if (x > 50) values[i] *= 1e4;
    }
    const problem = problemOf(values, dims, randomSources(5, values.length, 52, values), 8);
    const { tiny } = await orderings(ctx, problem);
    expect(tiny.stats.deferred).toBeGreaterThan(0);
  });

  test('a source whose only open neighbours lie in the next tile (the first round lists it)', async () => {
    const ctx = await requireGpu();
    // tiles are 16 cells wide in 2D: the source at x = 15 is its tile's last column; every
    // neighbour inside that tile is a barrier, so only the tile to the right can move it on
    const dims = [40, 20];
    const values = costRaster('constant', dims, 1);
    const at = (x: number, y: number) => y * dims[0] + x;
    for (const [x, y] of [
      [14, 4],
      [14, 5],
      [14, 6],
      [15, 4],
      [15, 6],
    ])
      values[at(x, y)] = Number.NaN;
    const problem = problemOf(values, dims, Int32Array.of(at(15, 5)), 8);
    const { ordered, report } = await orderings(ctx, problem);
    expect(report.reached).toBe(dims[0] * dims[1] - 5);
    expect(ordered.labels[at(0, 0)]).toBe(0);
  });

  test('3D gradient, 6-connected, compliance, and 0 sources (nothing reached)', async () => {
    const ctx = await requireGpu();
    const dims = [21, 18, 11];
    const cells = dims[0] * dims[1] * dims[2];
    const values = costRaster('gradient', dims, 61);
    // 6-connected: the ordering does not depend on the connectivity, and its kernel compiles fast
    const problem = problemOf(values, dims, randomSources(6, cells, 62), 6, 'compliance');
    const { report, tiny } = await orderings(ctx, problem);
    expect(report.reached).toBe(cells);
    expect(tiny.stats.deferred).toBeGreaterThan(0);
    const none = await costAllocationGpu(ctx, { ...problem, sources: new Int32Array(0) });
    expect(none.labels.every((l) => l === -1)).toBe(true);
    expect(none.cost.every((c) => c === Number.POSITIVE_INFINITY)).toBe(true);
  });

  test('two runs at once on one context (kept tail buffers are not shared), and a bad Δ refused', async () => {
    const ctx = await requireGpu();
    const dims = [50, 37];
    const cells = dims[0] * dims[1];
    const a = problemOf(costRaster('random', dims, 71), dims, randomSources(4, cells, 72), 8);
    const b = problemOf(costRaster('constant', dims, 73), dims, randomSources(30, cells, 74), 8);
    const alone = [await costAllocationGpu(ctx, a), await costAllocationGpu(ctx, b)];
    const together = await Promise.all([costAllocationGpu(ctx, a), costAllocationGpu(ctx, b)]);
    for (let k = 0; k < 2; k++) {
      expect(together[k].cost).toEqual(alone[k].cost);
      expect(together[k].labels).toEqual(alone[k].labels);
    }
    for (const delta of [-1, Number.NaN]) {
      await expect(costAllocationGpu(ctx, a, { delta })).rejects.toThrow(/delta/);
    }
  });
});
