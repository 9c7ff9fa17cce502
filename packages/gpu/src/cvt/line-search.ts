/** φ(α) = F(x + αd) and φ'(α) = ∇F(x + αd)·d at one step length. */
export interface LineProbe {
  alpha: number;
  value: number;
  slope: number;
}

/** Options of {@link wolfeLineSearch}. */
export interface WolfeOptions {
  /** Sufficient decrease (Armijo) constant. */
  c1: number;
  /** Curvature constant (strong Wolfe: |φ'(α)| ≤ c2·|φ'(0)|). */
  c2: number;
  /** Most evaluations this search may make (the first probe included). */
  maxEvaluations: number;
  /** Evaluations the caller can still afford (its own budget, which re-evaluations also spend). */
  remaining?: () => number;
}

export const WOLFE_DEFAULTS: WolfeOptions = { c1: 1e-4, c2: 0.9, maxEvaluations: 10 };

/** The outcome: the accepted probe (always the last one evaluated), or null when none decreased φ. */
export interface WolfeResult {
  accepted: LineProbe | null;
  /** Whether `accepted` satisfies both strong Wolfe conditions (else it only decreases φ). */
  wolfe: boolean;
  evaluations: number;
}

/**
 * A line search for the strong Wolfe conditions (Nocedal & Wright, Algorithms 3.5 and 3.6):
 * bracketing by doubling from the first probe, then zooming with a safeguarded cubic
 * interpolation. Runs on the host: it decides on two scalars per probe, which is all the GPU
 * sends back. When the evaluations run out, the best decreasing probe is accepted, re-evaluated
 * if it was not the last (the caller's device state holds the last evaluated point).
 */
export async function wolfeLineSearch(
  phi0: number,
  dphi0: number,
  first: LineProbe,
  evaluate: (alpha: number) => Promise<LineProbe>,
  options: WolfeOptions = WOLFE_DEFAULTS,
): Promise<WolfeResult> {
  const { c1, c2, maxEvaluations } = options;
  const exhausted = () => evaluations >= maxEvaluations || (options.remaining?.() ?? 1) <= 0;
  let evaluations = 1;
  let last = first;
  let best: LineProbe | null = first.value < phi0 ? first : null;
  const armijo = (p: LineProbe) => p.value <= phi0 + c1 * p.alpha * dphi0;
  const curvature = (p: LineProbe) => Math.abs(p.slope) <= c2 * Math.abs(dphi0);
  const probe = async (alpha: number) => {
    evaluations++;
    last = await evaluate(alpha);
    if (last.value < (best?.value ?? phi0)) best = last;
    return last;
  };
  const finish = async (): Promise<WolfeResult> => {
    if (!best) return { accepted: null, wolfe: false, evaluations };
    if (best !== last) {
      // one evaluation past the search's own cap is allowed for this, none past the caller's budget
      if (evaluations > maxEvaluations || (options.remaining?.() ?? 1) <= 0) {
        return { accepted: null, wolfe: false, evaluations };
      }
      await probe(best.alpha);
    }
    return { accepted: last, wolfe: false, evaluations };
  };
  let previous: LineProbe = { alpha: 0, value: phi0, slope: dphi0 };
  let current = first;
  let lo: LineProbe | null = null;
  let hi: LineProbe | null = null;
  for (;;) {
    if (!armijo(current) || (previous.alpha > 0 && current.value >= previous.value)) {
      lo = previous;
      hi = current;
      break;
    }
    if (curvature(current)) return { accepted: current, wolfe: true, evaluations };
    if (current.slope >= 0) {
      lo = current;
      hi = previous;
      break;
    }
    if (exhausted()) return finish();
    previous = current;
    current = await probe(2 * current.alpha);
  }
  // zoom: lo satisfies Armijo with the lowest value so far; the minimiser lies between lo and hi
  while (!exhausted()) {
    const alpha = interpolate(lo, hi);
    const p = await probe(alpha);
    if (!armijo(p) || p.value >= lo.value) {
      hi = p;
    } else {
      if (curvature(p)) return { accepted: p, wolfe: true, evaluations };
      if (p.slope * (hi.alpha - lo.alpha) >= 0) hi = lo;
      lo = p;
    }
    if (Math.abs(hi.alpha - lo.alpha) <= 1e-9 * Math.max(lo.alpha, hi.alpha)) break;
  }
  return finish();
}

/** The minimiser of the cubic through two probes, kept in the middle 80 % of their interval. */
function interpolate(a: LineProbe, b: LineProbe): number {
  const lo = Math.min(a.alpha, b.alpha);
  const hi = Math.max(a.alpha, b.alpha);
  const d1 = a.slope + b.slope - (3 * (a.value - b.value)) / (a.alpha - b.alpha);
  const disc = d1 * d1 - a.slope * b.slope;
  let alpha = (lo + hi) / 2;
  if (disc >= 0) {
    const d2 = Math.sign(b.alpha - a.alpha) * Math.sqrt(disc);
    const t = b.alpha - (b.alpha - a.alpha) * ((b.slope + d2 - d1) / (b.slope - a.slope + 2 * d2));
    if (Number.isFinite(t)) alpha = t;
  }
  const margin = 0.1 * (hi - lo);
  return Math.min(hi - margin, Math.max(lo + margin, alpha));
}
