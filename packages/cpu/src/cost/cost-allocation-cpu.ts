import {
  type CostAllocation,
  CostGridError,
  type CostGridProblem,
  checkCostGridProblem,
  describeCell,
} from '@geoframe/core';
import { CostHeap } from './cost-heap.js';
import { type GridSteps, gridSteps } from './grid-steps.js';
import { KeyHeap } from './key-heap.js';

/** Options of {@link costAllocationCpu}. */
export interface CostAllocationCpuOptions {
  /** Also return `backlink` (the step into each cell from its predecessor). */
  backlink?: boolean;
  /** Called now and then with the fraction (0..1] of open cells settled so far. */
  onProgress?: (fraction: number) => void;
  /**
   * The priority queue: 'lazy' (default; keys stored in the heap, a lowered key pushed again and
   * stale entries skipped; holds about the front, 16 bytes an entry) or 'indexed' (one entry per
   * cell, decrease-key in place; 8 bytes a cell). Same results; bench/cost-cpu.mjs compares them.
   */
  heap?: 'lazy' | 'indexed';
}

const NO_STEP = 255;
const PROGRESS_EVERY = 1 << 16;

/** Per cell, the f64 cost per unit length: the value ('cost') or its inverse ('compliance'). */
function unitCosts(problem: CostGridProblem): Float32Array | Float64Array {
  if (problem.metric === 'cost') return problem.values;
  const unit = new Float64Array(problem.values.length);
  for (let i = 0; i < unit.length; i++) unit[i] = 1 / problem.values[i];
  return unit;
}

/**
 * Cost allocation on the CPU: multi-source Dijkstra over the grid graph of `problem` (see
 * `CostGridProblem`), with a binary heap on typed arrays and f64 accumulation.
 *
 * A step from cell a to its neighbour b costs `len · (u[a] + u[b]) / 2` in f64, with `u` the value
 * ('cost') or its inverse ('compliance') and `len` the step's `stepLength`; a knight's move
 * (16-connectivity) costs `len · ((u[a] + u[b]) + (u[c] + u[d])) / 4` over the two cells c, d it
 * crosses too (`crossedCells`), and a barrier among them blocks it. Keys are compared
 * lexicographically — accumulated cost, then source id — so a cell that two sources reach at the
 * same f64 cost goes to the lower id, and several sources in one cell leave it to the lowest. The
 * f64 cost of a cell is the left-to-right f64 sum of the step costs along its backlink path.
 * Barrier (NaN) cells are never entered; cells beyond `maxCost` stay unreached.
 *
 * @returns labels (−1 unreachable), cost as f32 (Infinity unreachable), and `backlink` on request
 *   (index into `neighbourSteps`, 255 at sources and unreached cells).
 * @throws CostGridError for an invalid problem (see `checkCostGridProblem`), or when an
 *   accumulated cost exceeds the f32 range of the result.
 */
export function costAllocationCpu(
  problem: CostGridProblem,
  options: CostAllocationCpuOptions = {},
): CostAllocation {
  checkCostGridProblem(problem);
  const { values, dims, sources } = problem;
  const n = values.length;
  const maxCost = problem.maxCost ?? Infinity;
  const steps = gridSteps(problem);
  const unit = unitCosts(problem);
  const cost = new Float64Array(n).fill(Infinity);
  const label = new Int32Array(n).fill(-1);
  const backlink = options.backlink ? new Uint8Array(n).fill(NO_STEP) : null;
  const state: SearchState = {
    values,
    dims,
    unit,
    cost,
    label,
    backlink,
    maxCost,
    steps,
    open: 0,
    onProgress: options.onProgress,
  };
  for (let i = 0; i < n; i++) if (!Number.isNaN(values[i])) state.open++;
  search(state, sources, options.heap === 'indexed');
  if (options.onProgress) options.onProgress(1);
  return { labels: label, cost: toFloat32(cost, dims), ...(backlink ? { backlink } : {}) };
}

/** What the searches share: the problem's arrays and the per-cell results they fill in. */
interface SearchState {
  values: Float32Array;
  dims: readonly number[];
  unit: Float32Array | Float64Array;
  cost: Float64Array;
  label: Int32Array;
  backlink: Uint8Array | null;
  maxCost: number;
  steps: GridSteps;
  /** Cells that are not barriers (the denominator of progress). */
  open: number;
  onProgress?: (fraction: number) => void;
}

/**
 * Multi-source Dijkstra with either queue. The indexed heap holds each cell once and lowers its
 * key in place; the key heap holds keys itself, a lowered key is pushed again, and a popped entry
 * whose key is no longer the cell's (or whose cell is settled) is skipped — keys only decrease
 * and are pushed only on a strict improvement, so the entry equal to a cell's key is its last.
 * One loop for both (a branch on the queue that never changes within a run), so the relaxation
 * is written once.
 */
function search(state: SearchState, sources: Int32Array, indexed: boolean): void {
  const { values, dims, unit, cost, label, backlink, maxCost, open, onProgress } = state;
  const n = values.length;
  const w = dims[0];
  const h = dims[1];
  const d = dims[2] ?? 1;
  const settled = new Uint8Array(n);
  const heap = indexed ? new CostHeap(n, cost, label) : null;
  const keys = indexed ? null : new KeyHeap(Math.min(n, 4 * sources.length + 1024));
  for (let s = 0; s < sources.length; s++) {
    const cell = sources[s];
    if (label[cell] >= 0) continue; // an earlier (lower) id holds the cell
    cost[cell] = 0;
    label[cell] = s;
    if (heap) heap.push(cell);
    else keys!.push(0, s, cell);
  }
  let done = 0;
  const { count, dx, dy, dz, offset, length, knight } = state.steps;
  while ((heap ? heap.size : keys!.size) > 0) {
    let a: number;
    if (heap) a = heap.pop();
    else {
      keys!.pop();
      a = keys!.topCell;
      if (settled[a] || keys!.topCost !== cost[a] || keys!.topLabel !== label[a]) continue;
    }
    const ca = cost[a];
    const la = label[a];
    settled[a] = 1;
    if (onProgress && ++done % PROGRESS_EVERY === 0) onProgress(done / open);
    const col = a % w;
    const rest = (a - col) / w;
    const row = rest % h;
    const slice = (rest - row) / h;
    const ua = unit[a];
    for (let k = 0; k < count; k++) {
      const c = col + dx[k];
      const r = row + dy[k];
      const z = slice + dz[k];
      if (c < 0 || c >= w || r < 0 || r >= h || z < 0 || z >= d) continue;
      const b = a + offset[k];
      if (settled[b]) continue;
      const ub = unit[b];
      if (Number.isNaN(ub)) continue;
      const next = knight[k]
        ? knightStep(unit, a, k, state.steps, ca, ua + ub)
        : ca + (length[k] * (ua + ub)) / 2;
      if (!(next <= maxCost)) continue; // also a knight's move blocked by a barrier (NaN)
      const cb = cost[b];
      if (next < cb || (next === cb && la < label[b])) {
        cost[b] = next;
        label[b] = la;
        if (backlink) backlink[b] = k;
        if (!heap) keys!.push(next, la, b);
        else if (heap.has(b)) heap.raise(b);
        else heap.push(b);
      }
    }
  }
}

/**
 * The cost after a knight's move from cell `a` (cost `ca`) by step `k`: `len · ((u[a] + u[b]) +
 * (u[c] + u[d])) / 4` with c, d the crossed cells, `ends` = u[a] + u[b]; NaN (never taken) when
 * a crossed cell is a barrier.
 */
function knightStep(
  unit: Float32Array | Float64Array,
  a: number,
  k: number,
  steps: GridSteps,
  ca: number,
  ends: number,
): number {
  const uc = unit[a + steps.crossC[k]];
  const ud = unit[a + steps.crossD[k]];
  if (Number.isNaN(uc) || Number.isNaN(ud)) return Number.NaN;
  return ca + (steps.length[k] * (ends + (uc + ud))) / 4;
}

/** The f64 costs as f32 (Infinity stays); a finite cost beyond f32's range is an error. */
function toFloat32(cost: Float64Array, dims: readonly number[]): Float32Array {
  const out = new Float32Array(cost.length);
  for (let i = 0; i < cost.length; i++) {
    const c = cost[i];
    const f = Math.fround(c);
    if (f === Infinity && c < Infinity) {
      throw new CostGridError(
        `${describeCell(i, dims)}: accumulated cost ${c} exceeds the f32 range of the result; scale the cost values down`,
      );
    }
    out[i] = f;
  }
  return out;
}
