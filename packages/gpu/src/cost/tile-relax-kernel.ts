import { type CostConnectivity, neighbourSteps } from '@geoframe/core';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import {
  COST_PARAMS,
  COST_WORKGROUP,
  crossOffsets,
  MAX_BATCH,
  predOffset,
  TAIL,
  type TileGeometry,
  tileGeometry,
} from './cost-wgsl.js';
import { maskBody, type RelaxPhase, relaxBody } from './relax-bodies.js';
import { MARK_DECLARATIONS, MARK_RESET, type TileMarks, tileMarks } from './tile-marks.js';
import { PICK_DECLARATIONS, pickEnd, pickTile, type TilePicks } from './tile-pick.js';

export type { RelaxPhase } from './relax-bodies.js';

/** Constants of {@link TILE_RELAX_KERNEL}. */
export interface TileRelaxConstants {
  [key: string]: number | string;
  connectivity: CostConnectivity;
  phase: RelaxPhase;
  /**
   * 1: labels ride along the cost pass (lexicographic (cost, label) offers), and the label pass
   * starts from them, evaluating l(v) afresh each iteration and reporting flat tight steps (the
   * only case where its fixed point is not unique); 0: the label pass descends from "none".
   */
  carry: number;
  /**
   * 1 (cost pass only): tiles run in order of their keys, the least cost a neighbour's change
   * delivered to them; a listed tile whose key is above the round's threshold waits (cost-order.ts).
   */
  ordered: number;
  /** 1: the neighbouring tiles are listed by 27 threads at once, 0: by thread 0 (tile-marks.ts). */
  marks: number;
  /** 1: this round's entries are taken by one thread each, 0: by thread 0 in turn (tile-pick.ts). */
  picks: number;
}

/** Names of a phase's working array, in global and in workgroup memory. */
function workOf(phase: RelaxPhase): { work: string; shared: string } {
  return {
    work: { cost: 'dist', label: 'labels', hops: 'hops' }[phase],
    shared: { cost: 'sd', label: 'sl', hops: 'sh' }[phase],
  };
}

/** Whether a pass reads and writes labels: the label pass, and the cost pass carrying them. */
function labelsWritten(phase: RelaxPhase, carry: boolean): boolean {
  return phase === 'label' || (phase === 'cost' && carry);
}

/** The bindings, constants and workgroup memory of a phase. */
function declarations(
  phase: RelaxPhase,
  carry: boolean,
  ordered: boolean,
  geo: TileGeometry,
  marks: TileMarks,
): string {
  const { work } = workOf(phase);
  const written = labelsWritten(phase, carry);
  // only the pass's own array is atomic: labels riding along the cost pass are plain words (a
  // racy read there may see anything; the label pass repairs every label from any start, and
  // atomic loads cost the cost pass about half its time on an H200)
  const atomicOr = (name: string) => (work === name ? 'array<atomic<u32>>' : 'array<u32>');
  return /* wgsl */ `
${linkWgsl(COST_PARAMS)}
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, ${phase === 'cost' ? 'read_write' : 'read'}> dist: ${atomicOr('dist')};
${phase !== 'cost' || carry ? `@group(0) @binding(3) var<storage, ${written ? 'read_write' : 'read'}> labels: ${atomicOr('labels')};` : ''}
${phase === 'hops' ? '@group(0) @binding(4) var<storage, read_write> hops: array<atomic<u32>>;' : ''}
${phase === 'hops' ? '@group(0) @binding(5) var<storage, read> sources: array<u32>;' : ''}
@group(0) @binding(6) var<storage, read_write> flags: array<atomic<u32>>;
// this round's list (read), the next round's (filled) and the one after (emptied): cost-wgsl.ts
@group(0) @binding(10) var<storage, read_write> list_a: array<atomic<u32>>;
@group(0) @binding(11) var<storage, read_write> list_b: array<atomic<u32>>;
@group(0) @binding(12) var<storage, read_write> list_c: array<atomic<u32>>;
${ordered ? '@group(0) @binding(9) var<storage, read_write> keys: array<atomic<u32>>;\nvar<workgroup> least: atomic<u32>;' : ''}

const TX = ${geo.tile[0]}u;
const TY = ${geo.tile[1]}u;
const TZ = ${geo.tile[2]}u;
const SX = ${geo.box[0]}u;
const SY = ${geo.box[1]}u;
const SHARED = ${geo.box[0] * geo.box[1] * geo.box[2]}u;
const MAX_BATCH = ${MAX_BATCH}u;
const END = 0xffffffffu;
var<workgroup> sv: array<f32, SHARED>;
var<workgroup> sd: array<u32, SHARED>;
${phase !== 'cost' || carry ? 'var<workgroup> sl: array<u32, SHARED>;' : ''}
${phase === 'hops' ? 'var<workgroup> sh: array<u32, SHARED>;' : ''}
var<workgroup> tile_on: u32;
var<workgroup> go: u32;
var<workgroup> flag: atomic<u32>;
var<workgroup> dirs: atomic<u32>;
${marks === 'parallel' ? MARK_DECLARATIONS : ''}

// Which neighbouring tiles read the interior cell at lp in their halo: bit (dz+1)·9 + (dy+1)·3 +
// (dx+1) for the tile (dx, dy, dz) away (13: this tile). Per axis, the tile below reads the
// first R cells, the one above the last R, the same-axis tile all.
fn axis_dirs(l: u32, t: u32, r: u32) -> u32 {
  return 2u | select(0u, 1u, l < r) | select(0u, 4u, l + r >= t);
}
fn halo_dirs(lp: vec3u) -> u32 {
  let bx = axis_dirs(lp.x, TX, ${geo.r}u);
  let by = axis_dirs(lp.y, TY, ${geo.r}u);
  let bz = axis_dirs(lp.z, TZ, ${geo.rz}u);
  var m = 0u;
  for (var z = 0u; z < 3u; z++) {
    for (var y = 0u; y < 3u; y++) {
      for (var x = 0u; x < 3u; x++) {
        if (((bz >> z) & (by >> y) & (bx >> x) & 1u) != 0u) {
          m |= 1u << (z * 9u + y * 3u + x);
        }
      }
    }
  }
  return m;
}

// Lists tile t for the next round (the first to list it appends it) and lowers the least key
// delivered to that list.
fn list_next(t: u32, key: u32) {
  let tiles = params.tiles.w;
  if (atomicExchange(&list_b[t], 1u) == 0u) {
    let slot = atomicAdd(&list_b[2u * tiles], 1u);
    atomicStore(&list_b[tiles + slot], t);
  }
  atomicMin(&list_b[2u * tiles + 1u], key);
}

`;
}

/** Loads the tile and its halo into workgroup memory (outside the grid: barriers). */
function loadTile(phase: RelaxPhase, carry: boolean, geo: TileGeometry): string {
  const { work } = workOf(phase);
  const load = (name: string) => (work === name ? `atomicLoad(&${name}[g])` : `${name}[g]`);
  const labels = phase !== 'cost' || carry;
  return /* wgsl */ `
  let size = vec3i(params.size.xyz);
  let origin = vec3i(wg * vec3u(TX, TY, TZ)) - vec3i(${geo.r}, ${geo.r}, ${geo.rz});
  for (var i = li; i < SHARED; i += ${COST_WORKGROUP}u) {
    let gp = origin + vec3i(i32(i % SX), i32((i / SX) % SY), i32(i / (SX * SY)));
    var val = -1.0;
    var d = INF;
    var l = NONE;
    var h = INF;
    if (all(gp >= vec3i(0)) && all(gp < size)) {
      let g = u32((gp.z * size.y + gp.y) * size.x + gp.x);
      val = values[g];
      d = ${load('dist')};
      ${labels ? `l = ${load('labels')};` : ''}
      ${phase === 'hops' ? `h = ${load('hops')};` : ''}
    }
    sv[i] = val;
    sd[i] = d;
    ${labels ? 'sl[i] = l;' : '_ = l;'}
    ${phase === 'hops' ? 'sh[i] = h;' : '_ = h;'}
  }
  workgroupBarrier();
`;
}

/**
 * Writes back what changed and lists for the next round the neighbouring tiles that read a
 * changed cell in their halo (only cells within the halo's width of a side are read there: a
 * change deeper inside wakes nobody), and this tile itself when it stopped before its local fixed
 * point (tile-marks.ts). For the cost pass "changed" means the cost: a label riding along wakes
 * nobody. Counts the visit and its local iterations.
 */
function writeAndMark(
  phase: RelaxPhase,
  carry: boolean,
  ordered: boolean,
  dims: 2 | 3,
  marks: TileMarks,
): string {
  const { work } = workOf(phase);
  const ride =
    phase === 'cost' && carry
      ? `if (live && ownl != startl) {
    labels[g] = ownl;
  }`
      : '';
  return /* wgsl */ `
  ${ride}
  if (live && own != start) {
    atomicStore(&${work}[g], own);
    atomicOr(&dirs, halo_dirs(lp));
    ${ordered ? 'atomicMin(&least, own);' : ''}
  }
  workgroupBarrier();
${tileMarks(marks, ordered, dims)}
`;
}

/** The cell's start and, for the label and hops passes, its tight-predecessor mask. */
function cellStart(
  phase: RelaxPhase,
  carry: boolean,
  offsets: number[],
  cross: ([number, number] | null)[],
): string {
  if (phase === 'cost') {
    return carry
      ? `let live = inside && v >= 0.0;
  let startl = sl[s];
  var ownl = startl;`
      : 'let live = inside && v >= 0.0;';
  }
  const fresh = phase === 'label' && carry;
  return `let dv = sd[s];
  let live = inside && v >= 0.0 && dv != INF;
  var mask = 0u;
  ${fresh ? 'var flat = false;' : ''}
  if (live) {
    ${maskBody(phase, offsets, cross, fresh)}
  }
  ${
    fresh
      ? `if (flat) {
    atomicStore(&flags[${TAIL.flat}u], 1u);
  }`
      : ''
  }`;
}

/**
 * One local iteration's start and update. The cost pass takes the lexicographic least (cost,
 * label) offer; the label pass starting from carried labels evaluates l(v) afresh (its start
 * may lie below the answer, so the update may raise a label), a source's cell (cost 0, no tight
 * predecessor unless a flat step, reported) keeping its own; otherwise values only fall.
 */
function iterate(phase: RelaxPhase, carry: boolean, body: string, shared: string): string {
  const fresh = phase === 'label' && carry;
  const init = fresh ? 'var best = select(NONE, own, dv == 0u);' : 'var best = own;';
  const ride = phase === 'cost' && carry;
  return `${init}
    ${ride ? 'var bestl = ownl;\n    var bu = s;' : ''}
    if (live) {
    ${body}
    ${ride ? 'if (best != own) { bestl = sl[bu]; }' : ''}
    }
    workgroupBarrier();
    ${
      ride
        ? `if (bestl != ownl) {
      ownl = bestl;
      sl[s] = bestl;
    }`
        : ''
    }
    if (best != own) {
      own = best;
      ${shared}[s] = best;
      atomicStore(&flag, 1u);
    }`;
}

/**
 * One round over this round's list of active tiles (a fixed number of workgroups, each taking
 * entries in turn; the lists' and `flags`' layout in cost-wgsl.ts): the tile and a halo are loaded into workgroup memory, the
 * tile's cells are relaxed (Jacobi, all cells at once between barriers) until nothing changes or
 * `misc.w` iterations are done (a uniform, not a constant, so that compilers do not unroll the
 * loop), changed cells are written back, and a tile that changed marks its neighbouring tiles
 * (and itself, when it stopped before its local fixed point) active for the next round, the
 * first marker of each appending it to the next round's list. Tiles read neighbours' cells while
 * those may be written: in the monotone passes every value only decreases towards the same
 * fixed point, so any mix of old and new values is an upper bound and the iteration converges to
 * that fixed point whatever the order; the label pass from carried labels converges to the
 * unique fixed point of an acyclic tight graph (adr/0018).
 */
export const TILE_RELAX_KERNEL = defineKernel({
  name: 'cost/tile-relax',
  bindings: {
    values: 1,
    dist: 2,
    labels: { binding: 3, optional: true },
    hops: { binding: 4, optional: true },
    sources: { binding: 5, optional: true },
    flags: 6,
    keys: { binding: 9, optional: true },
    list_a: 10,
    list_b: 11,
    list_c: 12,
  },
  source: ({ connectivity, phase, carry, ordered, marks, picks }: TileRelaxConstants) => {
    const carried = carry === 1;
    const order = ordered === 1 && phase === 'cost';
    const marking: TileMarks = marks === 1 ? 'parallel' : 'serial';
    const picking: TilePicks = picks === 1 ? 'parallel' : 'serial';
    const reset = [
      'atomicStore(&dirs, 0u);',
      order ? 'atomicStore(&least, INF);' : '',
      marking === 'parallel' ? MARK_RESET : '',
    ].join('\n    ');
    const steps = neighbourSteps(connectivity);
    const dims = steps.some((s) => s[2] !== 0) ? 3 : 2;
    const geo = tileGeometry(steps);
    const offsets = steps.map((s) => predOffset(s, geo.box[0], geo.box[1]));
    const cross = crossOffsets(steps, geo.box[0], geo.box[1]);
    const { shared } = workOf(phase);
    const body = relaxBody(phase, carried, offsets, cross);
    return /* wgsl */ `
${declarations(phase, carried, order, geo, marking)}
${picking === 'parallel' ? PICK_DECLARATIONS : ''}
@compute @workgroup_size(${COST_WORKGROUP})
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nw: vec3u,
  @builtin(local_invocation_index) li: u32,
) {
${pickTile(picking, order, reset)}
${loadTile(phase, carried, geo)}
  let lp = vec3u(li % TX, (li / TX) % TY, li / (TX * TY));
  let gp = wg * vec3u(TX, TY, TZ) + lp;
  let inside = all(gp < params.size.xyz);
  let g = (gp.z * params.size.y + gp.y) * params.size.x + gp.x;
  let s = (lp.z + ${geo.rz}u) * SX * SY + (lp.y + ${geo.r}u) * SX + lp.x + ${geo.r}u;
  let v = sv[s];
  let maxc = bitcast<f32>(params.misc.x);
  ${cellStart(phase, carried, offsets, cross)}
  let start = ${shared}[s];
  ${
    phase === 'hops'
      ? `// a label's source cell starts at 0 hops: in workgroup memory too, before any neighbour reads it
  if (live && sl[s] != NONE && sources[sl[s]] == g) {
    sh[s] = 0u;
  }
  workgroupBarrier();`
      : ''
  }
  var own = ${shared}[s];
  var it = 0u;
  var capped = 0u;
  loop {
    ${iterate(phase, carried, body, shared)}
    workgroupBarrier();
    if (li == 0u) {
      go = atomicLoad(&flag);
      atomicStore(&flag, 0u);
    }
    it += 1u;
    if (workgroupUniformLoad(&go) == 0u) {
      break;
    }
    if (it >= params.misc.w) {
      capped = 1u;
      break;
    }
  }
${writeAndMark(phase, carried, order, dims, marking)}
${pickEnd(picking)}
}
`;
  },
});
