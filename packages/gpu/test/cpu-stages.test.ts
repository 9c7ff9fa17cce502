import { clipBox } from '@geoframe/core';
import { voronoiCells, voronoiEdges } from '@geoframe/cpu';
import { GpuDeclinedError, voronoiCellsGpu, voronoiEdgesGpu } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { CPU_STAGES } from './cpu-stages.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

// The GPU pipelines run CPU work only when it is handed in (gpu never imports cpu): inputs
// without a triangle need the CPU's cells; without the CPU stages the run declines, typed.
describe('the CPU stages of the GPU pipelines', () => {
  gpuTest(
    'two sites: the CPU stages answer and the fallback is reported once; without them, a typed decline',
    async () => {
      const ctx = await requireGpu();
      const sites = new Float64Array([0, 0, 3, 1]);
      const box = clipBox(sites, null);
      const reports: string[] = [];
      const onFallback = (stage: string, reason: string) => reports.push(`${stage}: ${reason}`);
      const { cells } = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, onFallback });
      expect(cells).toEqual(voronoiCells(sites, box));
      const { edges } = await voronoiEdgesGpu(ctx, sites, box, { cpu: CPU_STAGES, onFallback });
      expect(edges).toEqual(voronoiEdges(sites, box));
      expect(reports).toHaveLength(2);
      expect(reports[0]).toMatch(/^voronoi: no triangle/);
      await expect(voronoiCellsGpu(ctx, sites, box)).rejects.toBeInstanceOf(GpuDeclinedError);
      await expect(voronoiEdgesGpu(ctx, sites, box)).rejects.toMatchObject({ code: 'GPU_DECLINED' });
      // no sites needs no CPU: empty either way
      expect((await voronoiCellsGpu(ctx, new Float64Array(0), box)).cells.ringOffsets).toEqual(
        new Int32Array(1),
      );
    },
  );
});
