import {
  type CostConnectivity,
  type CostGridProblem,
  connectivitiesOf,
  GeoframeError,
  neighbourSteps,
  stepLength,
} from '@geoframe/core';
import { tileShape } from './cost-wgsl.js';

/** A {@link CostGridProblem} checked and turned into what the kernels read. */
export interface CostSetup {
  dims: 2 | 3;
  connectivity: CostConnectivity;
  /** [width, height, depth] (depth 1 in 2D). */
  size: [number, number, number];
  cells: number;
  /** Tiles per axis and their product. */
  tiles: [number, number, number, number];
  /** Per cell, the cost per unit length ('compliance': 1/stiffness, rounded to f32); −1 at barriers. */
  values: Float32Array;
  /** The sources' cells (as given). */
  sources: Uint32Array;
  /** f32 bits of the largest f32 not above maxCost. */
  maxCostBits: number;
  /** The f32 length of each neighbour step. */
  lens: Float32Array;
}

/** An invalid cost-allocation problem: the message says what and where. */
export class CostProblemError extends GeoframeError {
  constructor(message: string) {
    super('INVALID_COST_PROBLEM', message);
    this.name = 'CostProblemError';
  }
}

const F32_BITS = new Uint32Array(1);
const F32 = new Float32Array(F32_BITS.buffer);

/** The largest f32 ≤ x (x ≥ 0, not NaN), as bits. */
function f32BitsAtMost(x: number): number {
  F32[0] = x;
  if (F32[0] > x) F32_BITS[0] -= 1;
  return F32_BITS[0];
}

function cellName(i: number, size: readonly number[]): string {
  const col = i % size[0];
  const row = Math.floor(i / size[0]) % size[1];
  const slice = Math.floor(i / (size[0] * size[1]));
  return size[2] > 1
    ? `cell ${i} (col ${col}, row ${row}, slice ${slice})`
    : `cell ${i} (col ${col}, row ${row})`;
}

function checkShape(problem: CostGridProblem): { dims: 2 | 3; size: [number, number, number] } {
  const { dims: d, spacing, connectivity, metric } = problem;
  if (d.length !== 2 && d.length !== 3)
    throw new CostProblemError(`dims has ${d.length} entries; 2 or 3 expected`);
  const dims = d.length as 2 | 3;
  for (const n of d) {
    if (!Number.isInteger(n) || n < 1)
      throw new CostProblemError(`dims [${d.join(', ')}]: ${n} is not a positive integer`);
  }
  if (spacing.length !== dims || spacing.some((s) => !(s > 0 && Number.isFinite(s)))) {
    throw new CostProblemError(`spacing [${spacing.join(', ')}] must be ${dims} positive finite numbers`);
  }
  if (!connectivitiesOf(dims).includes(connectivity)) {
    throw new CostProblemError(
      `connectivity ${connectivity} is not one of ${connectivitiesOf(dims).join('/')} in ${dims}D`,
    );
  }
  if (metric !== 'cost' && metric !== 'compliance') throw new CostProblemError(`unknown metric '${metric}'`);
  const size: [number, number, number] = [d[0], d[1], dims === 3 ? d[2] : 1];
  if (problem.values.length !== size[0] * size[1] * size[2]) {
    throw new CostProblemError(
      `values has ${problem.values.length} cells; dims [${d.join(', ')}] need ${size[0] * size[1] * size[2]}`,
    );
  }
  return { dims, size };
}

/** Per-cell cost per unit length for the kernels: −1 marks a barrier (NaN in the problem). */
function kernelValues(problem: CostGridProblem, size: readonly number[]): Float32Array {
  const { values, metric } = problem;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      out[i] = -1;
    } else if (metric === 'cost') {
      if (!(v >= 0 && v < Number.POSITIVE_INFINITY)) {
        throw new CostProblemError(
          `${cellName(i, size)}: cost ${v} is not finite and ≥ 0 (NaN marks a barrier)`,
        );
      }
      out[i] = v;
    } else {
      if (!(v > 0 && v < Number.POSITIVE_INFINITY)) {
        throw new CostProblemError(
          `${cellName(i, size)}: stiffness ${v} is not finite and > 0 (NaN marks a barrier)`,
        );
      }
      out[i] = 1 / v;
    }
  }
  return out;
}

/**
 * Checks `problem` and builds the kernels' inputs (the seeding itself runs on the device:
 * seed-kernels.ts).
 *
 * @throws CostProblemError naming the field, cell or source that is wrong.
 */
export function prepareCost(problem: CostGridProblem): CostSetup {
  const { dims, size } = checkShape(problem);
  const cells = size[0] * size[1] * size[2];
  const values = kernelValues(problem, size);
  const sources = new Uint32Array(problem.sources.length);
  problem.sources.forEach((cell, id) => {
    if (!Number.isInteger(cell) || cell < 0 || cell >= cells) {
      throw new CostProblemError(`source ${id}: cell ${cell} is outside the grid of ${cells} cells`);
    }
    if (values[cell] < 0)
      throw new CostProblemError(`source ${id}: ${cellName(cell, size)} is a barrier (NaN)`);
    sources[id] = cell;
  });
  const maxCost = problem.maxCost ?? Number.POSITIVE_INFINITY;
  if (!(maxCost >= 0)) throw new CostProblemError(`maxCost ${maxCost} is not ≥ 0`);
  const lens = new Float32Array(28);
  neighbourSteps(problem.connectivity).forEach((step, k) => {
    lens[k] = stepLength(step, problem.spacing);
  });
  const shape = tileShape(dims);
  const t = [0, 1, 2].map((a) => Math.ceil(size[a] / shape[a]));
  return {
    dims,
    connectivity: problem.connectivity,
    size,
    cells,
    tiles: [t[0], t[1], t[2], t[0] * t[1] * t[2]],
    values,
    sources,
    maxCostBits: f32BitsAtMost(maxCost),
    lens,
  };
}
