import { defineKernel } from '../../runtime/pipeline-cache.js';
import { IGNORE_PUBLISHED_WGSL } from './ignore-published-wgsl.js';

/** Constants of the vectorized chained scan. */
export interface ChainedVec4Constants {
  [key: string]: number | boolean;
  /** Threads per workgroup (a power of two, a multiple of the subgroup size). */
  workgroupSize: number;
  /** vec4<u32> per thread: a tile is `workgroupSize * 4 * vectors` elements. */
  vectors: number;
  /** Input read as 0/1 (non-zero → 1): compaction flags. */
  nonzero: boolean;
  /** The input binding is `array<vec4u>` (its element 0 is 16-byte aligned and whole vec4s fit); else `array<u32>`. */
  vecIn: boolean;
  /** The same for the output binding. */
  vecOut: boolean;
  // Test knob, set only by tests (through the index signature): `ignorePublished: true` makes
  // the look-back never see a predecessor's published state, as if no other workgroup were ever
  // scheduled, so every predecessor is reduced by the fallback.
}

/** Sentinel for "no such lane" in the look-back's subgroupMin searches. */
const BIG = '0xffffffffu';

function loadFn(c: ChainedVec4Constants): string {
  const map = (v: string) => (c.nonzero ? `select(vec4u(0u), vec4u(1u), ${v} != vec4u(0u))` : v);
  if (c.vecIn) {
    return /* wgsl */ `
@group(0) @binding(1) var<storage, read> src: array<vec4u>;
// vec4 q of the range (elements 4q..4q+3); elements at or past count read 0
fn load4(q: u32) -> vec4u {
  let e = q * 4u;
  if (e >= params.count) {
    return vec4u(0u);
  }
  var v = src[params.in_base / 4u + q];
  if (e + 4u > params.count) {
    let k = params.count - e;
    v = select(vec4u(0u), v, vec4u(0u, 1u, 2u, 3u) < vec4u(k));
  }
  return ${map('v')};
}
`;
  }
  return /* wgsl */ `
@group(0) @binding(1) var<storage, read> src: array<u32>;
fn load1(e: u32) -> u32 {
  if (e < params.count) {
    return src[params.in_base + e];
  }
  return 0u;
}
fn load4(q: u32) -> vec4u {
  let e = q * 4u;
  let v = vec4u(load1(e), load1(e + 1u), load1(e + 2u), load1(e + 3u));
  return ${map('v')};
}
`;
}

function storeFn(c: ChainedVec4Constants): string {
  if (c.vecOut) {
    return /* wgsl */ `
@group(0) @binding(2) var<storage, read_write> dst: array<vec4u>;
// whole vec4 stores; the last, partial one component by component (elements past count are not ours)
fn store4(q: u32, v: vec4u) {
  let e = q * 4u;
  let w = params.out_base / 4u + q;
  if (e + 4u <= params.count) {
    dst[w] = v;
  } else if (e < params.count) {
    dst[w].x = v.x;
    if (e + 1u < params.count) {
      dst[w].y = v.y;
    }
    if (e + 2u < params.count) {
      dst[w].z = v.z;
    }
  }
}
`;
  }
  return /* wgsl */ `
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
fn store4(q: u32, v: vec4u) {
  let e = q * 4u;
  for (var k = 0u; k < 4u; k++) {
    if (e + k < params.count) {
      dst[params.out_base + e + k] = v[k];
    }
  }
}
`;
}

/**
 * Single-pass chained scan, vectorized, for devices with subgroups. One workgroup scans a tile of
 * `WG * 4 * VECTORS` elements: each subgroup owns a contiguous chunk and loads it as vec4s, lane
 * `l` taking vec4 `j * subgroup_size + l` of the chunk (coalesced), all loads issued before any
 * arithmetic. Per load round a subgroup inclusive add of the vec4 sums gives each lane its place;
 * subgroup totals go through workgroup memory. Then one subgroup looks back, the prefix is
 * broadcast and the results are written from registers: three barriers per tile.
 *
 * Tiles are numbered by a global atomic in start order (`status[0]`). Tile `t`'s state is two
 * words, `status[2 + 2t]` (low half) and `status[3 + 2t]` (high half), each `state << 16 | half`
 * with state 1 = aggregate, 2 = inclusive prefix, written with `atomicMax`: a word only moves
 * from empty to aggregate to inclusive, never back, whoever writes it. A reader takes a value
 * when both words are there with the same state (else it is not ready yet). No ordering between
 * two memory locations is relied on.
 *
 * Look-back: the subgroup reads the states of up to `subgroup_size` predecessors at once, sums
 * aggregates up to the nearest inclusive prefix, and stops at a tile not ready yet. After
 * `params.spins` polls without progress it reduces that tile's input itself (the same value its
 * owner publishes), publishes it as an aggregate and goes on: no workgroup ever depends on
 * another being scheduled.
 */
const source = (c: ChainedVec4Constants) => {
  const V = c.vectors;
  const rounds = Array.from({ length: V }, (_, j) => j);
  return /* wgsl */ `
enable subgroups;
diagnostic(off, subgroup_uniformity);
const WG: u32 = ${c.workgroupSize}u;
const VECTORS: u32 = ${V}u;
const TILE_V: u32 = WG * VECTORS;
const MAX_SUBGROUPS: u32 = ${Math.max(1, c.workgroupSize / 4)}u;
const BIG: u32 = ${BIG};
struct Params {
  count: u32,
  in_base: u32,
  out_base: u32,
  num_tiles: u32,
  carry_in: u32,
  carry_out: u32,
  inclusive: u32,
  spins: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> carry: array<u32>;
var<workgroup> sg_counter: atomic<u32>;
var<workgroup> sg_totals: array<u32, MAX_SUBGROUPS>;
var<workgroup> sh_tile: u32;
var<workgroup> sh_prefix: u32;
${loadFn(c)}
${storeFn(c)}

fn publish(t: u32, state: u32, v: u32) {
  atomicMax(&status[2u + 2u * t], (state << 16u) | (v & 0xffffu));
  atomicMax(&status[3u + 2u * t], (state << 16u) | (v >> 16u));
}

// (state, value): state 0 when not ready (or the two words are of different states)
fn peek(t: u32) -> vec2u {${c.ignorePublished ? IGNORE_PUBLISHED_WGSL : ''}
  let lo = atomicLoad(&status[2u + 2u * t]);
  let hi = atomicLoad(&status[3u + 2u * t]);
  let state = select(0u, lo >> 16u, (lo >> 16u) == (hi >> 16u));
  return vec2u(state, (lo & 0xffffu) | (hi << 16u));
}

// The subgroup sums tile t's input (fallback for a silent predecessor).
fn subgroup_tile_sum(t: u32, lane: u32, size: u32) -> u32 {
  var s = 0u;
  for (var q = lane; q < TILE_V; q += size) {
    let v = load4(t * TILE_V + q);
    s += v.x + v.y + v.z + v.w;
  }
  return subgroupAdd(s);
}

// Run by one whole subgroup: the sum of all tiles before t (plus the carry in), t > 0.
fn look_back(t: u32, lane: u32, size: u32) -> u32 {
  var prefix = 0u;
  var look = t - 1u;
  var spins = 0u;
  loop {
    var state = 2u;
    var value = 0u;
    if (lane <= look) {
      let p = peek(look - lane);
      state = p.x;
      value = p.y;
    }
    let first_inc = subgroupMin(select(BIG, lane, state == 2u));
    let first_wait = subgroupMin(select(BIG, lane, state == 0u));
    if (first_inc < first_wait) {
      prefix += subgroupAdd(select(0u, value, lane <= first_inc));
      break;
    }
    if (first_wait == BIG) {
      // all aggregates (and all lanes valid: an invalid lane reads as inclusive)
      prefix += subgroupAdd(value);
      look -= size;
      spins = 0u;
      continue;
    }
    prefix += subgroupAdd(select(0u, value, lane < first_wait));
    look -= first_wait;
    if (first_wait > 0u) {
      spins = 0u;
    }
    spins += 1u;
    if (spins > params.spins) {
      let a = subgroup_tile_sum(look, lane, size);
      if (look == 0u) {
        prefix += carry[params.carry_in] + a;
        break;
      }
      if (lane == 0u) {
        publish(look, 1u, a);
      }
      prefix += a;
      look -= 1u;
      spins = 0u;
    }
  }
  return prefix;
}

@compute @workgroup_size(WG)
fn main(
  @builtin(local_invocation_index) lid: u32,
  @builtin(subgroup_invocation_id) lane: u32,
  @builtin(subgroup_size) size: u32,
) {
  var slot = 0u;
  if (subgroupElect()) {
    slot = atomicAdd(&sg_counter, 1u);
  }
  slot = subgroupBroadcastFirst(slot);
  if (lid == 0u) {
    sh_tile = atomicAdd(&status[0], 1u);
  }
  let t = workgroupUniformLoad(&sh_tile);
  if (t >= params.num_tiles) {
    return;
  }
  let first = t * TILE_V + slot * size * VECTORS + lane;
${rounds.map((j) => `  let v${j} = load4(first + ${j}u * size);`).join('\n')}
  var run = 0u;
${rounds
  .map(
    (j) => `  let s${j} = v${j}.x + v${j}.y + v${j}.z + v${j}.w;
  let i${j} = subgroupInclusiveAdd(s${j});
  let e${j} = run + i${j} - s${j};
  run += subgroupShuffle(i${j}, size - 1u);`,
  )
  .join('\n')}
  if (lane == 0u) {
    sg_totals[slot] = run;
  }
  workgroupBarrier();
  let subgroups = WG / size;
  var before = 0u;
  var agg = 0u;
  for (var k = 0u; k < subgroups; k++) {
    let x = sg_totals[k];
    before += select(0u, x, k < slot);
    agg += x;
  }
  if (slot == 0u) {
    var prefix = 0u;
    if (t == 0u) {
      prefix = carry[params.carry_in];
      if (lane == 0u) {
        publish(0u, 2u, prefix + agg);
      }
    } else {
      if (lane == 0u) {
        publish(t, 1u, agg);
      }
      prefix = look_back(t, lane, size);
      if (lane == 0u) {
        publish(t, 2u, prefix + agg);
      }
    }
    if (lane == 0u) {
      sh_prefix = prefix;
      if (t == params.num_tiles - 1u) {
        carry[params.carry_out] = prefix + agg;
      }
    }
  }
  workgroupBarrier();
  let base = sh_prefix + before;
  let inc = params.inclusive != 0u;
${rounds
  .map(
    (j) => `  {
    let x = v${j};
    let a = base + e${j};
    let ex = vec4u(a, a + x.x, a + x.x + x.y, a + x.x + x.y + x.z);
    store4(first + ${j}u * size, select(ex, ex + x, inc));
  }`,
  )
  .join('\n')}
}
`;
};

/** The vectorized single-pass chained scan (subgroups required; see the source's comment). */
export const CHAINED_VEC4_SCAN_KERNEL = defineKernel({
  name: 'scan/chained-vec4',
  bindings: { src: 1, dst: 2, status: 3, carry: 4 },
  source,
});
