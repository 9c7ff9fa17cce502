// centroidalVoronoi's dispatch: the exact mode's cells from the GPU Voronoi pipeline (lavapipe in
// CI), and the raster mode's GPU engine failing over to the CPU with a fallback event.
import { type DispatchEvent, runDispatched } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import type { GpuContext } from '@geoframe/gpu';
import { SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';
import { cvtRasterEngines } from '../src/ops/engines.js';

function points(n: number, seed: number, top: number): GeoSeries {
  const rnd = new SeededRandom(seed);
  const xs = Array.from({ length: n }, () => 0.05 + 0.9 * rnd.next());
  const ys = Array.from({ length: n }, () => 0.05 + (top - 0.05) * rnd.next());
  return GeoSeries.fromXY(xs, ys);
}

describe('centroidalVoronoi dispatch', () => {
  gpuTest(
    "exact mode with device 'gpu': cells from the GPU pipeline, the CPU's energies",
    async () => {
      await requireGpu();
      // sites below the notch (y < 0.6) lie inside the region
      const sites = points(12, 3, 0.55);
      const region = GeoSeries.fromWKT(['POLYGON ((0 0, 1 0, 1 1, 0.5 0.6, 0 1, 0 0))']);
      const events: DispatchEvent[] = [];
      const options = { region, iterations: 3, tolerance: 0 };
      const gpu = await sites.centroidalVoronoi({
        ...options,
        device: 'gpu',
        onDispatch: (e) => events.push(e),
      });
      const cpu = await sites.centroidalVoronoi({ ...options, device: 'cpu' });
      const g = gpu;
      expect(events[0].kernel).toBe('voronoiPolygons');
      expect(events[0].path).toBe('gpu');
      expect(g.energy.length).toBe(cpu.energy.length);
      for (let i = 0; i < cpu.energy.length; i++) {
        expect(Math.abs(g.energy[i] - cpu.energy[i]) / cpu.energy[i]).toBeLessThan(1e-9);
      }
    },
    // the GPU Voronoi pipeline's kernels take a while to compile on a software GPU
    300_000,
  );

  test('a failing GPU raster engine becomes a GPU decline, answered by the CPU with a fallback event under auto', async () => {
    const problem = {
      sites: Float64Array.of(0.2, 0.2, 0.8, 0.7),
      grid: { width: 16, height: 16, depth: 1, bounds: [0, 0, 1, 1] },
      method: 'lloyd' as const,
      maxIterations: 5,
      tolerance: 0,
      labelling: '1+jfa' as const,
    };
    const engines = cvtRasterEngines(problem);
    // no device at all: whatever the GPU engine throws is wrapped
    const broken = {} as GpuContext;
    await expect(engines.gpu(broken, { stageFallback: () => {} })).rejects.toMatchObject({
      code: 'GPU_DECLINED',
    });
    const events: DispatchEvent[] = [];
    const decision: DispatchEvent = {
      type: 'dispatch',
      kernel: 'centroidalVoronoi',
      rows: 256,
      path: 'gpu',
      reason: 'test',
    };
    const { value, decision: ran } = await runDispatched(
      decision,
      'auto',
      { gpu: (report) => engines.gpu(broken, report), cpu: engines.cpu },
      (e) => events.push(e),
    );
    expect(ran.type).toBe('fallback');
    expect(ran.path).toBe('cpu');
    expect(ran.reason).toMatch(/GPU_DECLINED: the GPU raster CVT failed/);
    expect(events.map((e) => e.type)).toEqual(['dispatch', 'fallback']);
    expect(value.iterations).toBeGreaterThan(0);
  });
});
