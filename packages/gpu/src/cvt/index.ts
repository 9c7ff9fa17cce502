import type { CvtIteration, CvtRasterProblem, CvtRun } from '@geoframe/core';
import type { GpuContext } from '../runtime/gpu-context.js';

/** Options of {@link cvtRasterGpu}. */
export interface CvtRasterGpuOptions {
  /** Called with each iteration's scalars, when the method has read them back. */
  onIteration?: (step: CvtIteration) => void;
}

/** Placeholder until the GPU raster CVT lands (issue 21): the engines fall back to the CPU. */
export async function cvtRasterGpu(
  _ctx: GpuContext,
  _problem: CvtRasterProblem,
  _options: CvtRasterGpuOptions = {},
): Promise<CvtRun> {
  throw new Error('cvtRasterGpu is not built yet');
}
