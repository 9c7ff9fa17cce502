import {
  type DispatchEvent,
  explainDispatch,
  GeoframeError,
  GpuRequiredError,
  onDispatch,
  planDispatch,
  runDispatched,
} from '@geoframe/core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

const seen: DispatchEvent[] = [];
const stop = onDispatch((e) => seen.push(e));
afterAll(stop);
afterEach(() => {
  seen.length = 0;
  vi.unstubAllEnvs();
});

describe('planDispatch', () => {
  it("'cpu' always runs on the CPU; unknown devices are refused", () => {
    expect(planDispatch('voronoiPolygons', 10, { device: 'cpu' })).toMatchObject({ path: 'cpu', rows: 10 });
    expect(() => planDispatch('voronoiPolygons', 10, { device: 'tpu' as never })).toThrow(/device must be/);
  });

  it("'gpu' without a GPU implementation or adapter is a typed error", () => {
    expect(() => planDispatch('someKernel', 10, { device: 'gpu' })).toThrow(GpuRequiredError);
    expect(() => planDispatch('someKernel', 10, { device: 'gpu' })).toThrow(/no GPU implementation/);
    expect(() => planDispatch('voronoiPolygons', 10, { device: 'gpu', gpuAvailable: false })).toThrow(
      /no WebGPU adapter/,
    );
    expect(planDispatch('voronoiPolygons', 10, { device: 'gpu' }).path).toBe('gpu');
  });

  it("'auto' says why it chose the CPU", () => {
    expect(planDispatch('someKernel', 1e7).reason).toMatch(/no GPU implementation yet/);
    // a GPU implementation that never pays: 'auto' keeps the CPU and says why
    expect(planDispatch('delaunayTriangles', 1e7, { crossover: Infinity })).toMatchObject({ path: 'cpu' });
    expect(planDispatch('delaunayTriangles', 1e7, { crossover: Infinity }).reason).toMatch(
      /crossover Infinity/,
    );
    expect(planDispatch('delaunayTriangles', 1e7)).toMatchObject({ path: 'gpu' });
    expect(planDispatch('voronoiPolygons', 1e7, { gpuAvailable: false }).reason).toMatch(/no WebGPU adapter/);
  });

  it("'auto' takes the GPU at and above the crossover only", () => {
    const { crossover } = explainDispatch('voronoiPolygons', 0);
    expect(planDispatch('voronoiPolygons', crossover - 1).path).toBe('cpu');
    expect(planDispatch('voronoiPolygons', crossover).path).toBe('gpu');
    expect(planDispatch('voronoiPolygons', 10, { crossover: 10 }).path).toBe('gpu');
  });

  it('the crossover can be overridden by environment', () => {
    vi.stubEnv('GEOFRAME_CROSSOVER_VORONOIPOLYGONS', '5');
    expect(planDispatch('voronoiPolygons', 4).path).toBe('cpu');
    expect(planDispatch('voronoiPolygons', 5)).toMatchObject({ path: 'gpu' });
    expect(planDispatch('voronoiPolygons', 5).reason).toContain('GEOFRAME_CROSSOVER_VORONOIPOLYGONS');
    vi.stubEnv('GEOFRAME_CROSSOVER_DELAUNAYTRIANGLES', '5');
    expect(planDispatch('delaunayTriangles', 10).path).toBe('gpu');
    // no GPU implementation to cross over to
    vi.stubEnv('GEOFRAME_CROSSOVER_SOMEKERNEL', '5');
    expect(planDispatch('someKernel', 10).path).toBe('cpu');
  });
});

describe('explainDispatch', () => {
  it('answers like planDispatch without emitting, with the crossover and its source', () => {
    const answer = explainDispatch('voronoiPolygons', 123, { device: 'cpu' });
    expect(answer).toMatchObject({ path: 'cpu', rows: 123, kernel: 'voronoiPolygons', gpuImplemented: true });
    expect(answer.measured.length).toBeGreaterThan(0);
    expect(seen).toEqual([]);
  });

  it('reports a forced GPU run that would fail instead of throwing', () => {
    const answer = explainDispatch('someKernel', 10, { device: 'gpu' });
    expect(answer.reason).toMatch(/would fail: .*no GPU implementation/);
    expect(() => explainDispatch('voronoiPolygons', 10, { device: 'tpu' as never })).toThrow(
      /device must be/,
    );
  });
});

describe('runDispatched', () => {
  const gpuDecision: DispatchEvent = {
    type: 'dispatch',
    kernel: 'k',
    rows: 100,
    path: 'gpu',
    reason: 'test',
  };

  it('runs the chosen path and emits the decision first', async () => {
    const result = await runDispatched(gpuDecision, 'auto', { gpu: async () => 'gpu', cpu: () => 'cpu' });
    expect(result).toEqual({ value: 'gpu', decision: gpuDecision });
    expect(seen).toEqual([gpuDecision]);
    const cpuDecision: DispatchEvent = { ...gpuDecision, path: 'cpu' };
    const cpu = await runDispatched(cpuDecision, 'auto', {
      gpu: async () => 'gpu',
      cpu: () => 'cpu',
    });
    expect(cpu).toEqual({ value: 'cpu', decision: cpuDecision });
  });

  for (const code of ['GPU_UNAVAILABLE', 'GPU_DEVICE_LOST', 'GPU_OUT_OF_MEMORY', 'GPU_DECLINED']) {
    it(`under 'auto', ${code} falls back to the CPU with a fallback event`, async () => {
      const result = await runDispatched(gpuDecision, 'auto', {
        gpu: async () => {
          throw new GeoframeError(code, 'the device went away');
        },
        cpu: () => 'cpu',
      });
      expect(result.value).toBe('cpu');
      expect(seen.map((e) => e.type)).toEqual(['dispatch', 'fallback']);
      expect(seen[1]).toMatchObject({ path: 'cpu', kernel: 'k' });
      expect(seen[1].reason).toContain(code);
      // the result carries the event that ran, the same one the listener saw
      expect(result.decision).toEqual(seen[1]);
    });

    it(`under 'gpu', ${code} reaches the caller`, async () => {
      const failing = runDispatched(gpuDecision, 'gpu', {
        gpu: async () => {
          throw new GeoframeError(code, 'the device went away');
        },
        cpu: () => 'cpu',
      });
      await expect(failing).rejects.toMatchObject({ code });
    });
  }

  for (const device of ['auto', 'gpu'] as const) {
    it(`under '${device}', a GPU_PRECISION decline runs the CPU with a fallback event naming it`, async () => {
      const result = await runDispatched(gpuDecision, device, {
        gpu: async () => {
          throw new GeoframeError('GPU_PRECISION', 'the grid rounds 3 sites near the origin');
        },
        cpu: () => 'cpu',
      });
      expect(result.value).toBe('cpu');
      expect(seen.map((e) => e.type)).toEqual(['dispatch', 'fallback']);
      expect(seen[1].reason).toContain('GPU_PRECISION');
      expect(seen[1].reason).toContain('rounds 3 sites');
    });
  }

  it('a validation error (a kernel bug) is never hidden by a fallback', async () => {
    const failing = runDispatched(gpuDecision, 'auto', {
      gpu: async () => {
        throw new GeoframeError('GPU_VALIDATION', 'scan: bad binding');
      },
      cpu: () => 'cpu',
    });
    await expect(failing).rejects.toMatchObject({ code: 'GPU_VALIDATION' });
    expect(seen.map((e) => e.type)).toEqual(['dispatch']);
  });
});
