import { defineKernel } from '../../runtime/pipeline-cache.js';
import { IGNORE_PUBLISHED_WGSL } from './ignore-published-wgsl.js';
import type { ScanKernelConstants } from './scan-kernels.js';
import { scanAndStoreTile, stageAndScanTile } from './tile-scan-wgsl.js';
import { enableDirective, initRank, scanBuiltins, workgroupScanWgsl } from './workgroup-scan.js';

/**
 * Single-pass chained scan with decoupled look-back that needs no forward progress between
 * workgroups. Tiles are numbered in the order workgroups start (a global atomic counter), so a
 * tile's predecessors were all started earlier. A tile publishes its aggregate, looks back over
 * its predecessors' published aggregates until it finds an inclusive prefix, publishes its own
 * inclusive prefix and writes its scanned tile.
 *
 * Status per tile, 4 words: aggregate (lo, hi) and inclusive prefix (lo, hi). WGSL has no 64-bit
 * atomics, so a 32-bit value travels as two 16-bit halves, each in its own word beside a ready
 * flag (bit 16): a half is either absent (0) or complete, and a value is ready when both halves
 * are. Buffers are cleared before each dispatch.
 *
 * Fallback: when a predecessor has published nothing after `spins` polls, the waiting workgroup
 * reduces that predecessor's tile itself (one read of 2048 elements), publishes the aggregate
 * for later waiters (the same value, so racing publishers agree) and continues with the tile
 * before. In the worst case (no concurrency at all) a tile thus reduces all its predecessors, but
 * it always finishes: correctness never depends on another workgroup being scheduled.
 */
const chainedSource = (c: ScanKernelConstants) => /* wgsl */ `
${enableDirective(c)}
${workgroupScanWgsl(c)}
const ITEMS: u32 = ${c.items}u;
const TILE: u32 = WG * ITEMS;
const READY: u32 = 0x10000u;
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
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> carry: array<u32>;
var<workgroup> tile: array<u32, TILE>;
var<workgroup> sh_tile: u32;
var<workgroup> sh_state: u32;
var<workgroup> sh_value: u32;

fn load(i: u32) -> u32 {
  let v = src[params.in_base + i];
  return ${c.nonzero ? 'select(0u, 1u, v != 0u)' : 'v'};
}

fn store(i: u32, v: u32) {
  dst[params.out_base + i] = v;
}

fn agg_slot(t: u32) -> u32 {
  return 1u + t * 4u;
}

fn inc_slot(t: u32) -> u32 {
  return 3u + t * 4u;
}

fn publish(slot: u32, v: u32) {
  atomicStore(&status[slot], READY | (v & 0xffffu));
  atomicStore(&status[slot + 1u], READY | (v >> 16u));
}

// (1 when both halves are there, the value)
fn peek(slot: u32) -> vec2u {${c.ignorePublished ? IGNORE_PUBLISHED_WGSL : ''}
  let lo = atomicLoad(&status[slot]);
  let hi = atomicLoad(&status[slot + 1u]);
  return vec2u(select(0u, 1u, (lo & hi & READY) != 0u), (lo & 0xffffu) | ((hi & 0xffffu) << 16u));
}

// The whole workgroup sums tile t's input (fallback for a silent predecessor).
fn tile_sum(t: u32, lid: u32) -> u32 {
  var s = 0u;
  for (var j = 0u; j < ITEMS; j++) {
    let i = t * TILE + j * WG + lid;
    if (i < params.count) {
      s += load(i);
    }
  }
  return wg_scan(s).y;
}

@compute @workgroup_size(WG)
fn main(${scanBuiltins(c)}) {
  ${initRank(c)}
  if (lid == 0u) {
    sh_tile = atomicAdd(&status[0], 1u);
  }
  let t = workgroupUniformLoad(&sh_tile);
  if (t >= params.num_tiles) {
    return;
  }
  ${stageAndScanTile('t')}
  let agg = s.y;
  var prefix = 0u;
  if (t == 0u) {
    prefix = carry[params.carry_in];
    if (lid == 0u) {
      publish(inc_slot(0u), prefix + agg);
    }
  } else {
    if (lid == 0u) {
      publish(agg_slot(t), agg);
    }
    var look = t - 1u;
    var spins = 0u;
    loop {
      workgroupBarrier();
      if (lid == 0u) {
        let inc = peek(inc_slot(look));
        if (inc.x != 0u) {
          sh_state = 2u;
          sh_value = inc.y;
        } else {
          let a = peek(agg_slot(look));
          sh_state = a.x;
          sh_value = a.y;
        }
      }
      let state = workgroupUniformLoad(&sh_state);
      let value = workgroupUniformLoad(&sh_value);
      if (state == 2u) {
        prefix += value;
        break;
      }
      if (state == 1u) {
        prefix += value;
        look -= 1u;
        spins = 0u;
        continue;
      }
      spins += 1u;
      if (spins > params.spins) {
        let a = tile_sum(look, lid);
        if (look == 0u) {
          prefix += carry[params.carry_in] + a;
          break;
        }
        if (lid == 0u) {
          publish(agg_slot(look), a);
        }
        prefix += a;
        look -= 1u;
        spins = 0u;
      }
    }
    if (lid == 0u) {
      publish(inc_slot(t), prefix + agg);
    }
  }
  if (t == params.num_tiles - 1u && lid == 0u) {
    carry[params.carry_out] = prefix + agg;
  }
  ${scanAndStoreTile('prefix + s.x')}
}
`;

/** The single-pass chained scan (see the source's comment). */
export const CHAINED_SCAN_KERNEL = defineKernel({
  name: 'scan/chained',
  bindings: { src: 1, dst: 2, status: 3, carry: 4 },
  source: chainedSource,
});
