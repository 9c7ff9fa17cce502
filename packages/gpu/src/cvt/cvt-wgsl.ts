/**
 * WGSL shared by the CVT kernels: the layout of the state and history buffers, 64-bit
 * fixed-point addition on u32 atomics, and the workgroup-wide reductions of the one-workgroup
 * kernels.
 */
import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';

/**
 * Words of the state buffer: the evaluation counter, the half holding the final labels, the largest
 * mean site-to-pixel distance, labels changed, the JFA's first step, region pixels left unlabelled
 * by the JFA, and the evaluation before which the JFA runs its full step sequence.
 */
export const STATE = {
  iteration: 0,
  finalHalf: 1,
  maxMean: 2,
  changed: 3,
  step: 4,
  unlabelled: 5,
  fullUntil: 6,
} as const;
export const STATE_WORDS = 8;

/**
 * Words of one history row (one per evaluation): the energy F̂ as a 64-bit fixed-point number
 * (lo, hi), ‖∇F̂‖² (f32), labels changed since the previous evaluation, ∇F̂·d (f32, L-BFGS),
 * the JFA's first step, region pixels the JFA left unlabelled.
 */
export const HISTORY = {
  energyLo: 0,
  energyHi: 1,
  gradient2: 2,
  changed: 3,
  slope: 4,
  step: 5,
  unlabelled: 6,
} as const;
export const HISTORY_WORDS = 8;

/** Threads of the one-workgroup kernels (site updates, L-BFGS). */
export const SITE_WORKGROUP = 256;

/**
 * `fn name(base, lo, hi)`: adds the 64-bit number (lo, hi) to the (lo, hi) pair at `base` of the
 * atomic array `target` (a carry out of the low word goes into the high word). Integer addition
 * is associative, so the sums are the same whatever order the threads add in. One module per
 * (name, target).
 */
export function add64Module(name: string, target: string): WgslModule {
  return wgslModule(
    `cvt/add64 ${name} ${target}`,
    /* wgsl */ `
fn ${name}(base: u32, lo: u32, hi: u32) {
  var h = hi;
  if (lo != 0u) {
    let old = atomicAdd(&${target}[base], lo);
    if (old > 0xffffffffu - lo) {
      h += 1u;
    }
  }
  if (h != 0u) {
    atomicAdd(&${target}[base + 1u], h);
  }
}`,
  );
}

/**
 * `fn to_fixed(v, scale) -> vec2u`: v ≥ 0 times `scale` (a power of two, so the product is
 * exact), rounded to an integer and split into (lo, hi) words. Both steps are exact in f32 (the
 * high part is the integer with its low 32 bits cleared, the low part what those bits hold), so
 * a compiler that fuses or reassociates cannot change the result.
 */
export const TO_FIXED: WgslModule = wgslModule(
  'cvt/to-fixed',
  /* wgsl */ `
fn to_fixed(v: f32, scale: f32) -> vec2u {
  let t = round(max(v, 0.0) * scale);
  let hi = floor(t * 2.3283064365386963e-10);
  return vec2u(u32(t - hi * 4294967296.0), u32(hi));
}
fn from_fixed(lo: u32, hi: u32, inv_scale: f32) -> f32 {
  return (f32(hi) * 4294967296.0 + f32(lo)) * inv_scale;
}`,
);

/**
 * Workgroup-wide reductions over {@link SITE_WORKGROUP} threads, each returning the result to
 * every thread (`lid` is the local index): a sum of f32 in a fixed tree order (deterministic),
 * a max of f32, and a sum of 64-bit (lo, hi) pairs with carries. Call from uniform control flow.
 */
export const WORKGROUP_REDUCE: WgslModule = wgslModule(
  'cvt/workgroup-reduce',
  /* wgsl */ `
var<workgroup> red_f: array<f32, ${SITE_WORKGROUP}>;
var<workgroup> red_u: array<vec2u, ${SITE_WORKGROUP}>;

fn sum_wg(v: f32, lid: u32) -> f32 {
  red_f[lid] = v;
  workgroupBarrier();
  for (var s = ${SITE_WORKGROUP / 2}u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_f[lid] = red_f[lid] + red_f[lid + s];
    }
    workgroupBarrier();
  }
  let r = red_f[0];
  workgroupBarrier();
  return r;
}
fn max_wg(v: f32, lid: u32) -> f32 {
  red_f[lid] = v;
  workgroupBarrier();
  for (var s = ${SITE_WORKGROUP / 2}u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_f[lid] = max(red_f[lid], red_f[lid + s]);
    }
    workgroupBarrier();
  }
  let r = red_f[0];
  workgroupBarrier();
  return r;
}
fn add_pair(a: vec2u, b: vec2u) -> vec2u {
  let lo = a.x + b.x;
  return vec2u(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn sum64_wg(v: vec2u, lid: u32) -> vec2u {
  red_u[lid] = v;
  workgroupBarrier();
  for (var s = ${SITE_WORKGROUP / 2}u; s > 0u; s >>= 1u) {
    if (lid < s) {
      red_u[lid] = add_pair(red_u[lid], red_u[lid + s]);
    }
    workgroupBarrier();
  }
  let r = red_u[0];
  workgroupBarrier();
  return r;
}`,
);
