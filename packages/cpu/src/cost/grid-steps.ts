import { type CostGridProblem, crossedCells, neighbourSteps, stepLength } from '@geoframe/core';

/** The neighbour steps of a problem as flat arrays, in `neighbourSteps` order. */
export interface GridSteps {
  count: number;
  dx: Int32Array;
  dy: Int32Array;
  dz: Int32Array;
  /** Flat index offset of each step. */
  offset: Int32Array;
  /** Length in CRS units (f64), as `stepLength`. */
  length: Float64Array;
  /** 1 for a knight's move, which also crosses two cells (`crossedCells`). */
  knight: Uint8Array;
  /** Knight's moves: flat index offsets of the two crossed cells (0 otherwise). */
  crossC: Int32Array;
  crossD: Int32Array;
}

/** The steps of `problem`'s connectivity with their index offsets and lengths. */
export function gridSteps(problem: CostGridProblem): GridSteps {
  const steps = neighbourSteps(problem.connectivity);
  const [w, h] = problem.dims;
  const count = steps.length;
  const out: GridSteps = {
    count,
    dx: new Int32Array(count),
    dy: new Int32Array(count),
    dz: new Int32Array(count),
    offset: new Int32Array(count),
    length: new Float64Array(count),
    knight: new Uint8Array(count),
    crossC: new Int32Array(count),
    crossD: new Int32Array(count),
  };
  for (let k = 0; k < count; k++) {
    const [dx, dy, dz] = steps[k];
    out.dx[k] = dx;
    out.dy[k] = dy;
    out.dz[k] = dz;
    out.offset[k] = (dz * h + dy) * w + dx;
    out.length[k] = stepLength(steps[k], problem.spacing);
    const crossed = crossedCells(steps[k]);
    if (crossed) {
      out.knight[k] = 1;
      out.crossC[k] = crossed[0][1] * w + crossed[0][0];
      out.crossD[k] = crossed[1][1] * w + crossed[1][0];
    }
  }
  return out;
}
