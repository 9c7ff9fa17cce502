import type { CvtIteration, CvtMethod, CvtRun } from '@geoframe/core';
import type { CvtEvaluation, CvtSteps, CvtStopping } from './cvt-evaluation.js';
import { gradientNorm } from './cvt-evaluation.js';
import { lbfgsSteps } from './lbfgs.js';
import { lloydSteps } from './lloyd.js';

/** Options shared by every CVT driver. */
export interface CvtRunOptions extends CvtStopping {
  method: CvtMethod;
  /** Called with each kept iterate's scalars (L-BFGS: `iteration` counts evaluations). */
  onIteration?: (step: CvtIteration) => void;
}

/** Evaluates F, ∇F and the centroids at the given sites. */
export type CvtEvaluate = (sites: Float64Array) => CvtEvaluation;
/** {@link CvtEvaluate}, asynchronously. */
export type CvtEvaluateAsync = (sites: Float64Array) => Promise<CvtEvaluation>;

/**
 * Runs the chosen optimiser from `start` with a synchronous evaluation. The run records, per
 * kept iterate (Lloyd: every iteration; L-BFGS: the start and every accepted step), F and
 * ‖∇F‖₂; the returned sites are the last kept iterate.
 */
export function runCvt(start: Float64Array, evaluate: CvtEvaluate, options: CvtRunOptions): CvtRun {
  const { steps, finish } = begin(start, options);
  let evaluations = 0;
  let next = steps.next();
  while (!next.done) {
    const e = evaluate(next.value);
    evaluations++;
    next = steps.next(e);
  }
  return finish(next.value, evaluations);
}

/** {@link runCvt} with an asynchronous evaluation (exact cells through the engines). */
export async function runCvtAsync(
  start: Float64Array,
  evaluate: CvtEvaluateAsync,
  options: CvtRunOptions,
): Promise<CvtRun> {
  const { steps, finish } = begin(start, options);
  let evaluations = 0;
  let next = steps.next();
  while (!next.done) {
    const e = await evaluate(next.value);
    evaluations++;
    next = steps.next(e);
  }
  return finish(next.value, evaluations);
}

function begin(start: Float64Array, options: CvtRunOptions) {
  const energy: number[] = [];
  const norms: number[] = [];
  const accept = (e: CvtEvaluation, evaluations: number) => {
    const g = gradientNorm(e);
    energy.push(e.energy);
    norms.push(g);
    options.onIteration?.({ iteration: evaluations, energy: e.energy, gradientNorm: g });
  };
  const steps: CvtSteps =
    options.method === 'lloyd' ? lloydSteps(start, options, accept) : lbfgsSteps(start, options, accept);
  const finish = (
    outcome: { sites: Float64Array; iterations: number; converged: boolean },
    evaluations: number,
  ): CvtRun => ({
    sites: outcome.sites,
    energy: Float64Array.from(energy),
    gradientNorm: Float64Array.from(norms),
    iterations: outcome.iterations,
    evaluations,
    converged: outcome.converged,
  });
  return { steps, finish };
}
