import { type CostGridProblem, neighbourSteps, stepLength } from '@geoframe/core';

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
  };
  for (let k = 0; k < count; k++) {
    const [dx, dy, dz] = steps[k];
    out.dx[k] = dx;
    out.dy[k] = dy;
    out.dz[k] = dz;
    out.offset[k] = (dz * h + dy) * w + dx;
    out.length[k] = stepLength(steps[k], problem.spacing);
  }
  return out;
}
