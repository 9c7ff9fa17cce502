import { exactRaster } from '../raster/exact-raster.js';
import { levelOf } from '../raster/facet-jfa.js';
import { jumpFlood, jumpFloodSteps } from '../raster/jump-flood.js';
import { nextPowerOfTwo, type RasterFrame, sitePixels } from '../raster/raster-frame.js';
import { seedLevel, sitePixelIndices } from '../raster/seed-raster.js';

/** CVT iterations whose labelling picks its own initial JFA step (the paper's t = 5). */
export const ADAPTIVE_STEP_ITERATIONS = 5;

/**
 * Labels the grid for one CVT evaluation: 'exact' (nearest site in f64) or '1+jfa' with the
 * paper's initial step (§3.1): the first labelling starts at N/2 (N = the next power of two ≥
 * the longer side); the next five start at 2 × the largest mean site-to-pixel distance of the
 * previous labelling (rounded up to a power of two, at most N/2); later ones reuse the fifth's.
 */
export class CvtLabelling {
  private count = 0;
  private fixedStep = 0;
  private readonly full: number[];

  constructor(
    private readonly frame: RasterFrame,
    private readonly mode: '1+jfa' | 'exact',
  ) {
    this.full = jumpFloodSteps('1+jfa', levelOf(frame, 1));
  }

  /** Labels for `sites`; `meanDistance` is the previous labelling's largest mean distance in pixels. */
  label(sites: Float64Array, meanDistance: number): Int32Array {
    this.count++;
    if (this.mode === 'exact') return exactRaster(sites, this.frame);
    const level = levelOf(this.frame, 1);
    const px = sitePixels(sites, this.frame);
    const seeds = seedLevel(
      sitePixelIndices(sites, this.frame),
      this.frame,
      px,
      level.centres,
      1,
      level.nx,
      level.ny,
      level.nz,
    );
    return jumpFlood(seeds, level, px, this.steps(meanDistance)).labels;
  }

  private steps(meanDistance: number): number[] {
    if (this.count === 1) return this.full;
    const top = this.full[1] ?? 1;
    let k = this.fixedStep;
    if (this.count <= ADAPTIVE_STEP_ITERATIONS + 1) {
      k = Math.min(top, nextPowerOfTwo(Math.max(1, Math.ceil(2 * meanDistance))));
      if (this.count === ADAPTIVE_STEP_ITERATIONS + 1) this.fixedStep = k;
    }
    const steps = [1];
    for (let s = k; s >= 1; s >>= 1) steps.push(s);
    return steps;
  }
}
