import type { CvtIteration, CvtRasterProblem, CvtRun } from '@geoframe/core';
import { rasterFrame } from '../raster/raster-frame.js';
import type { CvtEvaluation } from './cvt-evaluation.js';
import { CvtLabelling } from './raster-labelling.js';
import { runCvt } from './run-cvt.js';

/** Options of {@link cvtRasterCpu}. */
export interface CvtRasterCpuOptions {
  onIteration?: (step: CvtIteration) => void;
}

/**
 * The raster CVT on the CPU (the reference of the GPU engine): per evaluation the grid is
 * labelled ('1+jfa' with the adaptive initial step, or 'exact'), then ρ, ρx, ρy and ρ‖c − x‖² are
 * summed per site over the pixel centres c (f64) and scaled by the pixel area. Lloyd also stops
 * when the labels stop changing. Sites outside the grid seed no JFA pixel (their cells are empty).
 *
 * @throws RangeError for a bad grid, a density or mask of the wrong length, or a negative or NaN
 *   density value (naming the pixel)
 */
export function cvtRasterCpu(problem: CvtRasterProblem, options: CvtRasterCpuOptions = {}): CvtRun {
  const frame = rasterFrame(2, problem.grid);
  const weights = pixelWeights(problem, frame.width * frame.height);
  const labelling = new CvtLabelling(frame, problem.labelling);
  const n = problem.sites.length >> 1;
  const cx = new Float64Array(frame.width);
  const cy = new Float64Array(frame.height);
  for (let c = 0; c < frame.width; c++) cx[c] = frame.xmin + (c + 0.5) * frame.pixelWidth;
  for (let r = 0; r < frame.height; r++) cy[r] = frame.ymax - (r + 0.5) * frame.pixelHeight;
  const area = frame.pixelWidth * frame.pixelHeight;
  const pixel = Math.min(frame.pixelWidth, frame.pixelHeight);
  let previous: Int32Array | null = null;
  let meanDistance = 0;

  const evaluate = (x: Float64Array): CvtEvaluation => {
    const labels = labelling.label(x, meanDistance);
    const m = new Float64Array(n);
    const sx = new Float64Array(n);
    const sy = new Float64Array(n);
    const dist = new Float64Array(n);
    const count = new Float64Array(n);
    let energy = 0;
    for (let r = 0, p = 0; r < frame.height; r++) {
      const y = cy[r];
      for (let c = 0; c < frame.width; c++, p++) {
        const l = labels[p];
        if (l < 0) continue;
        const dx = cx[c] - x[2 * l];
        const dy = y - x[2 * l + 1];
        const d2 = dx * dx + dy * dy;
        dist[l] += Math.sqrt(d2);
        count[l]++;
        const w = weights[p];
        if (w === 0) continue;
        m[l] += w;
        sx[l] += w * cx[c];
        sy[l] += w * y;
        energy += w * d2;
      }
    }
    meanDistance = 0;
    for (let i = 0; i < n; i++)
      if (count[i] > 0) meanDistance = Math.max(meanDistance, dist[i] / count[i] / pixel);
    const settled = previous !== null && sameLabels(previous, labels);
    previous = labels;
    return reduced(x, m, sx, sy, energy, area, settled);
  };
  return runCvt(problem.sites, evaluate, {
    method: problem.method,
    maxIterations: problem.maxIterations,
    tolerance: problem.tolerance,
    diagonal: Math.hypot(frame.xmax - frame.xmin, frame.ymax - frame.ymin),
    onIteration: options.onIteration,
  });
}

/** Per-site sums (unscaled) → the evaluation, scaled by the pixel area. */
function reduced(
  x: Float64Array,
  m: Float64Array,
  sx: Float64Array,
  sy: Float64Array,
  energy: number,
  area: number,
  settled: boolean,
): CvtEvaluation {
  const n = m.length;
  const gradient = new Float64Array(2 * n);
  const centroids = new Float64Array(2 * n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += m[i];
    gradient[2 * i] = 2 * area * (m[i] * x[2 * i] - sx[i]);
    gradient[2 * i + 1] = 2 * area * (m[i] * x[2 * i + 1] - sy[i]);
    centroids[2 * i] = m[i] > 0 ? sx[i] / m[i] : x[2 * i];
    centroids[2 * i + 1] = m[i] > 0 ? sy[i] / m[i] : x[2 * i + 1];
  }
  return { energy: energy * area, gradient, centroids, totalMass: total * area, settled };
}

/** ρ per pixel: the density (checked), masked; 1 on the mask when there is no density. */
function pixelWeights(problem: CvtRasterProblem, pixels: number): Float64Array {
  const { density, mask } = problem;
  if (density !== undefined && density.length !== pixels) {
    throw new RangeError(`CVT density has ${density.length} values, the grid has ${pixels} pixels`);
  }
  if (mask !== undefined && mask.length !== pixels) {
    throw new RangeError(`CVT mask has ${mask.length} values, the grid has ${pixels} pixels`);
  }
  const w = new Float64Array(pixels);
  for (let p = 0; p < pixels; p++) {
    const v = density === undefined ? 1 : density[p];
    if (!(v >= 0) || v === Number.POSITIVE_INFINITY) {
      throw new RangeError(`CVT density at pixel ${p} is ${v}: it must be finite and ≥ 0`);
    }
    w[p] = mask === undefined || mask[p] !== 0 ? v : 0;
  }
  return w;
}

function sameLabels(a: Int32Array, b: Int32Array): boolean {
  for (let p = 0; p < a.length; p++) if (a[p] !== b[p]) return false;
  return true;
}
