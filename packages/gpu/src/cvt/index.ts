import type { CvtIteration, CvtRasterProblem, CvtRun } from '@geoframe/core';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { runExclusive } from '../runtime/run-queue.js';
import { CvtSession } from './cvt-session.js';
import { prepareCvt } from './cvt-setup.js';
import { runLbfgs } from './lbfgs-driver.js';
import { runLloyd } from './lloyd-driver.js';

/** Options of {@link cvtRasterGpu}. */
export interface CvtRasterGpuOptions {
  /** Called with each iteration's scalars, when the method has read them back. */
  onIteration?: (step: CvtIteration) => void;
  /**
   * Workgroup slots of the regional reduction's pre-reduction in workgroup memory; 0 adds every
   * pixel straight into the global sums. Default 8. For benchmarks.
   */
  slots?: number;
  /**
   * The paper's adaptive first JFA step (default true): after 5 evaluations the passes with a step
   * above twice the largest mean site-to-pixel distance are skipped (their threads return at
   * once). false: every pass of 1+JFA runs every evaluation.
   */
  adaptiveStep?: boolean;
  /**
   * Receives host-side milliseconds by phase (buffers, programs, record, submit, wait) and the
   * number of dispatches recorded (`dispatches`); benchmarks.
   */
  hostMs?: Record<string, number>;
  /** Times the compute passes (benchmarks): totals in `gpuMs` and, per pass name, `gpuPassMs`. */
  profiler?: GpuProfiler;
}

/**
 * The centroidal Voronoi tessellation of a raster problem on the GPU (Rong et al. 2011): per
 * evaluation, the sites' raster Voronoi diagram (1+JFA with the paper's adaptive first step, or a
 * brute-force 'exact' labelling), a regional reduction of ρ, ρx, ρy and ρ‖p − xᵢ‖² per site in
 * 64-bit fixed point (exact sums: deterministic for a given input and device), then Lloyd's
 * update or an L-BFGS step, all on the device; the host reads back a few scalars per batch of
 * Lloyd iterations or per L-BFGS evaluation (see adr/0028).
 *
 * Sites are kept in f32 on the device, in pixel units from the grid's corner (about 2^-24 of the
 * grid's extent), and returned as f64. `energy[i]` and `gradientNorm[i]` are F and ‖∇F‖ of the
 * sites iteration i + 1 started from (Lloyd), or of the initial point and each accepted L-BFGS
 * iterate; `iteration` of `onIteration` counts Lloyd iterations or L-BFGS evaluations. A site
 * whose cell is empty stays where it is (its gradient is 0). L-BFGS trial points are clamped to
 * the grid's box. Every site must lie in the grid's bounds.
 *
 * @throws RangeError for a bad problem (see `prepareCvt`); GpuOutOfMemoryError,
 *   GpuValidationError, GpuDeviceLostError.
 */
export async function cvtRasterGpu(
  ctx: GpuContext,
  problem: CvtRasterProblem,
  options: CvtRasterGpuOptions = {},
): Promise<CvtRun & { gpuMs?: number; gpuPassMs?: Record<string, number> }> {
  const setup = prepareCvt(problem);
  return runExclusive(ctx, async () => {
    const session = await CvtSession.open(ctx, setup, problem, options);
    try {
      const run = problem.method === 'lloyd' ? await runLloyd(session) : await runLbfgs(session);
      return options.profiler ? { ...run, gpuMs: session.gpuMs, gpuPassMs: session.gpuPassMs } : run;
    } finally {
      session.destroy();
    }
  });
}
