import { cvtConverged } from '@geoframe/core';
import type { AcceptIterate, CvtEvaluation, CvtSteps, CvtStopping } from './cvt-evaluation.js';
import { gradientNorm } from './cvt-evaluation.js';

/**
 * Lloyd's fixed-point iteration: evaluate at x, keep x, move every site to its centroid (a site
 * of an empty cell stays). Stops when the stopping rule holds at x, when the evaluation says the
 * labels settled (raster), or after `maxIterations`. Returns the last evaluated sites, so the
 * last energy recorded is the returned sites' energy.
 */
export function* lloydSteps(start: Float64Array, stop: CvtStopping, accept: AcceptIterate): CvtSteps {
  let x = start.slice();
  for (let k = 1; k <= stop.maxIterations; k++) {
    const e: CvtEvaluation = yield x;
    accept(e, k);
    const done = cvtConverged(gradientNorm(e), e.totalMass, stop.diagonal, stop.tolerance);
    if (done || e.settled === true) return { sites: x, iterations: k, converged: true };
    if (k === stop.maxIterations) return { sites: x, iterations: k, converged: false };
    x = e.centroids.slice();
  }
  return { sites: x, iterations: 0, converged: false };
}
