import { CostProblemError, costAllocationGpu } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { costRaster, problemOf, randomSources } from './cost-rasters.js';
import { checkAllocation, referenceAllocation } from './cost-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

// the first use of a connectivity compiles its pipelines: slow on a software GPU
describe('costAllocationGpu edge cases', { timeout: 300_000 }, () => {
  test('several sources in one cell: the lowest id takes it; others elsewhere still compete', async () => {
    const ctx = await requireGpu();
    const dims = [33, 21];
    const sources = Int32Array.of(500, 17, 17, 500, 17, 640);
    const problem = problemOf(costRaster('random', dims, 5), dims, sources, 8);
    const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
    checkAllocation(problem, gpu);
    expect(gpu.labels[17]).toBe(1);
    expect(gpu.labels[500]).toBe(0);
    expect(gpu.cost[17]).toBe(0);
    expect([...new Set(gpu.labels)].sort((a, b) => a - b)).toEqual([0, 1, 5]);
  });

  test('an all-barrier grid reaches nothing; a source on a barrier is an error', async () => {
    const ctx = await requireGpu();
    const dims = [20, 12, 3];
    const problem = problemOf(costRaster('barrier', dims, 1), dims, new Int32Array(0), 6);
    const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
    expect(gpu.labels.every((l) => l === -1)).toBe(true);
    expect(gpu.cost.every((c) => c === Number.POSITIVE_INFINITY)).toBe(true);
    expect(gpu.backlink!.every((b) => b === 255)).toBe(true);
    await expect(costAllocationGpu(ctx, { ...problem, sources: Int32Array.of(0, 719) })).rejects.toThrow(
      /source 0: cell 0 \(col 0, row 0, slice 0\) is a barrier/,
    );
    const values = costRaster('random', [30, 30], 2);
    values[45] = Number.NaN;
    const walled = problemOf(values, [30, 30], Int32Array.of(800), 4);
    const result = await costAllocationGpu(ctx, walled, { backlink: true });
    checkAllocation(walled, result);
    expect(result.labels[45]).toBe(-1);
    expect(result.cost[45]).toBe(Number.POSITIVE_INFINITY);
  });

  test("knight's moves cost the mean of the four cells they run through; a one-cell wall stops them", async () => {
    const ctx = await requireGpu();
    const dims = [31, 26];
    const values = costRaster('random', dims, 21);
    for (let y = 0; y < 26; y++) values[y * 31 + 15] = Number.NaN; // a wall one cell thick
    const problem = problemOf(values, dims, Int32Array.of(3 * 31 + 4, 20 * 31 + 9), 16);
    const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
    checkAllocation(problem, gpu);
    for (let i = 0; i < values.length; i++) if (i % 31 >= 15) expect(gpu.labels[i], `cell ${i}`).toBe(-1);
    // open the wall at one row: the right side is reached through it only
    values[13 * 31 + 15] = 1;
    const open = await costAllocationGpu(ctx, { ...problem, values }, { backlink: true });
    const report = checkAllocation({ ...problem, values }, open);
    expect(report.reached).toBe(values.length - 25);
  });

  test('no sources: nothing reached', async () => {
    const ctx = await requireGpu();
    const gpu = await costAllocationGpu(
      ctx,
      problemOf(costRaster('random', [9, 7], 3), [9, 7], new Int32Array(0), 8),
    );
    expect(gpu.labels.every((l) => l === -1)).toBe(true);
  });

  test('maxCost leaves costlier cells unreached, 2D and 3D', async () => {
    const ctx = await requireGpu();
    for (const [dims, connectivity] of [
      [[45, 38], 8],
      [[14, 13, 11], 6],
    ] as const) {
      const cells = dims.reduce((a, b) => a * b, 1);
      const base = problemOf(
        costRaster('random', dims, 9),
        [...dims],
        randomSources(4, cells, 10),
        connectivity,
      );
      const full = referenceAllocation(base);
      const finite = [...full.cost].filter(Number.isFinite).sort((a, b) => a - b);
      const maxCost = finite[Math.floor(finite.length * 0.4)] * 1.0001;
      const problem = { ...base, maxCost };
      const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
      const report = checkAllocation(problem, gpu);
      expect(report.reached).toBeGreaterThan(cells * 0.3);
      expect(report.reached).toBeLessThan(cells * 0.5);
      expect(gpu.cost.every((c) => c === Number.POSITIVE_INFINITY || c <= maxCost)).toBe(true);
    }
  });

  test('non-square spacing and a 1-cell-high grid', async () => {
    const ctx = await requireGpu();
    const dims = [50, 30];
    const problem = {
      ...problemOf(costRaster('gradient', dims, 4), dims, randomSources(6, 1500, 4), 8),
      spacing: [2.5, 0.75],
    };
    checkAllocation(problem, await costAllocationGpu(ctx, problem, { backlink: true }));
    const strip = problemOf(costRaster('random', [70, 1], 5), [70, 1], Int32Array.of(3, 60), 8);
    checkAllocation(strip, await costAllocationGpu(ctx, strip, { backlink: true }));
    const column = {
      ...problemOf(costRaster('random', [1, 1, 40], 6), [1, 1, 40], Int32Array.of(39), 6),
      spacing: [1, 1, 3],
    };
    checkAllocation(column, await costAllocationGpu(ctx, column, { backlink: true }));
  });

  test('zero-cost cells: ties everywhere, backlinks still end at the source', async () => {
    const ctx = await requireGpu();
    const dims = [40, 40];
    const values = costRaster('random', dims, 8);
    for (let i = 0; i < values.length; i++) if (i % 40 < 25) values[i] = 0;
    const problem = problemOf(values, dims, randomSources(20, 1600, 8), 8);
    const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
    checkAllocation(problem, gpu);
    // a zero-cost region: each cell takes the lowest id of the sources in it at cost 0
    const ref = referenceAllocation(problem);
    let free = 0;
    for (let i = 0; i < ref.cost.length; i++) {
      if (ref.cost[i] !== 0) continue;
      free++;
      expect(gpu.labels[i], `cell ${i}`).toBe(ref.labels[i]);
      expect(gpu.cost[i]).toBe(0);
    }
    expect(free).toBeGreaterThan(0);
  });

  test('more sources than cells of a 16² tile, every cell a source', async () => {
    const ctx = await requireGpu();
    const dims = [30, 25];
    const sources = Int32Array.from({ length: 750 }, (_, i) => 749 - i);
    const problem = problemOf(costRaster('random', dims, 3), dims, sources, 8);
    const gpu = await costAllocationGpu(ctx, problem);
    expect([...gpu.labels]).toEqual(Array.from({ length: 750 }, (_, c) => 749 - c));
    expect(gpu.cost.every((c) => c === 0)).toBe(true);
  });

  test('no cap on sources: 70,000 sources on a 300×260 grid', async () => {
    const ctx = await requireGpu();
    const dims = [300, 260];
    const problem = problemOf(costRaster('random', dims, 12), dims, randomSources(70_000, 78_000, 12), 8);
    const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
    const report = checkAllocation(problem, gpu);
    expect(report.reached).toBe(78_000);
    expect(Math.max(...gpu.labels)).toBeGreaterThan(65_536);
    expect(report.nearTies).toBeLessThanOrEqual(780);
  });

  test('dispatches split over x and y (as 256³ needs: 65,536 tiles) give the same result', async () => {
    const ctx = await requireGpu();
    const dims = [100, 70];
    const values = costRaster('maze', dims, 31);
    const problem = problemOf(values, dims, randomSources(12, 7000, 31, values), 8);
    const plain = await costAllocationGpu(ctx, problem, { backlink: true });
    const limits = {
      maxComputeWorkgroupsPerDimension: 6, // 35 tiles, 28 workgroups of cells: both split
      maxStorageBufferBindingSize: ctx.limits.maxStorageBufferBindingSize,
    };
    const narrow = Object.create(ctx, { limits: { value: limits } });
    const split = await costAllocationGpu(narrow, problem, { backlink: true });
    expect(split.cost).toEqual(plain.cost);
    expect(split.labels).toEqual(plain.labels);
    expect(split.backlink).toEqual(plain.backlink);
    checkAllocation(problem, split);
  });

  test('bad input gets a clear error naming the cell or source', async () => {
    const ctx = await requireGpu();
    const values = costRaster('random', [6, 5], 1);
    const ok = problemOf(values, [6, 5], Int32Array.of(3), 8);
    const bad = Float32Array.from(values);
    bad[13] = -2;
    await expect(costAllocationGpu(ctx, { ...ok, values: bad })).rejects.toThrow(
      /cell 13 \(col 1, row 2\): cost -2/,
    );
    bad[13] = Number.POSITIVE_INFINITY;
    await expect(costAllocationGpu(ctx, { ...ok, values: bad })).rejects.toThrow(CostProblemError);
    const soft = Float32Array.from(values);
    soft[4] = 0;
    await expect(costAllocationGpu(ctx, { ...ok, values: soft, metric: 'compliance' })).rejects.toThrow(
      /cell 4.*stiffness 0/,
    );
    await expect(costAllocationGpu(ctx, { ...ok, sources: Int32Array.of(2, 30) })).rejects.toThrow(
      /source 1: cell 30/,
    );
    await expect(costAllocationGpu(ctx, { ...ok, connectivity: 6 })).rejects.toThrow(/connectivity 6/);
    await expect(costAllocationGpu(ctx, { ...ok, dims: [6, 6] })).rejects.toThrow(/36/);
    await expect(costAllocationGpu(ctx, { ...ok, maxCost: Number.NaN })).rejects.toThrow(/maxCost/);
    // values or costs outside f32's normal range: the GPU declines (a CPU run answers under dispatch)
    const subnormal = Float32Array.from(values);
    subnormal[7] = 1e-40;
    await expect(costAllocationGpu(ctx, { ...ok, values: subnormal })).rejects.toMatchObject({
      code: 'GPU_PRECISION',
      message: expect.stringMatching(/cell 7's value/),
    });
    const huge = new Float32Array(values.length).fill(3e38);
    await expect(costAllocationGpu(ctx, { ...ok, values: huge })).rejects.toMatchObject({
      code: 'GPU_PRECISION',
      message: expect.stringMatching(/overflows f32/),
    });
    // the same with a cap inside f32's range is no overflow: nothing past the cap is reached
    const capped = await costAllocationGpu(ctx, { ...ok, values: huge, maxCost: 1e38 });
    expect(capped.labels.filter((l) => l === 0).length).toBe(1);
    // a grid whose per-cell buffers the device cannot bind is declined, not run
    const tiny = Object.create(ctx, { limits: { value: { maxStorageBufferBindingSize: 64 } } });
    await expect(costAllocationGpu(tiny, ok)).rejects.toMatchObject({
      code: 'GPU_OUT_OF_MEMORY',
      message: expect.stringMatching(/30 cells need 120-byte buffers/),
    });
  });
});
