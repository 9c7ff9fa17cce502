import { classifyAdapter, type DispatchEvent } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { GPU_WARM_WAIT_ENV, getGpuContext, probedGpuAdapter, probeGpuAdapter, warmUp } from '@geoframe/gpu';
import { generatePoints } from '@geoframe/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requireGpu } from '../../gpu/test/gpu-test-context.js';

// auto never takes lavapipe, so the adapter dispatch sees is a discrete GPU here (as in
// adapter-dispatch.test.ts) while the runs go to lavapipe: what a first call on a card whose
// driver cache is cold meets.
vi.mock('@geoframe/gpu', async (importOriginal) => {
  const real = await importOriginal<typeof import('@geoframe/gpu')>();
  return { ...real, probeGpuAdapter: vi.fn(), probedGpuAdapter: vi.fn() };
});

const H100 = classifyAdapter({
  vendor: 'nvidia',
  architecture: 'hopper',
  description: 'NVIDIA H100 80GB HBM3',
});
const CROSSOVER_ENV = 'GEOFRAME_CROSSOVER_VORONOIPOLYGONS';
const DELAUNAY_ENV = 'GEOFRAME_CROSSOVER_DELAUNAYTRIANGLES';
const saved = {
  wait: process.env[GPU_WARM_WAIT_ENV],
  crossover: process.env[CROSSOVER_ENV],
  delaunay: process.env[DELAUNAY_ENV],
};

beforeAll(() => {
  vi.mocked(probeGpuAdapter).mockResolvedValue(H100);
  vi.mocked(probedGpuAdapter).mockReturnValue(H100);
  // small inputs take the GPU under auto
  process.env[CROSSOVER_ENV] = '100';
  process.env[DELAUNAY_ENV] = '100';
});
afterAll(() => {
  for (const [name, value] of [
    [GPU_WARM_WAIT_ENV, saved.wait],
    [CROSSOVER_ENV, saved.crossover],
    [DELAUNAY_ENV, saved.delaunay],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function series(n: number, seed: number): GeoSeries {
  const xy = generatePoints('uniform', n, seed);
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i] as number),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1] as number),
  );
}

describe("auto's first GPU run does not wait on the kernels' first compilation", () => {
  it('the CPU answers while they compile (GPU_COMPILING), the GPU once they are ready; cells alike', async () => {
    await requireGpu();
    const sites = series(300, 5);
    process.env[GPU_WARM_WAIT_ENV] = '0';
    const events: DispatchEvent[] = [];
    const first = await sites.voronoiPolygons({ onDispatch: (e) => events.push(e) });
    expect(events.map((e) => [e.type, e.path])).toEqual([
      ['dispatch', 'gpu'],
      ['fallback', 'cpu'],
    ]);
    expect(events[1]?.reason).toMatch(/^GPU_COMPILING: the GPU kernels of voronoi were still compiling/);
    // the warm-up went on; when it is done the same call runs on the GPU, with the same cells
    await warmUp(await getGpuContext(), 'voronoi', async () => {
      throw new Error('not called: the warm-up under way is the one awaited');
    });
    const again: DispatchEvent[] = [];
    const second = await sites.voronoiPolygons({ onDispatch: (e) => again.push(e) });
    expect(again.map((e) => [e.type, e.path])).toEqual([['dispatch', 'gpu']]);
    expect(second.length).toBe(first.length);
    // the same cell for each site; the GPU rounds each exact vertex once, the CPU's may differ
    // in the last bit (as voronoi-gpu.test.ts allows)
    const [a, b] = [first.area(), second.area()];
    for (let row = 0; row < first.length; row++) {
      expect(Math.abs((a[row] as number) - (b[row] as number)), `row ${row}`).toBeLessThanOrEqual(
        1e-9 * (a[row] as number),
      );
    }
    // delaunayTriangles shares the warm-up: no wait either
    const triangles: DispatchEvent[] = [];
    await sites.delaunayTriangles({ onDispatch: (e) => triangles.push(e), device: 'auto' });
    expect(triangles.map((e) => [e.type, e.path])).toEqual([['dispatch', 'gpu']]);
  }, 600_000);
});
