import { clipBox } from '@geoframe/core';
import type { GpuContext } from '../runtime/gpu-context.js';
import { voronoiCellsGpu } from './voronoi-gpu.js';
import type { VoronoiGpuOptions } from './voronoi-options.js';

/** Sites of the warm-up: enough that the stars need their second (tail) pass, as large runs do. */
const WARM_UP_SITES = 2048;

/**
 * A small Voronoi diagram on the GPU, for its side effect: every pipeline the Voronoi and
 * Delaunay paths use is created (the first creation of the exact star kernels is what a cold
 * driver cache makes slow). Sites: the first points of the (2, 3) Halton sequence in the unit
 * square — spread like uniform random sites, deterministic, no two equal.
 */
export async function warmUpVoronoi(ctx: GpuContext, options: Pick<VoronoiGpuOptions, 'cpu'>): Promise<void> {
  const xy = new Float64Array(2 * WARM_UP_SITES);
  for (let i = 0; i < WARM_UP_SITES; i++) {
    xy[2 * i] = radicalInverse(i + 1, 2);
    xy[2 * i + 1] = radicalInverse(i + 1, 3);
  }
  await voronoiCellsGpu(ctx, xy, clipBox(xy, null), options);
}

function radicalInverse(i: number, base: number): number {
  let value = 0;
  let scale = 1 / base;
  for (let k = i; k > 0; k = Math.floor(k / base)) {
    value += (k % base) * scale;
    scale /= base;
  }
  return value;
}
