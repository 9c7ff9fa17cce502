import type { CvtRasterProblem } from '@geoframe/core';

/** One brute-force evaluation in f64: per site mass and centroid, F and ‖∇F‖ (coordinate units). */
export interface CvtReferenceEvaluation {
  mass: Float64Array;
  centroid: Float64Array;
  energy: number;
  gradientNorm: number;
}

/**
 * Sites as the GPU holds them: each coordinate rounded to f32 in pixel units from the grid's
 * corner (x right of xmin, y down from ymax, in pixel widths), back in coordinates (f64).
 */
export function asDeviceSites(problem: CvtRasterProblem): Float64Array {
  const [xmin, , xmax, ymax] = problem.grid.bounds;
  const pw = (xmax - xmin) / problem.grid.width;
  const out = new Float64Array(problem.sites.length);
  for (let i = 0; i < out.length; i += 2) {
    out[i] = xmin + pw * Math.fround((problem.sites[i] - xmin) / pw);
    out[i + 1] = ymax - pw * Math.fround((ymax - problem.sites[i + 1]) / pw);
  }
  return out;
}

/**
 * Brute force: each pixel centre (grid convention) goes to its nearest site by f64 squared
 * distance in pixel units (ties to the lower index); pixels of the region add A·ρ, A·ρ·c and
 * A·ρ·‖c − xᵢ‖² to their site in f64. ∇F = 2mᵢ(xᵢ − zᵢ), zero for an empty cell.
 */
export function evaluateReference(problem: CvtRasterProblem, sites: Float64Array): CvtReferenceEvaluation {
  const { width, height, bounds } = problem.grid;
  const [xmin, ymin, xmax, ymax] = bounds;
  const pw = (xmax - xmin) / width;
  const ph = (ymax - ymin) / height;
  const n = sites.length / 2;
  const u = new Float64Array(n);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    u[i] = (sites[2 * i] - xmin) / pw;
    v[i] = (ymax - sites[2 * i + 1]) / pw;
  }
  const mass = new Float64Array(n);
  const mx = new Float64Array(n);
  const my = new Float64Array(n);
  let energy = 0;
  const area = pw * ph;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const p = row * width + col;
      if (problem.mask && problem.mask[p] === 0) continue;
      const rho = problem.density ? problem.density[p] : 1;
      const cu = col + 0.5;
      const cv = (row + 0.5) * (ph / pw);
      let best = -1;
      let bestD = Number.POSITIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        const d = (u[i] - cu) ** 2 + (v[i] - cv) ** 2;
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      }
      // moments about the grid's corner: at large offsets absolute coordinates lose digits
      const cx = (col + 0.5) * pw;
      const cy = -(row + 0.5) * ph;
      mass[best] += area * rho;
      mx[best] += area * rho * cx;
      my[best] += area * rho * cy;
      energy += area * rho * bestD * pw * pw;
    }
  }
  const centroid = new Float64Array(2 * n);
  let g2 = 0;
  for (let i = 0; i < n; i++) {
    if (mass[i] > 0) {
      const zx = mx[i] / mass[i];
      const zy = my[i] / mass[i];
      centroid[2 * i] = xmin + zx;
      centroid[2 * i + 1] = ymax + zy;
      g2 += (2 * mass[i] * (u[i] * pw - zx)) ** 2;
      g2 += (2 * mass[i] * (-v[i] * pw - zy)) ** 2;
    } else {
      centroid[2 * i] = sites[2 * i];
      centroid[2 * i + 1] = sites[2 * i + 1];
    }
  }
  return { mass, centroid, energy, gradientNorm: Math.sqrt(g2) };
}

/** `steps` brute-force Lloyd iterations from the device-rounded start: the energy of each, and the final sites. */
export function lloydReference(
  problem: CvtRasterProblem,
  steps: number,
): { energy: number[]; sites: Float64Array } {
  let sites = asDeviceSites(problem);
  const energy: number[] = [];
  for (let k = 0; k < steps; k++) {
    const e = evaluateReference(problem, sites);
    energy.push(e.energy);
    sites = e.centroid;
  }
  return { energy, sites };
}
