import type { CostGridProblem } from '@geoframe/core';
import { type CostGpuOptions, costAllocationGpu, type GpuContext } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { costRaster, problemOf, randomSources } from './cost-rasters.js';
import { checkAllocation } from './cost-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/**
 * The relax kernel's variants (the next round's tiles listed by one thread per neighbouring tile
 * or by thread 0 alone; the neighbour loop rolled or unrolled) compute one fixed point: costs,
 * labels and backlinks agree bit for bit with the default, which is checked against the f64
 * reference. `extra` adds options to every run (a small `inner` makes tiles list themselves).
 */
async function variantsAgree(ctx: GpuContext, problem: CostGridProblem, extra: CostGpuOptions = {}) {
  const base = await costAllocationGpu(ctx, problem, { backlink: true, ...extra });
  const report = checkAllocation(problem, base);
  for (const variant of [
    { marks: 'serial', rolled: false },
    { marks: 'parallel', rolled: true },
    { marks: 'serial', rolled: true },
  ] as const) {
    const other = await costAllocationGpu(ctx, problem, { backlink: true, ...extra, ...variant });
    const what = `${variant.marks} marks${variant.rolled ? ', rolled' : ''}`;
    expect(other.cost, what).toEqual(base.cost);
    expect(other.labels, what).toEqual(base.labels);
    expect(other.backlink, what).toEqual(base.backlink);
    expect(other.stats.labelPass, what).toBe(base.stats.labelPass);
  }
  return { base, report };
}

describe('relax kernel variants: one fixed point', { timeout: 300_000 }, () => {
  test('3D 26-connected: gradient (compliance) with duplicate sources, constant with exact ties', async () => {
    const ctx = await requireGpu();
    const dims = [19, 14, 9];
    const cells = dims[0] * dims[1] * dims[2];
    const spread = randomSources(6, cells, 81);
    const sources = Int32Array.from([...spread, spread[2], spread[2]]); // near-duplicates: one cell thrice
    const gradient = problemOf(costRaster('gradient', dims, 82), dims, sources, 26, 'compliance');
    const a = await variantsAgree(ctx, gradient);
    expect(a.report.reached).toBe(cells);
    expect(a.base.labels[spread[2]]).toBe(2);
    // constant costs and many sources: exact ties everywhere (the lower row wins), a small
    // `inner` so that tiles stop before their local fixed point and list themselves
    const constant = problemOf(costRaster('constant', dims, 83), dims, randomSources(40, cells, 84), 26);
    const b = await variantsAgree(ctx, constant, { inner: 2 });
    expect(b.report.reached).toBe(cells);
  });

  test('2D 8-connected maze with extreme magnitudes, a cluster of sources, a tiny Δ', async () => {
    const ctx = await requireGpu();
    const dims = [61, 37];
    const values = costRaster('maze', dims, 85);
    for (let i = 0; i < values.length; i++) {
      if (Number.isNaN(values[i])) continue;
      const x = i % dims[0];
      if (x < 15) values[i] *= 1e-3;
      else if (x > 45) values[i] *= 1e4;
    }
    const spread = randomSources(5, values.length, 86, values);
    const cluster = [0, 1, 2, 3].map((k) => 2 * dims[0] + 40 + k).filter((c) => !Number.isNaN(values[c]));
    const problem = problemOf(values, dims, Int32Array.from([...cluster, ...spread]), 8);
    const { base } = await variantsAgree(ctx, problem, { delta: 0.25 });
    expect(base.stats.deferred).toBeGreaterThan(0);
  });

  test('2D: zero-cost cells (the label descent) 4-connected, and knight’s moves (16, kept unrolled)', async () => {
    const ctx = await requireGpu();
    const dims = [45, 29];
    const zero = costRaster('random', dims, 87);
    for (let i = 0; i < zero.length; i++) if (i % dims[0] > 30) zero[i] = 0;
    const flat = problemOf(zero, dims, randomSources(9, zero.length, 88), 4);
    const a = await variantsAgree(ctx, flat);
    expect(a.base.stats.labelPass).toBe('fallback');
    const knight = problemOf(costRaster('random', dims, 89), dims, randomSources(3, zero.length, 90), 16);
    const b = await variantsAgree(ctx, knight);
    expect(b.report.reached).toBe(dims[0] * dims[1]);
  });
});
