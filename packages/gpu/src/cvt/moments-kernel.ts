import { gridWorkgroup, rasterHeader } from '../raster/raster-wgsl.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { SUM_COUNT, SUM_WORDS } from './cvt-setup.js';
import { add64Module, STATE, TO_FIXED } from './cvt-wgsl.js';

/** Constants of {@link MOMENTS_KERNEL}. */
export interface MomentsConstants {
  [key: string]: number;
  /**
   * Distinct labels a workgroup adds up in workgroup memory before one global atomic per label
   * and sum (0: every pixel adds straight into the global sums).
   */
  slots: number;
}

/**
 * The regional reduction, one thread per pixel: a pixel of the region (weight ρ̂ ≥ 0) with label
 * l adds, to site l's sums, ρ̂, ρ̂·cx, ρ̂·cy, ρ̂·‖c − x_l‖², 1 and ‖c − x_l‖ (c its centre, scaled
 * pixel units), each as a 64-bit fixed-point number (scale 2^shift per sum, see `fixedScales`) by
 * u32 atomics with carry, so the sums are exact integers, the same in any order: deterministic.
 * A pixel whose label differs from `previous` counts into `state.changed` (and `previous` takes the
 * label); a region pixel the JFA left without a label (its first step too short) counts into
 * `state.unlabelled`. Labels are read from the half `state.finalHalf` names; with misc.y ≠ 0 (1+JFA),
 * half 0 is then reset to NONE for the next evaluation's seeding (instead of a fill dispatch of
 * its own; a uniform rather than a constant, so both labellings share one compiled kernel).
 *
 * With `slots` > 0 the 16×16 pixels of a workgroup (mostly one to three cells) first claim one of
 * `slots` workgroup-memory slots per distinct label and add there; a pixel finding none free adds
 * globally. Parameters: size = (width, height, 1, pixels); misc.x = sites; scale = (1, scaleY, 0, 1);
 * extra.xyzw, aux.xy = the six fixed-point scales.
 */
export const MOMENTS_KERNEL = defineKernel({
  name: 'cvt/moments',
  bindings: { sites: 1, labels: 2, weights: 3, previous: 4, sums: 5, state: 6 },
  source: ({ slots }: MomentsConstants) => {
    const [wx, wy] = gridWorkgroup(2);
    const local = slots > 0;
    return /* wgsl */ `
${rasterHeader(2, 1)}
@group(0) @binding(2) var<storage, read_write> labels: array<u32>;
@group(0) @binding(3) var<storage, read> weights: array<f32>;
@group(0) @binding(4) var<storage, read_write> previous: array<u32>;
@group(0) @binding(5) var<storage, read_write> sums: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> state: array<atomic<u32>>;
${linkWgsl(TO_FIXED, add64Module('add_global', 'sums'))}
var<workgroup> changed_wg: atomic<u32>;
var<workgroup> missing_wg: atomic<u32>;
${
  local
    ? /* wgsl */ `
const SLOTS: u32 = ${slots}u;
var<workgroup> slot_label: array<atomic<u32>, SLOTS>;
var<workgroup> slot_sums: array<atomic<u32>, ${slots * SUM_WORDS}>;
${linkWgsl(add64Module('add_local', 'slot_sums'))}
// the slot holding label l (claimed if free), or SLOTS when all are taken by other labels
fn claim(l: u32) -> u32 {
  var k = 0u;
  var tries = 0u;
  while (k < SLOTS && tries < 4u * SLOTS) {
    tries++;
    let r = atomicCompareExchangeWeak(&slot_label[k], NONE, l);
    if (r.exchanged || r.old_value == l) {
      return k;
    }
    if (r.old_value != NONE) {
      k++;
    }
  }
  return SLOTS;
}`
    : ''
}

@compute @workgroup_size(${wx}, ${wy}, 1)
fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) {
    atomicStore(&changed_wg, 0u);
    atomicStore(&missing_wg, 0u);
  }
  ${
    local
      ? /* wgsl */ `if (lid < SLOTS) {
    atomicStore(&slot_label[lid], NONE);
  }
  for (var w = lid; w < SLOTS * ${SUM_WORDS}u; w += ${wx * wy}u) {
    atomicStore(&slot_sums[w], 0u);
  }`
      : ''
  }
  workgroupBarrier();
  let p = g.y * params.size.x + g.x;
  let inside = all(g.xy < params.size.xy);
  var l = NONE;
  var w = -1.0;
  if (inside) {
    w = weights[p];
    l = labels[atomicLoad(&state[${STATE.finalHalf}]) * params.size.w + p];
    if (params.misc.y != 0u) {
      labels[p] = NONE;
    }
  }
  if (w >= 0.0 && l == NONE) {
    atomicAdd(&missing_wg, 1u);
  }
  if (w >= 0.0 && l != NONE) {
    if (previous[p] != l) {
      previous[p] = l;
      atomicAdd(&changed_wg, 1u);
    }
    let c = centre_of(g).xy;
    let d = c - sites[l];
    let d2 = dot(d, d);
    var terms = array<f32, ${SUM_COUNT}>(w, w * c.x, w * c.y, w * d2, 1.0, sqrt(d2));
    var scales = array<f32, ${SUM_COUNT}>(params.extra.x, params.extra.y, params.extra.z, params.extra.w, params.aux.x, params.aux.y);
    ${local ? 'let k = claim(l);' : ''}
    for (var q = 0u; q < ${SUM_COUNT}u; q++) {
      let f = to_fixed(terms[q], scales[q]);
      ${local ? `if (k < SLOTS) { add_local(k * ${SUM_WORDS}u + 2u * q, f.x, f.y); } else { add_global(l * ${SUM_WORDS}u + 2u * q, f.x, f.y); }` : `add_global(l * ${SUM_WORDS}u + 2u * q, f.x, f.y);`}
    }
  }
  workgroupBarrier();
  if (lid == 0u) {
    let n = atomicLoad(&changed_wg);
    if (n != 0u) {
      atomicAdd(&state[${STATE.changed}], n);
    }
    let missing = atomicLoad(&missing_wg);
    if (missing != 0u) {
      atomicAdd(&state[${STATE.unlabelled}], missing);
    }
  }
  ${
    local
      ? /* wgsl */ `for (var w = lid; w < SLOTS * ${SUM_COUNT}u; w += ${wx * wy}u) {
    let k = w / ${SUM_COUNT}u;
    let q = w % ${SUM_COUNT}u;
    let owner = atomicLoad(&slot_label[k]);
    if (owner != NONE) {
      let lo = atomicLoad(&slot_sums[k * ${SUM_WORDS}u + 2u * q]);
      let hi = atomicLoad(&slot_sums[k * ${SUM_WORDS}u + 2u * q + 1u]);
      add_global(owner * ${SUM_WORDS}u + 2u * q, lo, hi);
    }
  }`
      : ''
  }
}
`;
  },
});
