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

/**
 * The error for cell `i`, which the device found invalid (negative or infinite; for
 * 'compliance' also 0): the check runs there (check-kernels.ts), the message is made here.
 */
export function valueError(problem: CostGridProblem, setup: CostSetup, i: number): CostProblemError {
  const v = problem.values[i];
  return problem.metric === 'cost'
    ? new CostProblemError(
        `${cellName(i, setup.size)}: cost ${v} is not finite and ≥ 0 (NaN marks a barrier)`,
      )
    : new CostProblemError(
        `${cellName(i, setup.size)}: stiffness ${v} is not finite and > 0 (NaN marks a barrier)`,
      );
}

/**
 * Checks `problem`'s shape, sources and maxCost and builds the kernels' parameters; the values
 * are checked and converted on the device (check-kernels.ts), the cells seeded there too
 * (seed-kernels.ts).
 *
 * @throws CostProblemError naming the field, cell or source that is wrong.
 */
export function prepareCost(problem: CostGridProblem): CostSetup {
  const { dims, size } = checkShape(problem);
  const cells = size[0] * size[1] * size[2];
  const sources = new Uint32Array(problem.sources.length);
  problem.sources.forEach((cell, id) => {
    if (!Number.isInteger(cell) || cell < 0 || cell >= cells) {
      throw new CostProblemError(`source ${id}: cell ${cell} is outside the grid of ${cells} cells`);
    }
    if (Number.isNaN(problem.values[cell]))
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
    sources,
    maxCostBits: f32BitsAtMost(maxCost),
    lens,
  };
}
