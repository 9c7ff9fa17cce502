import { cvtConverged } from '@geoframe/core';
import type { AcceptIterate, CvtEvaluation, CvtSteps, CvtStopping } from './cvt-evaluation.js';
import { dot, gradientNorm } from './cvt-evaluation.js';
import { type EvaluationBudget, type LinePoint, wolfeLineSearch } from './wolfe-line-search.js';

/** Pairs (s, y) kept by L-BFGS (the paper's m = 7). */
export const LBFGS_MEMORY = 7;

/**
 * L-BFGS over all 2n coordinates: the two-loop recursion with m = 7 pairs and the initial
 * Hessian γI (γ = sᵀy / yᵀy of the newest pair; before any pair, 1 / (2 · mean cell mass), which
 * makes the first step Lloyd's), and a strong Wolfe line search from α = 1. A direction that is
 * not a descent direction, or a failed line search, drops the memory and retries along −γ∇F;
 * failing again, a Lloyd step is taken if it lowers F (raster energies are piecewise smooth, and
 * near a minimum their pixel-scale kinks defeat the line search), else the run ends.
 * `maxIterations` bounds the evaluations of F and ∇F.
 */
export function* lbfgsSteps(start: Float64Array, stop: CvtStopping, accept: AcceptIterate): CvtSteps {
  const budget: EvaluationBudget = { used: 0, max: stop.maxIterations };
  const size = start.length;
  const first: CvtEvaluation = yield start.slice();
  budget.used = 1;
  accept(first, 1);
  let current: LinePoint = { x: start.slice(), evaluation: first };
  const done = (e: CvtEvaluation) =>
    cvtConverged(gradientNorm(e), e.totalMass, stop.diagonal, stop.tolerance);
  if (done(first)) return { sites: current.x, iterations: 0, converged: true };

  const gamma0 = first.totalMass > 0 ? size / (4 * first.totalMass) : 1;
  let gamma = gamma0;
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  let iterations = 0;
  while (budget.used < budget.max) {
    const g = current.evaluation.gradient;
    let d = direction(g, s, y, rho, gamma);
    if (!(dot(g, d) < 0)) {
      s.length = y.length = rho.length = 0;
      gamma = gamma0;
      d = direction(g, s, y, rho, gamma);
    }
    let next = yield* wolfeLineSearch(current, d, 1, budget);
    if (next === null && s.length > 0) {
      s.length = y.length = rho.length = 0;
      gamma = gamma0;
      continue;
    }
    if (next === null) {
      // no step along −γ∇F: a Lloyd step (x ← z) still decreases F unless x is a fixed point
      // up to the raster's resolution; take it when it does, else stop
      if (budget.used >= budget.max) break;
      const x = current.evaluation.centroids.slice();
      const evaluation: CvtEvaluation = yield x;
      budget.used++;
      if (!(evaluation.energy < current.evaluation.energy)) break;
      next = { x, evaluation };
    }
    const sk = new Float64Array(size);
    const yk = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      sk[i] = next.x[i] - current.x[i];
      yk[i] = next.evaluation.gradient[i] - g[i];
    }
    const sy = dot(sk, yk);
    const yy = dot(yk, yk);
    // keep only pairs of positive curvature (a step that met only sufficient decrease may not)
    if (sy > 0 && yy > 0 && Number.isFinite(sy / yy)) {
      if (s.length === LBFGS_MEMORY) {
        s.shift();
        y.shift();
        rho.shift();
      }
      s.push(sk);
      y.push(yk);
      rho.push(1 / sy);
      gamma = sy / yy;
    }
    current = next;
    iterations++;
    accept(next.evaluation, budget.used);
    if (done(next.evaluation)) return { sites: current.x, iterations, converged: true };
  }
  return { sites: current.x, iterations, converged: false };
}

/** −H∇F by the two-loop recursion. */
function direction(
  g: Float64Array,
  s: readonly Float64Array[],
  y: readonly Float64Array[],
  rho: readonly number[],
  gamma: number,
): Float64Array {
  const q = g.slice();
  const alpha = new Float64Array(s.length);
  for (let k = s.length - 1; k >= 0; k--) {
    alpha[k] = rho[k] * dot(s[k], q);
    const yk = y[k];
    for (let i = 0; i < q.length; i++) q[i] -= alpha[k] * yk[i];
  }
  for (let i = 0; i < q.length; i++) q[i] *= gamma;
  for (let k = 0; k < s.length; k++) {
    const beta = rho[k] * dot(y[k], q);
    const sk = s[k];
    for (let i = 0; i < q.length; i++) q[i] += (alpha[k] - beta) * sk[i];
  }
  for (let i = 0; i < q.length; i++) q[i] = -q[i];
  return q;
}
