import { type CostConnectivity, neighbourSteps } from '@geoframe/core';
import type { KernelSpec } from '../runtime/pipeline-cache.js';
import {
  COST_PARAMS,
  COST_WORKGROUP,
  crossOffsets,
  haloOf,
  predOffset,
  stepCost,
  tileShape,
} from './cost-wgsl.js';

/**
 * What a relax pass computes, each a monotone fixed point iterated from above:
 * 1. `'cost'`: d(v) = min(d₀(v), min over neighbours u of d(u) ⊕ w(u, v)), d₀ = 0 at sources.
 * 2. `'label'`: with d fixed, l(v) = min(l₀(v), min over tight u of l(u)) — tight: d(u) ⊕ w(u, v)
 *    equals d(v) bit for bit; l₀ = the lowest source id in v's cell.
 * 3. `'hops'`: with d and l fixed, h(v) = 0 at the cell of source l(v), else min over tight u with
 *    l(u) = l(v) of h(u) + 1 (what makes backlinks acyclic where steps cost nothing).
 */
export type RelaxPhase = 'cost' | 'label' | 'hops';

/** Constants of {@link TILE_RELAX_KERNEL}. */
export interface TileRelaxConstants {
  [key: string]: number | string;
  connectivity: CostConnectivity;
  phase: RelaxPhase;
}

/** The shared-memory index `s + offset`. */
function sharedAt(offset: number): string {
  return `s ${offset < 0 ? '-' : '+'} ${Math.abs(offset)}u`;
}

/** A knight's move's crossed cells' values, loaded (nothing for other steps). */
function crossLoads(cross: [number, number] | null): string {
  return cross ? `let ca = sv[${sharedAt(cross[0])}];\n      let cb = sv[${sharedAt(cross[1])}];` : '';
}

/** A knight's move is open only where neither crossed cell is a barrier. */
function crossOpen(cross: [number, number] | null): string {
  return cross ? ' && ca >= 0.0 && cb >= 0.0' : '';
}

function crossArgs(cross: [number, number] | null): [string, string] | undefined {
  return cross ? ['ca', 'cb'] : undefined;
}

/** The relaxation over the tile's neighbours, unrolled: updates `best` from the shared arrays. */
function relaxBody(phase: RelaxPhase, offsets: number[], cross: ([number, number] | null)[]): string {
  const at = (k: number) => sharedAt(offsets[k]);
  if (phase === 'cost') {
    return offsets
      .map(
        (_, k) => `{
      let u = ${at(k)};
      let cu = sv[u];
      let du = sd[u];
      ${crossLoads(cross[k])}
      if (cu >= 0.0 && du != INF${crossOpen(cross[k])}) {
        let c = ${stepCost(k, 'du', 'cu', 'v', crossArgs(cross[k]))};
        let cb = bitcast<u32>(c);
        if (c <= maxc && cb < best) { best = cb; }
      }
    }`,
      )
      .join('\n    ');
  }
  const take =
    phase === 'label'
      ? (u: string) => `best = min(best, sl[${u}]);`
      : (u: string) => `let hu = sh[${u}]; if (hu != INF) { best = min(best, hu + 1u); }`;
  return offsets.map((_, k) => `if ((mask & ${1 << k}u) != 0u) { ${take(at(k))} }`).join('\n    ');
}

/** The tight-predecessor mask of the interior cell `s` (label and hops passes). */
function maskBody(phase: RelaxPhase, offsets: number[], cross: ([number, number] | null)[]): string {
  const at = (k: number) => sharedAt(offsets[k]);
  const sameLabel = phase === 'hops' ? ' && sl[u] == sl[s]' : '';
  return offsets
    .map(
      (_, k) => `{
      let u = ${at(k)};
      let cu = sv[u];
      let du = sd[u];
      ${crossLoads(cross[k])}
      if (cu >= 0.0 && du != INF${crossOpen(cross[k])}${sameLabel}) {
        if (bitcast<u32>(${stepCost(k, 'du', 'cu', 'v', crossArgs(cross[k]))}) == dv) { mask |= ${1 << k}u; }
      }
    }`,
    )
    .join('\n    ');
}

/** Names of a phase's working array, in global and in workgroup memory. */
function workOf(phase: RelaxPhase): { work: string; shared: string } {
  return {
    work: { cost: 'dist', label: 'labels', hops: 'hops' }[phase],
    shared: { cost: 'sd', label: 'sl', hops: 'sh' }[phase],
  };
}

/** The tile geometry: interior tile, halo (in x/y, in z), workgroup-memory box. */
interface TileGeometry {
  tile: [number, number, number];
  r: number;
  rz: number;
  box: [number, number, number];
}

/** The bindings, constants and workgroup memory of a phase. */
function declarations(phase: RelaxPhase, geo: TileGeometry): string {
  const { work } = workOf(phase);
  const atomicOr = (name: string) => (work === name ? 'array<atomic<u32>>' : 'array<u32>');
  return /* wgsl */ `
${COST_PARAMS}
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, ${phase === 'cost' ? 'read_write' : 'read'}> dist: ${atomicOr('dist')};
${phase !== 'cost' ? `@group(0) @binding(3) var<storage, ${phase === 'label' ? 'read_write' : 'read'}> labels: ${atomicOr('labels')};` : ''}
${phase === 'hops' ? '@group(0) @binding(4) var<storage, read_write> hops: array<atomic<u32>>;' : ''}
${phase === 'hops' ? '@group(0) @binding(5) var<storage, read> sources: array<u32>;' : ''}
@group(0) @binding(6) var<storage, read_write> flags: array<atomic<u32>>;

const TX = ${geo.tile[0]}u;
const TY = ${geo.tile[1]}u;
const TZ = ${geo.tile[2]}u;
const SX = ${geo.box[0]}u;
const SY = ${geo.box[1]}u;
const SHARED = ${geo.box[0] * geo.box[1] * geo.box[2]}u;
var<workgroup> sv: array<f32, SHARED>;
var<workgroup> sd: array<u32, SHARED>;
${phase !== 'cost' ? 'var<workgroup> sl: array<u32, SHARED>;' : ''}
${phase === 'hops' ? 'var<workgroup> sh: array<u32, SHARED>;' : ''}
var<workgroup> tile_on: u32;
var<workgroup> go: u32;
var<workgroup> flag: atomic<u32>;
var<workgroup> dirty: atomic<u32>;

`;
}

/** Thread 0 takes the workgroup's entry of this round's tile list (and clears its flag). */
const PICK_TILE = /* wgsl */ `
  let tiles = params.tiles.w;
  let p = params.misc.y;
  if (li == 0u) {
    // this round's list of active tiles: its workgroup's entry, whose flag is cleared for reuse
    let id = wid.y * nw.x + wid.x;
    var picked = 0u;
    if (id < atomicLoad(&flags[4u * tiles + p])) {
      let t = atomicLoad(&flags[(2u + p) * tiles + id]);
      atomicStore(&flags[p * tiles + t], 0u);
      picked = t + 1u;
    }
    tile_on = picked;
  }
  let picked = workgroupUniformLoad(&tile_on);
  if (picked == 0u) {
    return;
  }
  let t = picked - 1u;
  let wg = vec3u(t % params.tiles.x, (t / params.tiles.x) % params.tiles.y, t / (params.tiles.x * params.tiles.y));
`;

/** Loads the tile and its halo into workgroup memory (outside the grid: barriers). */
function loadTile(phase: RelaxPhase, geo: TileGeometry): string {
  const { work } = workOf(phase);
  const load = (name: string) => (work === name ? `atomicLoad(&${name}[g])` : `${name}[g]`);
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
      ${phase !== 'cost' ? `l = ${load('labels')};` : ''}
      ${phase === 'hops' ? `h = ${load('hops')};` : ''}
    }
    sv[i] = val;
    sd[i] = d;
    ${phase !== 'cost' ? 'sl[i] = l;' : '_ = l;'}
    ${phase === 'hops' ? 'sh[i] = h;' : '_ = h;'}
  }
  workgroupBarrier();
`;
}

/** Writes back what improved and, if anything did, lists the neighbouring tiles for the next round. */
function writeAndMark(phase: RelaxPhase, dims: 2 | 3): string {
  const { work } = workOf(phase);
  const marks =
    dims === 3
      ? 'for (var dz = -1; dz <= 1; dz++) { for (var dy = -1; dy <= 1; dy++) { for (var dx = -1; dx <= 1; dx++) {'
      : 'for (var dz = 0; dz <= 0; dz++) { for (var dy = -1; dy <= 1; dy++) { for (var dx = -1; dx <= 1; dx++) {';
  return /* wgsl */ `
  if (live && own < start) {
    atomicStore(&${work}[g], own);
    atomicStore(&dirty, 1u);
  }
  workgroupBarrier();
  if (li == 0u && atomicLoad(&dirty) != 0u) {
    let q = 1u - p;
    let t = vec3i(wg);
    let tn = vec3i(params.tiles.xyz);
    ${marks}
      let n = t + vec3i(dx, dy, dz);
      let me = dx == 0 && dy == 0 && dz == 0;
      if (all(n >= vec3i(0)) && all(n < tn) && (!me || capped != 0u)) {
        let ni = u32((n.z * tn.y + n.y) * tn.x + n.x);
        // first to mark it: append it to the next round's list
        if (atomicExchange(&flags[q * tiles + ni], 1u) == 0u) {
          let slot = atomicAdd(&flags[4u * tiles + q], 1u);
          atomicStore(&flags[(2u + q) * tiles + slot], ni);
        }
      }
    }}}
  }
`;
}

/**
 * One round over this round's list of active tiles (one workgroup each, dispatched indirectly;
 * `flags` layout in cost-rounds.ts): the tile and a halo are loaded into workgroup memory, the
 * tile's cells are relaxed (Jacobi, all cells at once between barriers) until nothing changes or
 * `misc.w` iterations are done (a uniform, not a constant, so that compilers do not unroll the
 * loop), changed cells are written back, and a tile that changed marks its neighbouring tiles
 * (and itself, when it stopped before its local fixed point) active for the next round, the
 * first marker of each appending it to the next round's list. Tiles read neighbours' cells while
 * those may be written: every value only decreases towards the same least fixed point, so any mix
 * of old and new values is an upper bound and the iteration converges to that fixed point
 * whatever the order.
 */
export const TILE_RELAX_KERNEL: KernelSpec<TileRelaxConstants> = {
  name: 'cost/tile-relax',
  source: ({ connectivity, phase }) => {
    const steps = neighbourSteps(connectivity);
    const dims = steps.some((s) => s[2] !== 0) ? 3 : 2;
    const tile = tileShape(dims);
    const r = haloOf(steps);
    const rz = dims === 3 ? r : 0;
    const geo: TileGeometry = { tile, r, rz, box: [tile[0] + 2 * r, tile[1] + 2 * r, tile[2] + 2 * rz] };
    const offsets = steps.map((s) => predOffset(s, geo.box[0], geo.box[1]));
    const cross = crossOffsets(steps, geo.box[0], geo.box[1]);
    const { shared } = workOf(phase);
    return /* wgsl */ `
${declarations(phase, geo)}
@compute @workgroup_size(${COST_WORKGROUP})
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nw: vec3u,
  @builtin(local_invocation_index) li: u32,
) {
${PICK_TILE}
${loadTile(phase, geo)}
  let lp = vec3u(li % TX, (li / TX) % TY, li / (TX * TY));
  let gp = wg * vec3u(TX, TY, TZ) + lp;
  let inside = all(gp < params.size.xyz);
  let g = (gp.z * params.size.y + gp.y) * params.size.x + gp.x;
  let s = (lp.z + ${geo.rz}u) * SX * SY + (lp.y + ${geo.r}u) * SX + lp.x + ${geo.r}u;
  let v = sv[s];
  let maxc = bitcast<f32>(params.misc.x);
  ${
    phase === 'cost'
      ? 'let live = inside && v >= 0.0;'
      : `let dv = sd[s];
  let live = inside && v >= 0.0 && dv != INF;
  var mask = 0u;
  if (live) {
    ${maskBody(phase, offsets, cross)}
  }`
  }
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
    var best = own;
    if (live) {
    ${relaxBody(phase, offsets, cross)}
    }
    workgroupBarrier();
    if (best < own) {
      own = best;
      ${shared}[s] = best;
      atomicStore(&flag, 1u);
    }
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
${writeAndMark(phase, dims)}
}
`;
  },
};
