/**
 * The centroidal Voronoi tessellation (CVT) vocabulary shared by the CPU and GPU engines and the
 * geo API (issue 21; Rong et al. 2011).
 *
 * A CVT minimises F(x) = Σᵢ ∫_{Vᵢ} ρ(p)‖p − xᵢ‖² dp over the region; ∂F/∂xᵢ = 2·mᵢ·(xᵢ − zᵢ) with
 * mᵢ = ∫_{Vᵢ} ρ and zᵢ the ρ-centroid of the cell Vᵢ. On a raster the integrals are sums over the
 * pixel centres of the grid (RasterGrid convention) times the pixel area, each pixel belonging to
 * the site its labelling names: F = A·Σ_p ρ_p‖c_p − x_{ℓ(p)}‖².
 */
import type { RasterGrid } from '../raster/raster-grid.js';

/** Lloyd's fixed-point iteration (xᵢ ← zᵢ), or L-BFGS (memory 7) with a Wolfe line search. */
export type CvtMethod = 'lloyd' | 'lbfgs';

/** A 2D CVT over a raster: the region and density sampled at the pixel centres of `grid`. */
export interface CvtRasterProblem {
  /** Initial sites, interleaved x, y, in the grid's coordinates. */
  sites: Float64Array;
  /** A 2D grid (depth 1) over the region's bounds. */
  grid: RasterGrid;
  /** Per pixel ρ ≥ 0 in label order; pixels outside the region hold 0. Absent: 1 on `mask`. */
  density?: Float32Array;
  /** Per pixel 1 inside the region, 0 outside. Absent: the whole grid. */
  mask?: Uint8Array;
  method: CvtMethod;
  /** Lloyd: most iterations. L-BFGS: most evaluations of F and ∇F. */
  maxIterations: number;
  /** Stop when {@link cvtConverged} holds. */
  tolerance: number;
  /** How pixels are labelled each iteration: '1+jfa' (the paper) or 'exact'. */
  labelling: '1+jfa' | 'exact';
}

/** One iteration's scalars, as reported to `onIteration`. */
export interface CvtIteration {
  /** 1-based: Lloyd iterations, or L-BFGS evaluations. */
  iteration: number;
  energy: number;
  gradientNorm: number;
}

/** The outcome of a CVT run. */
export interface CvtRun {
  /** Final sites, interleaved x, y, in the input order. */
  sites: Float64Array;
  /** F after each iteration (index i: iteration i + 1). */
  energy: Float64Array;
  /** ‖∇F‖₂ over all 2n coordinates after each iteration. */
  gradientNorm: Float64Array;
  /** Lloyd iterations or L-BFGS iterations run. */
  iterations: number;
  /** Evaluations of F and ∇F (Lloyd: one per iteration). */
  evaluations: number;
  /** Whether {@link cvtConverged} held (or, raster Lloyd, the labels stopped changing). */
  converged: boolean;
}

/**
 * The one scale-free stopping rule of every CVT path: ‖∇F‖₂ ≤ tolerance · 2 · M · D, where M is
 * the region's total mass (∫ρ) and D the diagonal of its bounding box. As ∇F = 2m(x − z), this
 * reads "sites are, in the mass-weighted mean, within tolerance·D of their centroids".
 */
export function cvtConverged(
  gradientNorm: number,
  mass: number,
  diagonal: number,
  tolerance: number,
): boolean {
  return gradientNorm <= tolerance * 2 * mass * diagonal;
}
