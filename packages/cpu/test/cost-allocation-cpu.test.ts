import { type CostConnectivity, type CostMetric, neighbourSteps } from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { costAllocationCpu } from '../src/index.js';
import {
  bellmanFord,
  costRaster,
  expectMatchesReference,
  makeProblem,
  type RasterKind,
  sourceCells,
} from './cost-reference.js';

const KINDS: RasterKind[] = ['random', 'gradient', 'constant', 'maze', 'zeros'];
const METRICS: CostMetric[] = ['cost', 'compliance'];

describe('costAllocationCpu equals a Bellman-Ford reference in f64', () => {
  const cases2d: [number[], CostConnectivity][] = [
    [[23, 17], 4],
    [[19, 26], 8],
    [[21, 15], 16],
  ];
  const cases3d: [number[], CostConnectivity][] = [
    [[9, 7, 6], 6],
    [[7, 8, 5], 18],
    [[8, 6, 7], 26],
  ];
  let seed = 1;
  for (const [dims, connectivity] of [...cases2d, ...cases3d]) {
    for (const kind of KINDS) {
      for (const metric of METRICS) {
        if (metric === 'compliance' && kind === 'zeros') continue; // compliance needs > 0
        const s = seed++;
        it(`${dims.join('×')} ${connectivity}-connected, ${kind}, ${metric}`, () => {
          const values = costRaster(kind, dims, s);
          for (const count of [1, 3, 40]) {
            const problem = makeProblem(
              values,
              dims,
              sourceCells(values, count, s * 7 + count),
              connectivity,
              metric,
            );
            const ties = expectMatchesReference(problem, costAllocationCpu(problem));
            expectMatchesReference(problem, costAllocationCpu(problem, { heap: 'indexed' }));
            // a constant raster on a lattice makes exact ties: the tie rule is really exercised
            if (kind === 'constant' && count === 40) expect(ties).toBeGreaterThan(0);
          }
        });
      }
    }
  }

  it('non-unit, anisotropic spacing and maxCost', () => {
    const dims = [31, 12];
    const values = costRaster('random', dims, 99);
    for (const connectivity of [4, 8, 16] as const) {
      for (const maxCost of [0, 3.5, 25]) {
        const problem = makeProblem(values, dims, sourceCells(values, 5, 3), connectivity, 'cost', {
          spacing: [2.5, 0.75],
          maxCost,
        });
        const result = costAllocationCpu(problem);
        expectMatchesReference(problem, result);
        for (let i = 0; i < values.length; i++) {
          if (result.labels[i] >= 0) expect(result.cost[i]).toBeLessThanOrEqual(Math.fround(maxCost));
        }
      }
    }
  });

  it('extreme magnitudes: tiny and huge values and spacings, one-cell and one-row grids', () => {
    const rand = mulberry32(77);
    for (const [scale, spacing] of [
      [1e-30, [1e-6, 3e-6]],
      [1e25, [1e6, 2e6]],
      [1, [1e-9, 1e9]],
    ] as [number, number[]][]) {
      const dims = [17, 11];
      const values = Float32Array.from({ length: 17 * 11 }, () => scale * (0.5 + rand()));
      for (const connectivity of [4, 8, 16] as const) {
        const problem = makeProblem(values, dims, sourceCells(values, 6, 78), connectivity, 'cost', {
          spacing,
        });
        expectMatchesReference(problem, costAllocationCpu(problem));
      }
    }
    for (const dims of [
      [1, 1],
      [1, 9],
      [13, 1],
      [1, 1, 7],
    ]) {
      const values = costRaster('random', dims, 79);
      const connectivity = dims.length === 3 ? 26 : 16;
      const problem = makeProblem(values, dims, sourceCells(values, 2, 80), connectivity);
      expectMatchesReference(problem, costAllocationCpu(problem));
    }
  });

  it('1,000 sources on a 60×45 grid, and several sources in one cell give it the lowest id', () => {
    const dims = [60, 45];
    const values = costRaster('random', dims, 5);
    const sources = sourceCells(values, 1000, 6);
    sources[999] = sources[0]; // the same cell as source 0: source 0 keeps it
    sources[500] = sources[700];
    const problem = makeProblem(values, dims, sources, 8);
    const result = costAllocationCpu(problem);
    expectMatchesReference(problem, result);
    expect(result.labels[sources[0]]).toBe(0);
    expect(result.labels[sources[700]]).toBe(500);
  });

  it('100k sources on a 400×300 grid', () => {
    const dims = [400, 300];
    const values = costRaster('random', dims, 11);
    const problem = makeProblem(values, dims, sourceCells(values, 100_000, 12), 8);
    expectMatchesReference(problem, costAllocationCpu(problem));
  });

  it("a barrier one cell thick stops knight's moves too", () => {
    const dims = [9, 9];
    const values = new Float32Array(81).fill(1);
    for (let r = 0; r < 9; r++) values[r * 9 + 4] = Number.NaN; // a wall at col 4
    const result = costAllocationCpu(makeProblem(values, dims, new Int32Array([0]), 16));
    for (let i = 0; i < 81; i++) expect(result.labels[i] === 0).toBe(i % 9 < 4);
  });

  it('no sources: everything unreached; a walled-off region stays −1/Infinity', () => {
    const dims = [12, 9];
    const values = costRaster('constant', dims, 1);
    let result = costAllocationCpu(makeProblem(values, dims, new Int32Array(0), 8));
    expect(result.labels.every((l) => l === -1)).toBe(true);
    expect(result.cost.every((c) => c === Infinity)).toBe(true);
    for (let r = 0; r < 9; r++) values[r * 12 + 5] = Number.NaN; // a full wall at col 5
    result = costAllocationCpu(makeProblem(values, dims, new Int32Array([0]), 8));
    for (let i = 0; i < values.length; i++) {
      const col = i % 12;
      expect(result.labels[i] === 0).toBe(col < 5);
      expect(Number.isFinite(result.cost[i])).toBe(col < 5);
      expect(Number.isNaN(result.cost[i])).toBe(false);
    }
  });
});

describe('backlinks', () => {
  for (const [dims, connectivity] of [
    [[17, 13], 4],
    [[17, 13], 8],
    [[17, 13], 16],
    [[7, 6, 5], 6],
    [[7, 6, 5], 18],
    [[7, 6, 5], 26],
  ] as [number[], CostConnectivity][]) {
    it(`lead every cell to its source, step costs summing to its cost (${connectivity})`, () => {
      const values = costRaster('maze', dims, connectivity);
      const problem = makeProblem(
        values,
        dims,
        sourceCells(values, 4, connectivity + 1),
        connectivity,
        'cost',
        {
          spacing: dims.map((_, a) => 1 + 0.5 * a),
        },
      );
      const result = costAllocationCpu(problem, {
        backlink: true,
        heap: connectivity === 8 || connectivity === 18 ? 'indexed' : 'lazy',
      });
      const ref = bellmanFord(problem);
      const steps = neighbourSteps(connectivity);
      const [w, h] = dims;
      for (let cell = 0; cell < values.length; cell++) {
        const link = result.backlink![cell];
        if (result.labels[cell] < 0) {
          expect(link).toBe(255);
          continue;
        }
        const path = [cell];
        for (let at = cell; result.backlink![at] !== 255; ) {
          const [dx, dy, dz] = steps[result.backlink![at]];
          at -= (dz * h + dy) * w + dx;
          path.push(at);
          expect(path.length).toBeLessThanOrEqual(values.length);
        }
        const source = path[path.length - 1];
        expect(source).toBe(problem.sources[result.labels[cell]]);
        // sum from the source forwards, in f64, as the accumulation did
        let sum = 0;
        for (let k = path.length - 1; k > 0; k--) {
          const a = path[k];
          const b = path[k - 1];
          const ax = a % w;
          const bx = b % w;
          const ay = Math.floor(a / w) % h;
          const by = Math.floor(b / w) % h;
          const az = Math.floor(a / (w * h));
          const bz = Math.floor(b / (w * h));
          const x = (bx - ax) * problem.spacing[0];
          const y = (by - ay) * problem.spacing[1];
          const z = (bz - az) * (problem.spacing[2] ?? 0);
          expect(Math.abs(bx - ax) + Math.abs(by - ay) + Math.abs(bz - az)).toBeGreaterThan(0);
          const len = Math.sqrt(x * x + y * y + z * z);
          if (Math.abs(bx - ax) + Math.abs(by - ay) === 3) {
            // a knight's move: also the two cells it crosses, at 3/8 and 5/8 of the way
            const [p, q] = [3 / 8, 5 / 8].map(
              (t) => (ay + Math.round((by - ay) * t)) * w + ax + Math.round((bx - ax) * t),
            );
            expect(Number.isNaN(values[p]) || Number.isNaN(values[q])).toBe(false);
            sum += (len * (values[a] + values[b] + (values[p] + values[q]))) / 4;
          } else sum += (len * (values[a] + values[b])) / 2;
        }
        expect(sum).toBe(ref.cost[cell]);
      }
    });
  }
});

describe('progress', () => {
  it('reports increasing fractions ending at 1', () => {
    const dims = [300, 300];
    const values = costRaster('random', dims, 2);
    const seen: number[] = [];
    costAllocationCpu(makeProblem(values, dims, new Int32Array([0]), 8), { onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[seen.length - 1]).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] - 1e-12);
  });
});
