import type { CostConnectivity, CostMetric } from '@geoframe/core';
import { costAllocationGpu } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { costRaster, problemOf, type RasterKind, randomSources } from './cost-rasters.js';
import { checkAllocation } from './cost-reference.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

type Case = [string, RasterKind, number[], number, CostConnectivity, CostMetric];

const CASES: Case[] = [
  ['2D random 48×40, 1 source, 4-conn', 'random', [48, 40], 1, 4, 'cost'],
  ['2D random 64², 30 sources, 8-conn', 'random', [64, 64], 30, 8, 'cost'],
  ['2D gradient 61×23, 7 sources, 16-conn', 'gradient', [61, 23], 7, 16, 'cost'],
  ['2D constant 40×33, 12 sources, 8-conn (exact ties)', 'constant', [40, 33], 12, 8, 'cost'],
  ['2D maze 52×37, 9 sources, 4-conn', 'maze', [52, 37], 9, 4, 'cost'],
  ['2D random 37×45, 300 sources, 16-conn, compliance', 'random', [37, 45], 300, 16, 'compliance'],
  ['2D maze 64², 1000 sources, 8-conn, compliance', 'maze', [64, 64], 1000, 8, 'compliance'],
  ['3D random 20×17×9, 5 sources, 6-conn', 'random', [20, 17, 9], 5, 6, 'cost'],
  ['3D gradient 24³, 10 sources, 26-conn, compliance', 'gradient', [24, 24, 24], 10, 26, 'compliance'],
  ['3D constant 19×11×13, 40 sources, 18-conn', 'constant', [19, 11, 13], 40, 18, 'cost'],
  ['3D maze 16×21×10, 3 sources, 26-conn', 'maze', [16, 21, 10], 3, 26, 'cost'],
  ['3D random 9×9×30, 260 sources, 18-conn, compliance', 'random', [9, 9, 30], 260, 18, 'compliance'],
];

describe('costAllocationGpu equals an f64 Dijkstra within the f32 bound', () => {
  test.each(CASES)(
    '%s',
    async (_, kind, dims, n, connectivity, metric) => {
      const ctx = await requireGpu();
      const cells = dims.reduce((a, b) => a * b, 1);
      const seed = cells * 31 + n;
      const values = costRaster(kind, dims, seed);
      const problem = problemOf(
        values,
        dims,
        randomSources(n, cells, seed + 1, values),
        connectivity,
        metric,
      );
      const gpu = await costAllocationGpu(ctx, problem, { backlink: true });
      const report = checkAllocation(problem, gpu);
      expect(report.reached).toBeGreaterThan(0);
      // near-ties are rare except on constant rasters, where many paths tie exactly in f64
      if (kind !== 'constant') expect(report.nearTies).toBeLessThanOrEqual(Math.ceil(cells * 0.01));
      // without backlinks: the same cost and label passes, so the same result bit for bit
      const plain = await costAllocationGpu(ctx, problem);
      expect(plain.backlink).toBeUndefined();
      expect(plain.cost).toEqual(gpu.cost);
      expect(plain.labels).toEqual(gpu.labels);
      // a plain front-wave (one local iteration per tile visit) reaches the same fixed point
      const wave = await costAllocationGpu(ctx, problem, { inner: 1 });
      expect(wave.cost).toEqual(gpu.cost);
      expect(wave.labels).toEqual(gpu.labels);
    },
    300_000,
  ); // the first case of a connectivity compiles its pipelines: slow on a software GPU
});
