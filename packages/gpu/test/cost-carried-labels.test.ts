import type { CostGridProblem } from '@geoframe/core';
import { costAllocationGpu, type GpuContext } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { costRaster, problemOf, randomSources } from './cost-rasters.js';
import { checkAllocation } from './cost-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

/**
 * Runs `problem` with labels carried through the cost rounds (the default, with backlinks, checked
 * against the f64 reference) and with the descending label pass, with and without overlapped
 * batches: the labels are one fixed point, so all agree bit for bit.
 */
async function carriedAgainstDescent(ctx: GpuContext, problem: CostGridProblem) {
  const carried = await costAllocationGpu(ctx, problem, { backlink: true });
  const report = checkAllocation(problem, carried);
  const descent = await costAllocationGpu(ctx, problem, { labels: 'descend', overlap: false });
  expect(descent.stats.labelPass).toBe('descend');
  expect(carried.cost).toEqual(descent.cost);
  expect(carried.labels).toEqual(descent.labels);
  return { carried, descent, report };
}

// the first use of a connectivity and label mode compiles its pipelines: slow on a software GPU
describe('labels carried through the cost rounds, then repaired', { timeout: 300_000 }, () => {
  test('random costs: the same labels as the descending pass, in one or a few label rounds', async () => {
    const ctx = await requireGpu();
    for (const [dims, n, seed] of [
      [[70, 45], 25, 3],
      [[33, 90], 300, 4],
    ] as [number[], number, number][]) {
      const cells = dims[0] * dims[1];
      const values = costRaster('random', dims, seed);
      const problem = problemOf(values, dims, randomSources(n, cells, seed + 1), 4);
      const { carried, descent, report } = await carriedAgainstDescent(ctx, problem);
      expect(report.reached).toBe(cells);
      expect(carried.stats.labelPass).toBe('carried');
      expect(carried.stats.rounds.label).toBeLessThan(descent.stats.rounds.label);
    }
  });

  test('output into the caller’s array: cost and labels are its two halves', async () => {
    const ctx = await requireGpu();
    const dims = [40, 31];
    const problem = problemOf(costRaster('random', dims, 31), dims, randomSources(7, 40 * 31, 32), 4);
    const plain = await costAllocationGpu(ctx, problem);
    let given: Float64Array | null = null;
    const shared = await costAllocationGpu(ctx, problem, {
      outputArray: async (length) => {
        given = new Float64Array(new SharedArrayBuffer(8 * length));
        return given;
      },
    });
    expect(shared.cost.buffer).toBe((given as unknown as Float64Array).buffer);
    expect(shared.labels.buffer).toBe(shared.cost.buffer);
    expect(shared.labels.byteOffset).toBe(4 * 40 * 31);
    expect(Array.from(shared.cost)).toEqual(Array.from(plain.cost));
    expect(Array.from(shared.labels)).toEqual(Array.from(plain.labels));
  });

  test('exact ties everywhere (constant costs, many sources): the repair gives each tie to the lower row', async () => {
    const ctx = await requireGpu();
    const dims = [64, 40];
    const problem = problemOf(costRaster('constant', dims, 1), dims, randomSources(90, 64 * 40, 9), 4);
    const { carried } = await carriedAgainstDescent(ctx, problem);
    expect(carried.stats.labelPass).toBe('carried');
    // the cost rounds carry the first cheapest neighbour's label, not the lowest: repairs happen
    expect(carried.stats.rounds.label).toBeGreaterThan(1);
  });

  test('a maze with walls and near-duplicate sources (clusters of rows in one cell)', async () => {
    const ctx = await requireGpu();
    const dims = [52, 37];
    const values = costRaster('maze', dims, 12);
    const base = randomSources(12, 52 * 37, 13, values);
    const sources = Int32Array.from({ length: 36 }, (_, i) => base[i % 12]); // each cell thrice
    const problem = problemOf(values, dims, sources, 4);
    const { carried } = await carriedAgainstDescent(ctx, problem);
    for (let s = 0; s < 12; s++) expect(carried.labels[base[s]]).toBe(s);
  });

  test('flat tight steps (zero-cost cells, steps below half an ulp) fall back to the descending pass', async () => {
    const ctx = await requireGpu();
    const dims = [48, 30];
    const zero = costRaster('random', dims, 21);
    for (let i = 0; i < zero.length; i++) if (i % 48 > 30) zero[i] = 0;
    const zeroProblem = problemOf(zero, dims, randomSources(15, 48 * 30, 22), 4);
    const a = await carriedAgainstDescent(ctx, zeroProblem);
    expect(a.carried.stats.labelPass).toBe('fallback');
    // huge costs, then a region of tiny ones: there d ⊕ w = d in f32 although w > 0
    const extreme = costRaster('random', dims, 23).map((v, i) => (i >= 48 * 20 ? 1e-30 : v * 1e12));
    const extremeProblem = problemOf(extreme, dims, randomSources(6, 48 * 20, 24), 4); // sources above
    const b = await carriedAgainstDescent(ctx, extremeProblem);
    expect(b.carried.stats.labelPass).toBe('fallback');
  });
});
