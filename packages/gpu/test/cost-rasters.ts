import type { CostConnectivity, CostGridProblem, CostMetric } from '@geoframe/core';
import { SeededRandom } from '@geoframe/testing';

/** The kinds of test raster: seeded random, an x gradient, constant, a barrier maze, and all barrier. */
export type RasterKind = 'random' | 'gradient' | 'constant' | 'maze' | 'barrier';

/** A seeded cost raster of `kind` over `dims` ([w, h] or [w, h, d]); values ≥ 0.5 (valid for both metrics). */
export function costRaster(kind: RasterKind, dims: readonly number[], seed: number): Float32Array {
  const [w, h, d] = [dims[0], dims[1], dims[2] ?? 1];
  const rng = new SeededRandom(seed);
  const out = new Float32Array(w * h * d);
  for (let z = 0; z < d; z++) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (z * h + y) * w + x;
        if (kind === 'random') out[i] = 0.5 + 9.5 * rng.next();
        else if (kind === 'gradient') out[i] = 1 + (9 * x) / Math.max(1, w - 1);
        else if (kind === 'constant') out[i] = 1;
        else if (kind === 'barrier') out[i] = Number.NaN;
        else {
          // walls every 4th row/column with random gaps, random costs elsewhere
          const wall = (x % 4 === 3 || y % 4 === 3) && rng.next() < 0.85;
          out[i] = wall ? Number.NaN : 0.5 + 4 * rng.next();
        }
      }
    }
  }
  return out;
}

/**
 * `n` seeded random source cells (repeats possible when `n` nears the cell count), none on a
 * barrier of `values` when given (a source on a barrier is an error).
 */
export function randomSources(n: number, cells: number, seed: number, values?: Float32Array): Int32Array {
  const rng = new SeededRandom(seed);
  const draw = (): number => {
    const cell = Math.floor(rng.next() * cells);
    return values && Number.isNaN(values[cell]) ? draw() : cell;
  };
  return Int32Array.from({ length: n }, draw);
}

/** A problem from its parts; spacing 1 unless given. */
export function problemOf(
  values: Float32Array,
  dims: number[],
  sources: Int32Array,
  connectivity: CostConnectivity,
  metric: CostMetric = 'cost',
  extra: Partial<CostGridProblem> = {},
): CostGridProblem {
  return { values, dims, spacing: dims.map(() => 1), sources, connectivity, metric, ...extra };
}
