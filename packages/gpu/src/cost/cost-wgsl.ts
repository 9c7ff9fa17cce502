import { crossedCells, type NeighbourStep } from '@geoframe/core';
import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';

/** Threads per workgroup of every cost kernel: one interior cell of a tile each. */
export const COST_WORKGROUP = 256;

/** Most rounds recorded between two reads of the `changed` words (an even number). */
export const MAX_BATCH = 64;

/**
 * The words of `flags` (cost-rounds.ts): the `changed` words of the last MAX_BATCH rounds (round
 * r's at r % MAX_BATCH: whether its list held a tile), then `flat` (the label pass found a tight
 * step that does not raise the cost), counters of the phase (tile visits, local iterations,
 * tiles deferred by the ordered cost pass) and the phase's round counter.
 */
export const TAIL = {
  flat: MAX_BATCH,
  visits: MAX_BATCH + 1,
  iterations: MAX_BATCH + 2,
  round: MAX_BATCH + 3,
  deferred: MAX_BATCH + 4,
} as const;
/** Words of `flags`. */
export const TAIL_WORDS = MAX_BATCH + 5;

/**
 * A round's list of tiles (T tiles): per tile whether it is listed ([0, T)), the listed tiles
 * ([T, 2T)), their number (2T) and the least key delivered to them (2T + 1; the ordered cost
 * pass; f32 bits, +∞ when none). Three lists rotate: round r reads list r % 3, fills
 * (r + 1) % 3 and empties (r + 2) % 3, which round r + 1 fills.
 */
export function listWords(tiles: number): number {
  return 2 * tiles + 2;
}

/** Interior tile sizes: 16×16 in 2D, 8×8×4 in 3D (both 256 cells, one per thread). */
export function tileShape(dims: 2 | 3): [number, number, number] {
  return dims === 2 ? [16, 16, 1] : [8, 8, 4];
}

/** Words of {@link COST_PARAMS}: size, tiles, misc, extra, then 28 step lengths. */
export const COST_PARAM_WORDS = 16 + 28;

/**
 * The parameter block of the cost kernels. `size`: grid width, height, depth, cell count.
 * `tiles`: tiles per axis and the tile count. `misc.x`: maxCost as f32 bits (cells whose cost
 * would exceed it stay unreached); `misc.w`: most local iterations per tile visit (the round's
 * parity lives on the device, in `flags`, so one bind group serves every round); `misc.y`: the
 * ordered cost pass's Δ as f32 bits (a tile runs when its key is within Δ of the least key
 * listed; cost-order.ts). `extra.x`: the
 * number of sources. `lens`: the f32 length of each neighbour step.
 */
export const COST_PARAMS: WgslModule = wgslModule(
  'cost/params',
  /* wgsl */ `
struct Params {
  size: vec4u,
  tiles: vec4u,
  misc: vec4u,
  extra: vec4u,
  lens: array<vec4f, 7>,
}
@group(0) @binding(0) var<uniform> params: Params;
const INF = 0x7f800000u;
const NONE = 0xffffffffu;
`,
);

/** The f32 length of step `k` (an index into {@link COST_PARAMS}' `lens`). */
export function lenOf(k: number): string {
  return `params.lens[${k >> 2}][${k & 3}]`;
}

/** The tile geometry of a connectivity: interior tile, halo (in x/y, in z), workgroup-memory box. */
export interface TileGeometry {
  tile: [number, number, number];
  r: number;
  rz: number;
  box: [number, number, number];
}

/** The tile geometry of `steps` (3D when a step moves in z). */
export function tileGeometry(steps: readonly NeighbourStep[]): TileGeometry {
  const dims = steps.some((s) => s[2] !== 0) ? 3 : 2;
  const tile = tileShape(dims);
  const r = haloOf(steps);
  const rz = dims === 3 ? r : 0;
  return { tile, r, rz, box: [tile[0] + 2 * r, tile[1] + 2 * r, tile[2] + 2 * rz] };
}

/**
 * The accumulated cost of reaching a cell of value `v` from a neighbour of value `cu` and cost
 * bits `du` along step `k`: `du + len · (cu + v) / 2` in f32, or for a knight's move crossing
 * cells of values `cross` (core's `crossedCells`), `du + len · ((cu + v) + (c + d)) / 4`. Every
 * kernel computes a step with this one expression, so a step that is tight in one pass is tight
 * in the next (the host checks it: a reached cell without a tight predecessor is an error, never
 * a silent wrong label).
 */
export function stepCost(k: number, du: string, cu: string, v: string, cross?: [string, string]): string {
  return cross
    ? `(bitcast<f32>(${du}) + ${lenOf(k)} * (((${cu} + ${v}) + (${cross[0]} + ${cross[1]})) * 0.25))`
    : `(bitcast<f32>(${du}) + ${lenOf(k)} * ((${cu} + ${v}) * 0.5))`;
}

/**
 * For each step, the offsets (on a grid of rows `sx`, slices `sx·sy` cells) from the cell it
 * reaches to the two cells a knight's move crosses, or null: `crossedCells` is relative to the
 * step's start, the predecessor `v − step`.
 */
export function crossOffsets(
  steps: readonly NeighbourStep[],
  sx: number,
  sy: number,
): ([number, number] | null)[] {
  return steps.map((step) => {
    const cross = crossedCells(step);
    if (!cross) return null;
    const at = (c: NeighbourStep) => predOffset(step, sx, sy) + c[0] + c[1] * sx + c[2] * sx * sy;
    return [at(cross[0]), at(cross[1])];
  });
}

/** Offset in cells of the predecessor `v − step` on a grid whose rows are `sx` and slices `sx·sy` cells. */
export function predOffset(step: NeighbourStep, sx: number, sy: number): number {
  return -(step[0] + step[1] * sx + step[2] * sx * sy);
}

/** The halo a connectivity's steps need around a tile: 2 for the knight's moves, else 1. */
export function haloOf(steps: readonly NeighbourStep[]): number {
  return steps.some((s) => Math.abs(s[0]) > 1 || Math.abs(s[1]) > 1) ? 2 : 1;
}
