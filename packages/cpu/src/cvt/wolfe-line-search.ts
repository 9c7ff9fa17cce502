import type { CvtEvaluation } from './cvt-evaluation.js';
import { dot } from './cvt-evaluation.js';

/** A point the line search evaluated. */
export interface LinePoint {
  x: Float64Array;
  evaluation: CvtEvaluation;
}

/** Evaluations spent and allowed, shared by the optimiser and its line searches. */
export interface EvaluationBudget {
  used: number;
  max: number;
}

/** Sufficient decrease (Armijo) and curvature constants of the strong Wolfe conditions. */
const C1 = 1e-4;
const C2 = 0.9;
/** Most trial steps while bracketing, and while zooming into a bracket. */
const MAX_BRACKET = 20;
const MAX_ZOOM = 12;

interface Trial {
  alpha: number;
  f: number;
  slope: number;
  point: LinePoint | null;
}

/**
 * A line search along `d` from `base` for a step satisfying the strong Wolfe conditions
 * F(x + αd) ≤ F(x) + c₁α∇F·d and |∇F(x + αd)·d| ≤ c₂|∇F·d| (c₁ = 1e-4, c₂ = 0.9): bracketing
 * by doubling from `alpha`, then zooming with safeguarded cubic interpolation (Nocedal & Wright,
 * Algorithms 3.5 and 3.6). When the budget runs out, or zooming does not meet the curvature
 * condition (raster energies are only piecewise smooth), the best step meeting sufficient
 * decrease is returned; null when there is none.
 */
export function* wolfeLineSearch(
  base: LinePoint,
  d: Float64Array,
  alpha: number,
  budget: EvaluationBudget,
): Generator<Float64Array, LinePoint | null, CvtEvaluation> {
  const f0 = base.evaluation.energy;
  const slope0 = dot(base.evaluation.gradient, d);
  const probe = function* (a: number): Generator<Float64Array, Trial | null, CvtEvaluation> {
    if (budget.used >= budget.max) return null;
    const x = new Float64Array(base.x.length);
    for (let i = 0; i < x.length; i++) x[i] = base.x[i] + a * d[i];
    const evaluation: CvtEvaluation = yield x;
    budget.used++;
    const f = evaluation.energy;
    return { alpha: a, f, slope: dot(evaluation.gradient, d), point: { x, evaluation } };
  };
  const armijo = (t: Trial) => t.f <= f0 + C1 * t.alpha * slope0;
  const curvature = (t: Trial) => Math.abs(t.slope) <= -C2 * slope0;

  let previous: Trial = { alpha: 0, f: f0, slope: slope0, point: null };
  let a = alpha;
  for (let i = 0; i < MAX_BRACKET; i++) {
    const t = yield* probe(a);
    if (t === null) return previous.point;
    if (!armijo(t) || (i > 0 && t.f >= previous.f) || !Number.isFinite(t.f)) {
      return yield* zoom(previous, t);
    }
    if (curvature(t)) return t.point;
    if (t.slope >= 0) return yield* zoom(t, previous);
    previous = t;
    a *= 2;
  }
  return previous.point;

  // lo: the best step so far meeting sufficient decrease; hi: the other end of the bracket
  function* zoom(lo: Trial, hi: Trial): Generator<Float64Array, LinePoint | null, CvtEvaluation> {
    for (let j = 0; j < MAX_ZOOM; j++) {
      const t = yield* probe(interpolate(lo, hi));
      if (t === null) break;
      if (!armijo(t) || t.f >= lo.f || !Number.isFinite(t.f)) {
        hi = t;
      } else {
        if (curvature(t)) return t.point;
        if (t.slope * (hi.alpha - lo.alpha) >= 0) hi = lo;
        lo = t;
      }
    }
    return lo.point;
  }
}

/** The minimiser of the cubic through both ends (values and slopes), kept inside the middle 80 %. */
function interpolate(a: Trial, b: Trial): number {
  const lo = Math.min(a.alpha, b.alpha);
  const hi = Math.max(a.alpha, b.alpha);
  const d1 = a.slope + b.slope - (3 * (a.f - b.f)) / (a.alpha - b.alpha);
  const root = d1 * d1 - a.slope * b.slope;
  let t = Number.NaN;
  if (root >= 0 && Number.isFinite(b.f)) {
    const d2 = Math.sign(b.alpha - a.alpha) * Math.sqrt(root);
    t = b.alpha - ((b.alpha - a.alpha) * (b.slope + d2 - d1)) / (b.slope - a.slope + 2 * d2);
  }
  const margin = 0.1 * (hi - lo);
  if (!(t >= lo + margin && t <= hi - margin)) t = 0.5 * (lo + hi);
  return t;
}
