import { type CostGridProblem, neighbourSteps } from '@geoframe/core';
import type { CostSetup } from './cost-setup.js';
import { haloOf, tileShape } from './cost-wgsl.js';

/**
 * The ordered cost pass (delta-stepping at tile grain; adr/0018). In the plain pass every listed
 * tile runs each round, so a tile first reached along a path with few tiles but a high cost runs
 * again each time a cheaper path arrives, and so do the tiles downstream of it. Ordered, each
 * tile carries a key, the least cost among the changed cells a neighbour delivered to it since it
 * last ran (an `atomicMin` on the cost's f32 bits), and a round runs only the listed tiles whose
 * key is at most the round's threshold: the least key listed + Δ. The others stay listed, keys
 * kept, for a later round. The fixed point is the same (any schedule of a monotone operator that
 * keeps running every tile whose halo changed reaches it, adr/0018), and the least-key tile always
 * runs, so the pass ends; Δ only trades rounds for revisits (Δ = +∞ is the plain pass).
 */

/** Cells sampled from the values to estimate the typical step cost. */
const SAMPLES = 4096;

/**
 * Δ of the ordered cost pass as f32 bits: `factor` × the mean of a sample of the per-unit costs
 * (v, or 1/v for 'compliance'; barriers skipped) × the least spacing — `factor` steps of a typical
 * cell. +∞ (the plain pass) when `factor` is +∞ or nothing could be sampled.
 */
export function orderDelta(problem: CostGridProblem, factor: number): number {
  const bits = new Uint32Array(1);
  const f32 = new Float32Array(bits.buffer);
  f32[0] = Number.POSITIVE_INFINITY;
  if (!(factor < Number.POSITIVE_INFINITY)) return bits[0];
  const { values } = problem;
  const stride = Math.max(1, Math.floor(values.length / SAMPLES));
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i += stride) {
    const v = values[i];
    if (!(v >= 0) || !Number.isFinite(v)) continue;
    const u = problem.metric === 'compliance' ? 1 / v : v;
    if (!Number.isFinite(u)) continue;
    sum += u;
    n++;
  }
  if (n === 0 || !(sum > 0)) return bits[0];
  f32[0] = factor * (sum / n) * Math.min(...problem.spacing);
  return bits[0];
}

/**
 * The cost pass's first list: the tiles whose box (tile and halo) holds a source's cell, in
 * order. Every other tile starts unreached with an unreached halo and has nothing to do until a
 * neighbour changes a cell it reads, which lists it.
 */
export function seededTiles(setup: CostSetup): Uint32Array {
  const [sx, sy] = setup.size;
  const [tx, ty, tz] = setup.tiles;
  const r = haloOf(neighbourSteps(setup.connectivity));
  const tile = tileShape(setup.dims);
  const on = new Uint8Array(setup.tiles[3]);
  const range = (c: number, axis: number, radius: number, count: number): [number, number] => [
    Math.max(0, Math.floor((c - radius) / tile[axis])),
    Math.min(count - 1, Math.floor((c + radius) / tile[axis])),
  ];
  for (const cell of setup.sources) {
    const x = cell % sx;
    const y = Math.floor(cell / sx) % sy;
    const z = Math.floor(cell / (sx * sy));
    const [x0, x1] = range(x, 0, r, tx);
    const [y0, y1] = range(y, 1, r, ty);
    const [z0, z1] = range(z, 2, setup.dims === 3 ? r : 0, tz);
    for (let k = z0; k <= z1; k++)
      for (let j = y0; j <= y1; j++) for (let i = x0; i <= x1; i++) on[(k * ty + j) * tx + i] = 1;
  }
  let count = 0;
  for (let t = 0; t < on.length; t++) count += on[t];
  const list = new Uint32Array(count);
  let at = 0;
  for (let t = 0; t < on.length; t++) if (on[t]) list[at++] = t;
  return list;
}
