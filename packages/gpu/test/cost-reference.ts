import {
  type CostAllocation,
  type CostGridProblem,
  crossedCells,
  neighbourSteps,
  stepLength,
} from '@geoframe/core';
import { expect } from 'vitest';

/** f64 multi-source Dijkstra with lexicographic keys (cost, source id); hop counts along its tree. */
export interface ReferenceAllocation {
  cost: Float64Array;
  labels: Int32Array;
  hops: Int32Array;
}

/** Per cell the f64 cost per unit length, NaN at barriers. */
export function unitCosts(problem: CostGridProblem): Float64Array {
  return Float64Array.from(problem.values, (v) => (problem.metric === 'cost' ? v : 1 / v));
}

function sizeOf(problem: CostGridProblem): [number, number, number] {
  return [problem.dims[0], problem.dims[1], problem.dims[2] ?? 1];
}

/** A binary heap of (cost, label, cell) keyed lexicographically on (cost, label). */
class Heap {
  cost: number[] = [];
  label: number[] = [];
  cell: number[] = [];
  less(i: number, j: number): boolean {
    return this.cost[i] < this.cost[j] || (this.cost[i] === this.cost[j] && this.label[i] < this.label[j]);
  }
  swap(i: number, j: number): void {
    for (const a of [this.cost, this.label, this.cell]) [a[i], a[j]] = [a[j], a[i]];
  }
  push(c: number, l: number, v: number): void {
    this.cost.push(c);
    this.label.push(l);
    this.cell.push(v);
    let i = this.cost.length - 1;
    while (i > 0 && this.less(i, (i - 1) >> 1)) {
      this.swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
  }
  pop(): [number, number, number] {
    const top: [number, number, number] = [this.cost[0], this.label[0], this.cell[0]];
    const last = this.cost.length - 1;
    this.swap(0, last);
    this.cost.pop();
    this.label.pop();
    this.cell.pop();
    let i = 0;
    for (;;) {
      const a = 2 * i + 1;
      const b = a + 1;
      let m = i;
      if (a < last && this.less(a, m)) m = a;
      if (b < last && this.less(b, m)) m = b;
      if (m === i) return top;
      this.swap(i, m);
      i = m;
    }
  }
  get size(): number {
    return this.cost.length;
  }
}

/**
 * The f64 cost of step `k` from cell `from` (at x, y, z) to `to`: `len · (u[a] + u[b]) / 2`, or for
 * a knight's move `len · ((u[a] + u[b]) + (u[c] + u[d])) / 4` with c, d the crossed cells; NaN
 * when any of them is a barrier.
 */
function stepWeight(
  problem: CostGridProblem,
  unit: Float64Array,
  from: number,
  to: number,
  k: number,
): number {
  const steps = neighbourSteps(problem.connectivity);
  const len = stepLength(steps[k], problem.spacing);
  const cross = crossedCells(steps[k]);
  if (!cross) return (len * (unit[from] + unit[to])) / 2;
  const w = problem.dims[0];
  const [c, d] = cross.map(([dx, dy]) => unit[from + dx + dy * w]);
  return (len * (unit[from] + unit[to] + (c + d))) / 4;
}

/** The reference: Dijkstra in f64 over the contract's steps and step rule. */
export function referenceAllocation(problem: CostGridProblem): ReferenceAllocation {
  const size = sizeOf(problem);
  const cells = size[0] * size[1] * size[2];
  const unit = unitCosts(problem);
  const steps = neighbourSteps(problem.connectivity);
  const maxCost = problem.maxCost ?? Number.POSITIVE_INFINITY;
  const cost = new Float64Array(cells).fill(Number.POSITIVE_INFINITY);
  const labels = new Int32Array(cells).fill(-1);
  const hops = new Int32Array(cells).fill(-1);
  const done = new Uint8Array(cells);
  const heap = new Heap();
  problem.sources.forEach((cell, id) => {
    if (Number.isNaN(unit[cell])) return;
    if (cost[cell] > 0 || labels[cell] > id) {
      cost[cell] = 0;
      labels[cell] = id;
      hops[cell] = 0;
      heap.push(0, id, cell);
    }
  });
  while (heap.size > 0) {
    const [c, l, v] = heap.pop();
    if (done[v] || c !== cost[v] || l !== labels[v]) continue;
    done[v] = 1;
    const x = v % size[0];
    const y = Math.floor(v / size[0]) % size[1];
    const z = Math.floor(v / (size[0] * size[1]));
    steps.forEach(([dx, dy, dz], k) => {
      const [qx, qy, qz] = [x + dx, y + dy, z + dz];
      if (qx < 0 || qy < 0 || qz < 0 || qx >= size[0] || qy >= size[1] || qz >= size[2]) return;
      const u = (qz * size[1] + qy) * size[0] + qx;
      if (done[u] || Number.isNaN(unit[u])) return;
      const nc = c + stepWeight(problem, unit, v, u, k);
      if (Number.isNaN(nc) || nc > maxCost) return;
      if (nc < cost[u] || (nc === cost[u] && l < labels[u])) {
        cost[u] = nc;
        labels[u] = l;
        hops[u] = hops[v] + 1;
        heap.push(nc, l, u);
      }
    });
  }
  return { cost, labels, hops };
}

/** The unit roundoff of f32's faithful arithmetic: one ulp relative. */
const EPS = 2 ** -23;

/**
 * The stated bound (adr/0018): a cost accumulated over h steps in f32 is within (h + 6)·2⁻²³ of
 * the f64 cost relatively; comparing two optimal paths, h is the longer one's step count.
 */
export function costBound(c: number, hops: number): number {
  return (hops + 6) * EPS * c * 1.0001;
}

/** What {@link checkAllocation} found. */
export interface AllocationReport {
  reached: number;
  /** Cells reached by one side only, their cost within the bound of maxCost. */
  boundary: number;
  /** Cells whose label differs from the reference: each a near-tie within the bound. */
  nearTies: number;
  maxRelativeError: number;
}

/**
 * Checks `gpu` (computed with backlinks) against the f64 reference: reached cells equal; every
 * backlink chain steps from tight same-labelled predecessors to the label's source; the chain's
 * f64 cost is within the bound of the reference cost (so the label is the cheapest source or a
 * near-tie, counted), and the f32 cost within the bound of both.
 */
export function checkAllocation(problem: CostGridProblem, gpu: CostAllocation): AllocationReport {
  const ref = referenceAllocation(problem);
  const size = sizeOf(problem);
  const cells = size[0] * size[1] * size[2];
  const unit = unitCosts(problem);
  const steps = neighbourSteps(problem.connectivity);
  const backlink = gpu.backlink!;
  expect(backlink).toBeDefined();
  let reached = 0;
  let nearTies = 0;
  let boundary = 0;
  let maxRelativeError = 0;
  const maxCost = problem.maxCost ?? Number.POSITIVE_INFINITY;
  for (let v = 0; v < cells; v++) {
    const refReached = ref.labels[v] >= 0;
    if (gpu.labels[v] >= 0 !== refReached) {
      // only at the maxCost boundary, within the bound
      const c = refReached ? ref.cost[v] : gpu.cost[v];
      expect(Math.abs(c - maxCost), `cell ${v} reached ${!refReached} (cost ${c})`).toBeLessThanOrEqual(
        costBound(maxCost, cells),
      );
      boundary++;
      continue;
    }
    expect(Number.isNaN(gpu.cost[v]), `cell ${v} cost is NaN`).toBe(false);
    if (!refReached) {
      expect(gpu.cost[v]).toBe(Number.POSITIVE_INFINITY);
      expect(backlink[v]).toBe(255);
      continue;
    }
    reached++;
    // walk the backlinks in f64
    let pathCost = 0;
    let hops = 0;
    let u = v;
    while (backlink[u] !== 255) {
      const [dx, dy, dz] = steps[backlink[u]];
      const p = u - (dx + dy * size[0] + dz * size[0] * size[1]);
      expect(gpu.labels[p], `cell ${u}: backlink to a cell of another source`).toBe(gpu.labels[v]);
      const w = stepWeight(problem, unit, p, u, backlink[u]);
      expect(Number.isNaN(w), `cell ${u}: backlink through a barrier`).toBe(false);
      pathCost += w;
      u = p;
      hops++;
      expect(hops, `cell ${v}: backlinks cycle`).toBeLessThan(cells);
    }
    expect(problem.sources[gpu.labels[v]], `cell ${v}: backlinks end at the label's source`).toBe(u);
    const top = Math.max(pathCost, ref.cost[v]);
    const pathTol = costBound(top, hops + ref.hops[v] + 6);
    expect(
      Math.abs(pathCost - ref.cost[v]),
      `cell ${v}: path cost ${pathCost} vs ${ref.cost[v]}`,
    ).toBeLessThanOrEqual(pathTol);
    const tol = costBound(top, Math.max(hops, ref.hops[v]));
    const err = Math.abs(gpu.cost[v] - ref.cost[v]);
    expect(err, `cell ${v}: cost ${gpu.cost[v]} vs ${ref.cost[v]}`).toBeLessThanOrEqual(tol);
    if (ref.cost[v] > 0) maxRelativeError = Math.max(maxRelativeError, err / ref.cost[v]);
    if (gpu.labels[v] !== ref.labels[v]) nearTies++;
  }
  return { reached, boundary, nearTies, maxRelativeError };
}
