import type { CvtRun } from '@geoframe/core';
import type { CvtSession } from './cvt-session.js';

/** Iterations per submission: the first, and the most (see {@link runLloyd}). */
export const LLOYD_BATCH = { first: 4, most: 64 } as const;

/**
 * Lloyd's method on the device: each submission records `k` whole iterations (label, reduce,
 * move every site to its centroid) with nothing read back in between; then the k history rows
 * come back (energy, ‖∇F‖, labels changed) for `onIteration` and the stopping tests. k starts at
 * {@link LLOYD_BATCH}.first and doubles up to .most: a short run stops within a few iterations of
 * converging, a long one pays one read-back per 64 iterations. The next batch is recorded and
 * submitted before the previous one is read, so the host's recording overlaps the GPU's work.
 * Stops when `cvtConverged` holds or no label changed (the sites are then a fixed point); the
 * iterations already submitted then are run and reported.
 */
export async function runLloyd(session: CvtSession): Promise<CvtRun> {
  const { problem } = session;
  const energy: number[] = [];
  const gradientNorm: number[] = [];
  let converged = false;
  let batch: number = LLOYD_BATCH.first;
  let submitted = 0;
  const next = async () => {
    if (submitted >= problem.maxIterations) return null;
    const k = Math.min(batch, problem.maxIterations - submitted);
    const programs = Array.from({ length: k }, () => session.programs.evaluate);
    const pending = await session.enqueue(programs, submitted, submitted + k);
    submitted += k;
    batch = Math.min(LLOYD_BATCH.most, 2 * batch);
    return pending;
  };
  let pending = await next();
  while (pending) {
    const ahead = session.pipelined && !converged ? await next() : null;
    const { rows } = await pending.read();
    for (const row of rows) {
      energy.push(row.energy);
      gradientNorm.push(row.gradientNorm);
      session.onIteration?.({ iteration: row.iteration, energy: row.energy, gradientNorm: row.gradientNorm });
      const complete = row.unlabelled === 0; // else the next iteration relabels with every JFA step
      if (complete && (session.converged(row) || (row.iteration > 1 && row.changed === 0))) converged = true;
    }
    pending = ahead ?? (converged ? null : await next());
  }
  return {
    sites: await session.sites(session.buffers.positions),
    energy: Float64Array.from(energy),
    gradientNorm: Float64Array.from(gradientNorm),
    iterations: submitted,
    evaluations: submitted,
    converged,
  };
}
