/**
 * What one evaluation of the CVT energy gives the optimisers: F, ∇F and the pieces Lloyd needs.
 * Every engine (raster, exact) produces it; the optimisers never see how (adr/0027).
 */
export interface CvtEvaluation {
  /** F = Σᵢ ∫_{Vᵢ} ρ‖p − xᵢ‖². */
  energy: number;
  /** ∂F/∂xᵢ = 2·mᵢ·(xᵢ − zᵢ), interleaved x, y. */
  gradient: Float64Array;
  /** ρ-centroid zᵢ of each cell, interleaved; a cell of zero mass gives its site. */
  centroids: Float64Array;
  /** Σᵢ mᵢ: the region's mass (the stopping rule's M). */
  totalMass: number;
  /** Raster only: the labels equal the previous evaluation's (Lloyd's fixed point). */
  settled?: boolean;
  /** ‖∇F‖₂ when the evaluation summed it already (as {@link norm2} sums it, bit for bit). */
  gradientNorm?: number;
}

/** ‖∇F‖₂ of an evaluation: its own sum when it has one. */
export function gradientNorm(e: CvtEvaluation): number {
  return e.gradientNorm ?? norm2(e.gradient);
}

/** The stopping rule's inputs besides ∇F (see `cvtConverged`). */
export interface CvtStopping {
  /** Lloyd: most iterations. L-BFGS: most evaluations. */
  maxIterations: number;
  tolerance: number;
  /** Diagonal of the region's bounding box. */
  diagonal: number;
}

/** What an optimiser returns once its evaluations are done. */
export interface CvtOutcome {
  sites: Float64Array;
  iterations: number;
  converged: boolean;
}

/**
 * An optimiser as a coroutine: it yields the sites it wants evaluated and receives their
 * evaluation, so one optimiser serves synchronous (CPU raster) and asynchronous (exact cells
 * through the engines) evaluations alike. `accept` is called once per iterate it keeps (the
 * start included for L-BFGS), in order, with the evaluation count so far.
 */
export type CvtSteps = Generator<Float64Array, CvtOutcome, CvtEvaluation>;

/** Called by an optimiser for each iterate it keeps. */
export type AcceptIterate = (evaluation: CvtEvaluation, evaluations: number) => void;

/** ‖v‖₂. */
export function norm2(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

/** a · b. */
export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
