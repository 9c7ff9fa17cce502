import type { CvtRasterProblem } from '@geoframe/core';
import { nextPowerOfTwo } from '../raster/raster-setup.js';

/** Sums per site, each a 64-bit fixed-point number held as (lo, hi) u32 words. */
export const SUMS = {
  /** Σρ */
  mass: 0,
  /** Σρ·cx */
  momentX: 1,
  /** Σρ·cy */
  momentY: 2,
  /** Σρ·‖c − x‖² */
  energy: 3,
  /** pixels of the cell inside the region */
  count: 4,
  /** Σ‖c − x‖ over those pixels (for the mean site-to-pixel distance) */
  distance: 5,
} as const;
export const SUM_COUNT = 6;
/** u32 words per site in the sums buffer. */
export const SUM_WORDS = 2 * SUM_COUNT;

/**
 * What every CVT kernel needs from the host, computed once in f64.
 *
 * Units on the GPU: positions in scaled pixel units (x in pixel widths right of xmin, y in pixel
 * widths down from ymax, as the raster kernels use), density normalised to ρ̂ = ρ / max ρ ∈ [0, 1].
 * F̂ = Σ_p ρ̂_p‖c_p − x̂‖² in those units; F = `energyUnit`·F̂ and ‖∇F‖ = `gradientUnit`·‖∇F̂‖.
 */
export interface CvtSetup {
  width: number;
  height: number;
  pixels: number;
  count: number;
  /** y pixel centre factor (pixel height / pixel width). */
  scaleY: number;
  /** Initial positions, f32 scaled units, interleaved. */
  positions: Float32Array;
  /** Per pixel ρ̂ in the region, −1 outside it. */
  weights: Float32Array;
  /** log2 of the fixed-point scale of each sum (see {@link fixedScales}). */
  shifts: number[];
  /** F = energyUnit · F̂. */
  energyUnit: number;
  /** ‖∇F‖ = gradientUnit · ‖∇F̂‖ (also positions: coordinate = xmin + pw · x̂). */
  gradientUnit: number;
  /** The region's mass ∫ρ and its bounding box diagonal, in coordinate units (the stopping rule). */
  mass: number;
  diagonal: number;
  /** Pixel width, height; bounds. */
  pixelWidth: number;
  bounds: readonly number[];
  /** The JFA's first step: the smallest power of two ≥ the larger grid side, halved. */
  firstStep: number;
}

/**
 * The fixed-point scales 2^shift of the per-site sums: a pixel adds at most `bound` (in GPU units)
 * to a sum, a sum has at most `pixels` terms, so with 2^shift ≤ 2^62 / (pixels · bound) no sum of
 * any site (nor the total over all sites) reaches 2^62 < 2^64: the 64-bit words cannot overflow.
 * The rounding of each term to the fixed point is then ≤ 2^-shift-1, i.e. the sum's absolute
 * error ≤ pixels · 2^-shift-1 ≤ pixels² · bound · 2^-63, far below the f32 rounding of the terms.
 */
export function fixedScales(pixels: number, width: number, heightScaled: number): number[] {
  const diag2 = width * width + heightScaled * heightScaled;
  const bounds = [1, width, heightScaled, diag2, 1, Math.sqrt(diag2)];
  return bounds.map((b) => Math.floor(62 - Math.log2(pixels) - Math.log2(b)));
}

/**
 * Validates `problem` and converts it for the kernels.
 *
 * @throws RangeError naming the problem: a bad grid (not 2D, non-integer sizes, empty or
 *   non-finite bounds), no sites, a site not finite or outside the grid's bounds, a density or
 *   mask of the wrong length, a negative or non-finite density, a region of zero mass, a bad
 *   method, labelling, iteration count or tolerance.
 */
export function prepareCvt(problem: CvtRasterProblem): CvtSetup {
  const { grid, sites, density, mask } = problem;
  const { width, height, depth, bounds } = grid;
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 1)
      throw new RangeError(`cvt: grid ${name} ${v} is not a positive integer`);
  }
  if (depth !== 1 || bounds.length !== 4)
    throw new RangeError('cvt: the grid must be 2D (depth 1, 4 bounds)');
  const [xmin, ymin, xmax, ymax] = bounds;
  if (![xmin, ymin, xmax, ymax].every(Number.isFinite) || !(xmax > xmin) || !(ymax > ymin)) {
    throw new RangeError(`cvt: grid bounds [${bounds.join(', ')}] are not a finite, non-empty box`);
  }
  const pixels = width * height;
  if (pixels >= 2 ** 31) throw new RangeError(`cvt: ${pixels} pixels exceed 31-bit pixel indices`);
  if (problem.method !== 'lloyd' && problem.method !== 'lbfgs')
    throw new RangeError(`cvt: unknown method '${problem.method}'`);
  if (problem.labelling !== '1+jfa' && problem.labelling !== 'exact')
    throw new RangeError(`cvt: unknown labelling '${problem.labelling}'`);
  if (!Number.isSafeInteger(problem.maxIterations) || problem.maxIterations < 1)
    throw new RangeError(`cvt: maxIterations ${problem.maxIterations} is not a positive integer`);
  if (!(problem.tolerance >= 0) || !Number.isFinite(problem.tolerance))
    throw new RangeError(`cvt: tolerance ${problem.tolerance} is not a finite number ≥ 0`);
  if (sites.length % 2 !== 0)
    throw new RangeError(`cvt: ${sites.length} site coordinates are not x, y pairs`);
  const count = sites.length / 2;
  if (count === 0) throw new RangeError('cvt: no sites');
  const pw = (xmax - xmin) / width;
  const ph = (ymax - ymin) / height;
  const positions = new Float32Array(2 * count);
  for (let i = 0; i < count; i++) {
    const x = sites[2 * i];
    const y = sites[2 * i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError(`cvt: site ${i} is not finite`);
    if (x < xmin || x > xmax || y < ymin || y > ymax)
      throw new RangeError(`cvt: site ${i} (${x}, ${y}) lies outside the grid's bounds`);
    positions[2 * i] = (x - xmin) / pw;
    positions[2 * i + 1] = (ymax - y) / pw;
  }
  const { weights, total } = normalisedWeights(pixels, density, mask);
  const heightScaled = height * (ph / pw);
  return {
    width,
    height,
    pixels,
    count,
    scaleY: ph / pw,
    positions,
    weights,
    shifts: fixedScales(pixels, width, heightScaled),
    energyUnit: total.max * pw * ph * pw * pw,
    gradientUnit: total.max * pw * ph * pw,
    mass: total.sum * pw * ph,
    diagonal: Math.hypot(xmax - xmin, ymax - ymin),
    pixelWidth: pw,
    bounds,
    firstStep: Math.max(1, nextPowerOfTwo(Math.max(width, height)) / 2),
  };
}

/** ρ / max ρ per pixel inside the region, −1 outside; with Σρ and max ρ (f64). */
function normalisedWeights(
  pixels: number,
  density: Float32Array | undefined,
  mask: Uint8Array | undefined,
): { weights: Float32Array; total: { sum: number; max: number } } {
  if (density && density.length !== pixels)
    throw new RangeError(`cvt: density has ${density.length} values for ${pixels} pixels`);
  if (mask && mask.length !== pixels)
    throw new RangeError(`cvt: mask has ${mask.length} values for ${pixels} pixels`);
  let max = 0;
  let sum = 0;
  for (let p = 0; p < pixels; p++) {
    if (mask && mask[p] === 0) continue;
    const rho = density ? density[p] : 1;
    if (!(rho >= 0) || !Number.isFinite(rho))
      throw new RangeError(`cvt: density ${rho} at pixel ${p} is not a finite number ≥ 0`);
    if (rho > max) max = rho;
    sum += rho;
  }
  if (!(sum > 0)) throw new RangeError('cvt: the region has zero mass (empty mask or zero density)');
  const weights = new Float32Array(pixels);
  for (let p = 0; p < pixels; p++) {
    weights[p] = mask && mask[p] === 0 ? -1 : (density ? density[p] : 1) / max;
  }
  return { weights, total: { sum, max } };
}
