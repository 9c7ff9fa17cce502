import { CostGridError, type CostGridProblem } from '@geoframe/core';
import { describe, expect, it } from 'vitest';
import { costAllocationCpu } from '../src/index.js';

function problem(extra: Partial<CostGridProblem> = {}): CostGridProblem {
  return {
    values: new Float32Array(12).fill(1),
    dims: [4, 3],
    spacing: [1, 1],
    sources: new Int32Array([0]),
    connectivity: 8,
    metric: 'cost',
    ...extra,
  };
}

function withValue(i: number, v: number, metric: 'cost' | 'compliance' = 'cost'): Partial<CostGridProblem> {
  const values = new Float32Array(12).fill(1);
  values[i] = v;
  return { values, metric };
}

describe('costAllocationCpu rejects bad problems, naming what and where', () => {
  const cases: [string, Partial<CostGridProblem>, RegExp][] = [
    ['dims × length', { dims: [5, 3] }, /values has 12 cells, dims \[5, 3\] need 15/],
    ['non-integer dims', { dims: [4, 3.5] }, /positive integers/],
    ['1D dims', { dims: [12] }, /dims must be/],
    ['spacing count', { spacing: [1] }, /spacing must have 2 numbers/],
    ['zero spacing', { spacing: [1, 0] }, /spacing\[1\] must be finite and > 0, got 0/],
    ['infinite spacing', { spacing: [Infinity, 1] }, /spacing\[0\]/],
    ['negative value', withValue(6, -2), /cell 6 \(col 2, row 1\): value -2 must be finite and ≥ 0/],
    ['infinite value', withValue(11, Infinity), /cell 11 \(col 3, row 2\): value Infinity/],
    ['zero stiffness', withValue(3, 0, 'compliance'), /cell 3 \(col 3, row 0\).*> 0 for metric 'compliance'/],
    ['source out of range', { sources: new Int32Array([0, 12]) }, /source 1: cell 12 is outside the grid/],
    ['negative source', { sources: new Int32Array([-1]) }, /source 0: cell -1 is outside/],
    [
      'source in a barrier',
      { ...withValue(5, Number.NaN), sources: new Int32Array([2, 5]) },
      /source 1: cell 5 \(col 1, row 1\) is a barrier/,
    ],
    ['3D connectivity in 2D', { connectivity: 26 }, /connectivity 26 is not valid in 2D \(use 4, 8, 16\)/],
    [
      '2D connectivity in 3D',
      { dims: [2, 2, 3], spacing: [1, 1, 1], connectivity: 8 },
      /not valid in 3D \(use 6, 18, 26\)/,
    ],
    ['unknown metric', { metric: 'time' as 'cost' }, /metric must be 'cost' or 'compliance'/],
    ['negative maxCost', { maxCost: -1 }, /maxCost must be ≥ 0/],
    ['NaN maxCost', { maxCost: Number.NaN }, /maxCost must be ≥ 0/],
  ];
  for (const [name, extra, message] of cases) {
    it(name, () => {
      const run = () => costAllocationCpu(problem(extra));
      expect(run).toThrow(CostGridError);
      expect(run).toThrow(message);
    });
  }

  it('a cost beyond the f32 range of the result is an error, not Infinity', () => {
    const values = new Float32Array(12).fill(3e38);
    expect(() => costAllocationCpu(problem({ values }))).toThrow(/exceeds the f32 range/);
  });

  it('a valid problem with a barrier elsewhere runs', () => {
    expect(costAllocationCpu(problem(withValue(5, Number.NaN))).labels[5]).toBe(-1);
  });
});
