import type { CostGridProblem } from '@geoframe/core';
import { type CostGpuOptions, costAllocationGpu, type GpuContext } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { costRaster, problemOf, randomSources } from './cost-rasters.js';
import { checkAllocation } from './cost-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/**
 * The relax kernel's variants compute one fixed point: the default (the next round's tiles
 * listed by one thread per neighbouring tile, a round's entries taken by thread 0 in turn),
 * the earlier kernel (listed by thread 0 alone) and the ordered pass taking its entries one
 * thread each agree bit for bit in costs and labels, and the default is checked against the f64
 * reference (with backlinks: the hop pass runs the same kernel). `extra` adds options to every
 * run (a small `inner` makes tiles list themselves, a tiny Δ makes most listed tiles wait).
 */
async function variantsAgree(ctx: GpuContext, problem: CostGridProblem, extra: CostGpuOptions = {}) {
  const base = await costAllocationGpu(ctx, problem, { backlink: true, ...extra });
  const report = checkAllocation(problem, base);
  for (const variant of [{ marks: 'serial' }, { picks: 'parallel' }] as const) {
    const other = await costAllocationGpu(ctx, problem, { ...extra, ...variant });
    const what = JSON.stringify(variant);
    expect(other.cost, what).toEqual(base.cost);
    expect(other.labels, what).toEqual(base.labels);
    expect(other.stats.labelPass, what).toBe(base.stats.labelPass);
    expect(other.stats.rounds.cost, what).toBeGreaterThan(0);
  }
  return { base, report };
}

describe('relax kernel variants: one fixed point', { timeout: 300_000 }, () => {
  // 3D tiles list up to 26 neighbouring tiles whatever the connectivity: 6 compiles fastest
  test('3D: gradient (compliance) with duplicate sources, constant with exact ties', async () => {
    const ctx = await requireGpu();
    const dims = [19, 14, 9];
    const cells = dims[0] * dims[1] * dims[2];
    const spread = randomSources(6, cells, 81);
    const sources = Int32Array.from([...spread, spread[2], spread[2]]); // near-duplicates: one cell thrice
    const gradient = problemOf(costRaster('gradient', dims, 82), dims, sources, 6, 'compliance');
    const a = await variantsAgree(ctx, gradient);
    expect(a.report.reached).toBe(cells);
    expect(a.base.labels[spread[2]]).toBe(2);
    // constant costs and many sources: exact ties everywhere (the lower row wins), a small
    // `inner` so that tiles stop before their local fixed point and list themselves
    const constant = problemOf(costRaster('constant', dims, 83), dims, randomSources(40, cells, 84), 6);
    const b = await variantsAgree(ctx, constant, { inner: 2, delta: 0.25, roundWorkgroups: 2 });
    expect(b.report.reached).toBe(cells);
    expect(b.base.stats.deferred).toBeGreaterThan(0);
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
    // three workgroups a round for 12 tiles: each takes a run of entries (several waiting,
    // several running), or entries in turn
    const few = await variantsAgree(ctx, problem, { delta: 0.25, roundWorkgroups: 3 });
    expect(few.base.cost).toEqual(base.cost);
    expect(few.base.labels).toEqual(base.labels);
    expect(few.base.stats.deferred).toBeGreaterThan(0);
  });
});
