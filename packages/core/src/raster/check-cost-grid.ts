import { GeoframeError } from '../errors.js';
import { type CostGridProblem, connectivitiesOf } from './cost-grid.js';

/** A {@link CostGridProblem} that cannot be solved as given; the message names what and where. */
export class CostGridError extends GeoframeError {
  constructor(message: string) {
    super('INVALID_COST_GRID', message);
    this.name = 'CostGridError';
  }
}

/** "cell 17 (col 2, row 3)" or with the slice in 3D: where a flat index lies. */
export function describeCell(index: number, dims: readonly number[]): string {
  const col = index % dims[0];
  const rest = (index - col) / dims[0];
  const row = rest % dims[1];
  const slice = (rest - row) / dims[1];
  return dims.length === 3
    ? `cell ${index} (col ${col}, row ${row}, slice ${slice})`
    : `cell ${index} (col ${col}, row ${row})`;
}

function checkShape(problem: CostGridProblem): number {
  const { dims, spacing, values } = problem;
  if (!Array.isArray(dims) || (dims.length !== 2 && dims.length !== 3)) {
    throw new CostGridError(
      `dims must be [width, height] or [width, height, depth], got ${JSON.stringify(dims)}`,
    );
  }
  if (!dims.every((d) => Number.isInteger(d) && d >= 1)) {
    throw new CostGridError(`dims must be positive integers, got [${dims.join(', ')}]`);
  }
  if (!(values instanceof Float32Array)) throw new CostGridError('values must be a Float32Array');
  const cells = dims.reduce((a, b) => a * b, 1);
  if (values.length !== cells) {
    throw new CostGridError(`values has ${values.length} cells, dims [${dims.join(', ')}] need ${cells}`);
  }
  if (!Array.isArray(spacing) || spacing.length !== dims.length) {
    throw new CostGridError(`spacing must have ${dims.length} numbers, got ${JSON.stringify(spacing)}`);
  }
  spacing.forEach((s, axis) => {
    if (!(Number.isFinite(s) && s > 0)) {
      throw new CostGridError(`spacing[${axis}] must be finite and > 0, got ${s}`);
    }
  });
  return cells;
}

/**
 * Checks a {@link CostGridProblem} before an engine runs it: `dims` (2 or 3 positive integers)
 * match `values.length`; `spacing` finite and > 0 per axis; every value NaN (a barrier) or finite
 * and ≥ 0 (> 0 for 'compliance'); a known metric; a connectivity valid for the dimension; every
 * source an integer cell index in range and not in a barrier; `maxCost` ≥ 0 or absent.
 *
 * @throws CostGridError naming the first offending cell, source or parameter.
 */
export function checkCostGridProblem(problem: CostGridProblem): void {
  checkShape(problem);
  const { dims, values, sources, metric, connectivity } = problem;
  const dimensions = dims.length as 2 | 3;
  if (metric !== 'cost' && metric !== 'compliance') {
    throw new CostGridError(`metric must be 'cost' or 'compliance', got ${JSON.stringify(metric)}`);
  }
  if (!connectivitiesOf(dimensions).includes(connectivity)) {
    throw new CostGridError(
      `connectivity ${connectivity} is not valid in ${dimensions}D (use ${connectivitiesOf(dimensions).join(', ')})`,
    );
  }
  const max = problem.maxCost;
  if (max !== undefined && !(max >= 0)) throw new CostGridError(`maxCost must be ≥ 0, got ${max}`);
  const positive = metric === 'compliance';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    if (!(v >= 0 && v < Infinity) || (positive && v === 0)) {
      const need = positive ? "finite and > 0 for metric 'compliance'" : 'finite and ≥ 0';
      throw new CostGridError(`${describeCell(i, dims)}: value ${v} must be ${need} (or NaN for a barrier)`);
    }
  }
  if (!(sources instanceof Int32Array)) throw new CostGridError('sources must be an Int32Array');
  for (let s = 0; s < sources.length; s++) {
    const cell = sources[s];
    if (cell < 0 || cell >= values.length) {
      throw new CostGridError(`source ${s}: cell ${cell} is outside the grid of ${values.length} cells`);
    }
    if (Number.isNaN(values[cell])) {
      throw new CostGridError(`source ${s}: ${describeCell(cell, dims)} is a barrier (NaN)`);
    }
  }
}
