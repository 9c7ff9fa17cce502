/**
 * WGSL building blocks shared by the scan, compaction and histogram kernels: an exclusive sum
 * scan across one workgroup, in two implementations chosen by a kernel constant.
 *
 * - With subgroups: `subgroupInclusiveAdd` within each subgroup, the subgroup totals in
 *   workgroup memory, and every subgroup adding up the totals before its own with `subgroupAdd`
 *   (one or a few rounds). Nothing assumes how `local_invocation_index` maps to subgroups: each
 *   subgroup takes a slot from a workgroup atomic, and a thread's *rank* (its place in the scan
 *   order) is `slot * subgroup_size + subgroup_invocation_id`. It does assume all subgroups of
 *   the workgroup are full and equally sized (a power of two from 4 to 128 dividing the
 *   workgroup size), as on every known implementation for 1D workgroups of 256.
 * - Without: a Hillis–Steele scan over workgroup memory (log2(WG) rounds, two barriers each);
 *   rank is `local_invocation_index`.
 *
 * Both expose the same WGSL: `fn thread_rank() -> u32` (call once, first, in uniform control
 * flow, after `init_rank(...)`), and `fn wg_scan(v: u32) -> vec2u` returning (exclusive prefix
 * of `v` in rank order, workgroup total). `wg_scan` must be called in uniform control flow by
 * every thread; it ends with a barrier, so it may be called repeatedly.
 */

/** Constants every kernel built on {@link workgroupScanWgsl} has. */
export interface WorkgroupScanConstants {
  [key: string]: number | string | boolean;
  /** Threads per workgroup (a power of two). */
  workgroupSize: number;
  /** Whether the WGSL uses subgroup operations (needs the `subgroups` feature). */
  subgroups: boolean;
}

/** `enable subgroups;` (and the uniformity diagnostic off) when used: must open the module. */
export function enableDirective(c: WorkgroupScanConstants): string {
  // The totals loop runs `WG / subgroup_size` rounds: uniform in fact (one size per dispatch),
  // but the uniformity analysis cannot see it through a private variable.
  return c.subgroups ? 'enable subgroups;\ndiagnostic(off, subgroup_uniformity);' : '';
}

/** Entry-point parameters the building blocks need (after the kernel's own, comma-separated). */
export function scanBuiltins(c: WorkgroupScanConstants): string {
  const base = '@builtin(local_invocation_index) lid: u32';
  return c.subgroups
    ? `${base}, @builtin(subgroup_invocation_id) sg_lane: u32, @builtin(subgroup_size) sg_size: u32`
    : base;
}

/** The call that sets up ranks; put first in the entry point. */
export function initRank(c: WorkgroupScanConstants): string {
  return c.subgroups ? 'init_rank(lid, sg_lane, sg_size);' : 'init_rank(lid);';
}

/** The module-scope WGSL: `WG`, `init_rank`, `thread_rank`, `wg_scan`. */
export function workgroupScanWgsl(c: WorkgroupScanConstants): string {
  const wg = c.workgroupSize;
  if (c.subgroups) {
    return /* wgsl */ `
const WG: u32 = ${wg}u;
const MAX_SUBGROUPS: u32 = ${Math.max(1, wg / 4)}u;
var<workgroup> sg_counter: atomic<u32>;
var<workgroup> sg_totals: array<u32, MAX_SUBGROUPS>;
var<private> p_rank: u32;
var<private> p_slot: u32;
var<private> p_lane: u32;
var<private> p_size: u32;

fn init_rank(lid: u32, lane: u32, size: u32) {
  var slot = 0u;
  if (subgroupElect()) {
    slot = atomicAdd(&sg_counter, 1u);
  }
  p_slot = subgroupBroadcastFirst(slot);
  p_lane = lane;
  p_size = size;
  p_rank = p_slot * size + lane;
}

fn thread_rank() -> u32 {
  return p_rank;
}

fn wg_scan(v: u32) -> vec2u {
  let incl = subgroupInclusiveAdd(v);
  if (p_lane == p_size - 1u) {
    sg_totals[p_slot] = incl;
  }
  workgroupBarrier();
  let count = WG / p_size;
  var before = 0u;
  var total = 0u;
  for (var base = 0u; base < count; base += p_size) {
    let k = base + p_lane;
    var x = 0u;
    if (k < count) {
      x = sg_totals[k];
    }
    before += subgroupAdd(select(0u, x, k < p_slot));
    total += subgroupAdd(x);
  }
  workgroupBarrier();
  return vec2u(before + incl - v, total);
}
`;
  }
  return /* wgsl */ `
const WG: u32 = ${wg}u;
var<workgroup> scan_buf: array<u32, WG>;
var<private> p_rank: u32;

fn init_rank(lid: u32) {
  p_rank = lid;
}

fn thread_rank() -> u32 {
  return p_rank;
}

fn wg_scan(v: u32) -> vec2u {
  let r = p_rank;
  scan_buf[r] = v;
  workgroupBarrier();
  for (var d = 1u; d < WG; d <<= 1u) {
    var t = 0u;
    if (r >= d) {
      t = scan_buf[r - d];
    }
    workgroupBarrier();
    scan_buf[r] += t;
    workgroupBarrier();
  }
  let incl = scan_buf[r];
  let total = scan_buf[WG - 1u];
  workgroupBarrier();
  return vec2u(incl - v, total);
}
`;
}
