// centroidalVoronoi's dispatch: the raster mode's GPU engine failing over to the CPU with a
// fallback event (no adapter needed: any failure of the GPU engine is a decline).
import { type DispatchEvent, runDispatched } from '@geoframe/core';
import type { GpuContext } from '@geoframe/gpu';
import { describe, expect, test } from 'vitest';
import { cvtRasterEngines } from '../src/ops/engines.js';

describe('centroidalVoronoi dispatch', () => {
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
