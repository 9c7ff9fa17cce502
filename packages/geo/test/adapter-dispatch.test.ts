import { type AdapterSummary, classifyAdapter, type DispatchEvent, kernelProfile } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { probedGpuAdapter, probeGpuAdapter } from '@geoframe/gpu';
import { generatePoints } from '@geoframe/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planOperation } from '../src/ops/dispatch-operation.js';

// The adapter dispatch sees is replaced here (the real probe is tested where lavapipe runs: see
// voronoi-polygons.test.ts), so one machine can show what auto does on each class of adapter.
vi.mock('@geoframe/gpu', async (importOriginal) => {
  const real = await importOriginal<typeof import('@geoframe/gpu')>();
  return { ...real, probeGpuAdapter: vi.fn(), probedGpuAdapter: vi.fn() };
});

const LAVAPIPE = classifyAdapter({
  vendor: 'mesa',
  architecture: 'software',
  device: 'llvmpipe-llvm-15-0-6-256-bits-',
  description: 'llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) 0.0.1',
  isFallbackAdapter: true,
});
const H100 = classifyAdapter({
  vendor: 'nvidia',
  architecture: 'hopper',
  description: 'NVIDIA H100 80GB HBM3',
});
const UHD = classifyAdapter({
  vendor: 'intel',
  architecture: 'gen-12lp',
  description: 'Intel(R) UHD Graphics 770',
});

function useAdapter(adapter: AdapterSummary | null): void {
  vi.mocked(probeGpuAdapter).mockResolvedValue(adapter);
  vi.mocked(probedGpuAdapter).mockReturnValue(adapter);
}

afterEach(() => {
  vi.mocked(probeGpuAdapter).mockReset();
  vi.mocked(probedGpuAdapter).mockReset();
});

// the README's main job: 33,300 ZIP centroids, above the H100's Voronoi crossover
const ZIPS = 33_300;

describe('auto dispatch on the adapter in hand', () => {
  it('a software adapter: the CPU at every size, and the reason names the adapter', async () => {
    useAdapter(LAVAPIPE);
    for (const kernel of ['voronoiPolygons', 'delaunayTriangles', 'voronoiRaster']) {
      for (const rows of [kernelProfile(kernel).crossover, ZIPS, 1e8]) {
        const decision = await planOperation(kernel, rows, 'auto');
        expect(decision.path, `${kernel} ${rows}`).toBe('cpu');
        expect(decision.reason).toContain(`${LAVAPIPE.description} (software)`);
      }
    }
    // device 'gpu' still runs there (CI tests the kernels on lavapipe)
    expect((await planOperation('voronoiPolygons', 10, 'gpu')).path).toBe('gpu');
  });

  it('a discrete GPU: the GPU from the stored crossover, with the adapter and the crossover named', async () => {
    useAdapter(H100);
    const crossover = kernelProfile('voronoiPolygons').crossover;
    expect((await planOperation('voronoiPolygons', crossover - 1, 'auto')).path).toBe('cpu');
    const decision = await planOperation('voronoiPolygons', ZIPS, 'auto');
    expect(decision.path).toBe('gpu');
    expect(decision.reason).toContain(`crossover ${crossover}`);
    expect(decision.reason).toContain(`${H100.description} (discrete)`);
    // explain answers the same, with the adapter and where the crossover comes from
    const sites = GeoSeries.fromXY([0, 1, 0], [0, 0, 1]);
    const explained = sites.explain('voronoiRaster', { width: 300, height: 300 });
    expect(explained).toMatchObject({
      path: 'gpu',
      adapter: H100,
      crossover: kernelProfile('voronoiRaster').crossover,
    });
    expect(explained.crossoverSource).toContain('discrete');
  });

  it('an integrated GPU: a larger crossover (a multiple of the stored one)', async () => {
    useAdapter(UHD);
    expect((await planOperation('voronoiPolygons', ZIPS, 'auto')).path).toBe('cpu');
    const at = await planOperation('voronoiPolygons', 4 * kernelProfile('voronoiPolygons').crossover, 'auto');
    expect(at.path).toBe('gpu');
    expect(at.reason).toContain('(integrated)');
  });

  it('no adapter: the CPU under auto', async () => {
    useAdapter(null);
    expect((await planOperation('voronoiPolygons', ZIPS, 'auto')).reason).toMatch(/no WebGPU adapter/);
  });

  it('below the smallest crossover nothing is probed', async () => {
    useAdapter(H100);
    await planOperation('voronoiPolygons', kernelProfile('voronoiPolygons').crossover - 1, 'auto');
    await planOperation('voronoiPolygons', 1e9, 'cpu');
    expect(probeGpuAdapter).not.toHaveBeenCalled();
    await planOperation('voronoiPolygons', 1e9, 'auto');
    expect(probeGpuAdapter).toHaveBeenCalledTimes(1);
  });

  it("on a software adapter the README's job size runs on the CPU and says why, in its own events", async () => {
    useAdapter(LAVAPIPE);
    const xy = generatePoints('uniform', kernelProfile('voronoiPolygons').crossover + 500, 19);
    const n = xy.length / 2;
    const series = GeoSeries.fromXY(
      Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
      Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
    );
    const events: DispatchEvent[] = [];
    const cells = await series.voronoiPolygons({ onDispatch: (e) => events.push(e) });
    expect(cells.length).toBe(n);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'dispatch', kernel: 'voronoiPolygons', rows: n, path: 'cpu' });
    expect(events[0].reason).toContain('software');
  }, 120_000);
});
