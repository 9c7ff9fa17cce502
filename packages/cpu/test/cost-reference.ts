import type { CostAllocation, CostConnectivity, CostGridProblem, CostMetric } from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';
import { expect } from 'vitest';

/**
 * The neighbour offsets of a connectivity, written out here independently of core's
 * `neighbourSteps` (only the set matters to the reference, not the order).
 */
export function referenceOffsets(connectivity: CostConnectivity): number[][] {
  const out: number[][] = [];
  const is3d = connectivity >= 6 && connectivity !== 8 && connectivity !== 16;
  for (let dz = -1; dz <= 1; dz++) {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        if (!is3d && dz !== 0) continue;
        const ax = Math.abs(dx);
        const ay = Math.abs(dy);
        const az = Math.abs(dz);
        const manhattan = ax + ay + az;
        if (manhattan === 0) continue;
        const face = manhattan === 1;
        const edge = ax <= 1 && ay <= 1 && az <= 1 && manhattan === 2;
        const corner = ax === 1 && ay === 1 && az === 1;
        const knight = !is3d && ((ax === 1 && ay === 2) || (ax === 2 && ay === 1));
        const keep =
          connectivity === 4 || connectivity === 6
            ? face
            : connectivity === 8 || connectivity === 18
              ? face || edge
              : connectivity === 26
                ? face || edge || corner
                : face || edge || knight;
        if (keep) out.push([dx, dy, dz]);
      }
    }
  }
  return out;
}

/** What the reference knows per cell: f64 cost and the label by (cost, id) — or (cost, −id). */
export interface ReferenceAllocation {
  cost: Float64Array;
  labels: Int32Array;
}

/**
 * Multi-source shortest paths by plain Bellman-Ford sweeps in f64 (no heap, no ordering), keys
 * (cost, source id) compared lexicographically — or (cost, −id) with `highestWins`, to find the
 * cells where two sources tie exactly. `maxCost` applied afterwards (costs only grow along a path).
 */
export function bellmanFord(problem: CostGridProblem, highestWins = false): ReferenceAllocation {
  const { values, dims, spacing, sources, metric } = problem;
  const [w, h, d = 1] = dims;
  const n = values.length;
  const offs = referenceOffsets(problem.connectivity);
  const len = offs.map(([dx, dy, dz]) => {
    const x = dx * spacing[0];
    const y = dy * spacing[1];
    const z = dz * (spacing[2] ?? 0);
    return Math.sqrt(x * x + y * y + z * z);
  });
  // a knight's move crosses the cells at 3/8 and 5/8 of the way between the two centres
  const crossed = offs.map(([dx, dy, dz]) =>
    Math.abs(dx) + Math.abs(dy) === 3
      ? [3 / 8, 5 / 8].map((t) => [Math.round(dx * t), Math.round(dy * t), dz])
      : null,
  );
  const unit = (i: number) => (metric === 'cost' ? values[i] : 1 / values[i]);
  const cost = new Float64Array(n).fill(Infinity);
  const labels = new Int32Array(n).fill(-1);
  const better = (c: number, l: number, b: number) =>
    c < cost[b] || (c === cost[b] && (highestWins ? l > labels[b] : l < labels[b]));
  for (let s = 0; s < sources.length; s++) {
    if (better(0, s, sources[s])) {
      cost[sources[s]] = 0;
      labels[sources[s]] = s;
    }
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (let b = 0; b < n; b++) {
      if (Number.isNaN(values[b])) continue;
      const col = b % w;
      const row = Math.floor(b / w) % h;
      const slice = Math.floor(b / (w * h));
      for (let k = 0; k < offs.length; k++) {
        const [dx, dy, dz] = offs[k];
        const c0 = col - dx;
        const r = row - dy;
        const z = slice - dz;
        if (c0 < 0 || c0 >= w || r < 0 || r >= h || z < 0 || z >= d) continue;
        const a = (z * h + r) * w + c0;
        if (labels[a] < 0 || Number.isNaN(values[a])) continue;
        let next = cost[a] + (len[k] * (unit(a) + unit(b))) / 2;
        const cross = crossed[k];
        if (cross) {
          const [p, q] = cross.map(([x, y]) => (r + y) * w + c0 + x);
          if (Number.isNaN(values[p]) || Number.isNaN(values[q])) continue;
          next = cost[a] + (len[k] * (unit(a) + unit(b) + (unit(p) + unit(q)))) / 4;
        }
        if (better(next, labels[a], b)) {
          cost[b] = next;
          labels[b] = labels[a];
          changed = true;
        }
      }
    }
  }
  const max = problem.maxCost ?? Infinity;
  for (let i = 0; i < n; i++) {
    if (cost[i] > max) {
      cost[i] = Infinity;
      labels[i] = -1;
    }
  }
  return { cost, labels };
}

/** Raster shapes the tests draw values from. */
export type RasterKind = 'random' | 'gradient' | 'constant' | 'maze' | 'zeros';

/** A seeded cost raster of `kind` over `dims`: values > 0 (zeros: some exact 0), NaN barriers in mazes. */
export function costRaster(kind: RasterKind, dims: readonly number[], seed: number): Float32Array {
  const [w, h, d = 1] = dims;
  const rand = mulberry32(seed);
  const values = new Float32Array(w * h * d);
  for (let i = 0; i < values.length; i++) {
    const col = i % w;
    const row = Math.floor(i / w) % h;
    const slice = Math.floor(i / (w * h));
    if (kind === 'random') values[i] = 0.1 + 9.9 * rand();
    else if (kind === 'gradient') values[i] = 1 + col + 0.5 * row + 2 * slice;
    else if (kind === 'constant') values[i] = 3;
    else if (kind === 'zeros') values[i] = rand() < 0.3 ? 0 : 1 + Math.floor(4 * rand());
    else {
      // a maze: walls every 4th column with random gaps, random blocked cells
      const wall = col % 4 === 2 && rand() > 0.15;
      values[i] = wall || rand() < 0.1 ? Number.NaN : 1 + 3 * rand();
    }
  }
  return values;
}

/** `count` seeded source cells, none in a barrier; duplicates allowed (several sources, one cell). */
export function sourceCells(values: Float32Array, count: number, seed: number): Int32Array {
  const rand = mulberry32(seed);
  const out = new Int32Array(count);
  for (let s = 0; s < count; s++) {
    let cell: number;
    do cell = Math.floor(rand() * values.length);
    while (Number.isNaN(values[cell]));
    out[s] = cell;
  }
  return out;
}

/** A problem of the given shape (unit spacing unless given). */
export function makeProblem(
  values: Float32Array,
  dims: number[],
  sources: Int32Array,
  connectivity: CostConnectivity,
  metric: CostMetric = 'cost',
  extra: Partial<CostGridProblem> = {},
): CostGridProblem {
  return { values, dims, spacing: dims.map(() => 1), sources, connectivity, metric, ...extra };
}

/**
 * Asserts `result` equals the Bellman-Ford reference: f32 costs are the f64 reference rounded to
 * f32 (so within half an f32 ulp of the f64 value), labels equal everywhere. Returns the number of
 * exact ties (cells two sources reach at the same f64 cost), which the tie rule decided.
 */
export function expectMatchesReference(problem: CostGridProblem, result: CostAllocation): number {
  const ref = bellmanFord(problem);
  const high = bellmanFord(problem, true);
  let costDiff = 0;
  let labelDiff = 0;
  let ties = 0;
  for (let i = 0; i < ref.cost.length; i++) {
    if (result.cost[i] !== Math.fround(ref.cost[i])) costDiff++;
    if (result.labels[i] !== ref.labels[i]) labelDiff++;
    if (ref.labels[i] !== high.labels[i]) ties++;
  }
  expect({ costDiff, labelDiff }).toEqual({ costDiff: 0, labelDiff: 0 });
  return ties;
}
