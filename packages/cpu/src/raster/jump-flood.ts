import { jumpFloodPass, type LevelGrid } from './jump-flood-pass.js';
import { nextPowerOfTwo, type SitePixels } from './raster-frame.js';

/** The steps of a jump-flooding run: 'jfa' N/2, N/4, …, 1; 'jfa+1' adds a final 1; '1+jfa' starts with 1. */
export function jumpFloodSteps(variant: 'jfa' | 'jfa+1' | '1+jfa', level: LevelGrid): number[] {
  const n = nextPowerOfTwo(Math.max(level.nx, level.ny, level.nz));
  const steps: number[] = [];
  for (let k = n >> 1; k >= 1; k >>= 1) steps.push(k);
  if (variant === 'jfa+1') steps.push(1);
  if (variant === '1+jfa') steps.unshift(1);
  return steps;
}

/**
 * Runs jump flooding (Rong & Tan) from `seeds` on `level` with the given steps, ping-ponging two
 * buffers (gather: each pass reads the previous labels and writes new ones). Returns the final
 * labels (a new array; `seeds` is not modified) and the pixel visits.
 */
export function jumpFlood(
  seeds: Int32Array,
  level: LevelGrid,
  px: SitePixels,
  steps: readonly number[],
): { labels: Int32Array; processed: number } {
  let src = seeds.slice();
  let dst = new Int32Array(seeds.length);
  let processed = 0;
  for (const step of steps) {
    processed += jumpFloodPass(src, dst, level, px, step);
    [src, dst] = [dst, src];
  }
  return { labels: src, processed };
}
