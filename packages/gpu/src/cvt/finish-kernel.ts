import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { SUM_WORDS, SUMS } from './cvt-setup.js';
import { HISTORY, HISTORY_WORDS, SITE_WORKGROUP, STATE, TO_FIXED, WORKGROUP_REDUCE } from './cvt-wgsl.js';

/** Constants of {@link FINISH_KERNEL}. */
export interface FinishConstants {
  [key: string]: number;
  /** 1: Lloyd (move each site to its centroid); 0: L-BFGS (write the gradient and ∇F̂·d). */
  lloyd: number;
}

/**
 * One workgroup closing an evaluation: per site, the fixed-point sums become its mass m̂, centroid
 * ẑ and gradient 2m̂(x̂ − ẑ) (zero for an empty cell), and the sums are zeroed for the next
 * evaluation. Over all sites: F̂ (the exact 64-bit sum of the cells' energy sums), ‖∇F̂‖², ∇F̂·d
 * (L-BFGS) and the largest mean site-to-pixel distance, reduced in a fixed order
 * (deterministic). Writes history row `state.iteration` (if below `misc.y` rows), keeps the
 * distance for the next JFA schedule, zeroes `state.changed` and advances `state.iteration`.
 * Lloyd then moves each site with a non-empty cell to ẑ (a site with an empty cell stays).
 *
 * Parameters: misc.x = sites, misc.y = history rows; extra.xyzw, aux.xy = the inverse
 * fixed-point scales.
 */
export const FINISH_KERNEL = defineKernel({
  name: 'cvt/finish',
  bindings: {
    sites: 1,
    sums: 2,
    state: 3,
    history: 4,
    gradient: { binding: 5, optional: true },
    direction: { binding: 6, optional: true },
    mass: { binding: 7, optional: true },
  },
  source: ({ lloyd }: FinishConstants) => /* wgsl */ `
struct Params {
  size: vec4u,
  misc: vec4u,
  scale: vec4f,
  extra: vec4f,
  aux: vec4f,
  auxu: vec4u,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> sites: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
@group(0) @binding(3) var<storage, read_write> state: array<u32>;
@group(0) @binding(4) var<storage, read_write> history: array<u32>;
${
  lloyd
    ? ''
    : /* wgsl */ `@group(0) @binding(5) var<storage, read_write> gradient: array<vec2f>;
@group(0) @binding(6) var<storage, read> direction: array<vec2f>;
@group(0) @binding(7) var<storage, read_write> mass: array<f32>;`
}
${linkWgsl(TO_FIXED, WORKGROUP_REDUCE)}

fn take(i: u32, q: u32, inv: f32) -> f32 {
  let b = i * ${SUM_WORDS}u + 2u * q;
  let v = from_fixed(sums[b], sums[b + 1u], inv);
  sums[b] = 0u;
  sums[b + 1u] = 0u;
  return v;
}

@compute @workgroup_size(${SITE_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = params.misc.x;
  var energy = vec2u(0u);
  var g2 = 0.0;
  var slope = 0.0;
  var far = 0.0;
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    let e = i * ${SUM_WORDS}u + ${2 * SUMS.energy}u;
    energy = add_pair(energy, vec2u(sums[e], sums[e + 1u]));
    sums[e] = 0u;
    sums[e + 1u] = 0u;
    let m = take(i, ${SUMS.mass}u, params.extra.x);
    let mx = take(i, ${SUMS.momentX}u, params.extra.y);
    let my = take(i, ${SUMS.momentY}u, params.extra.z);
    let count = take(i, ${SUMS.count}u, params.aux.x);
    let dist = take(i, ${SUMS.distance}u, params.aux.y);
    if (count > 0.0) {
      far = max(far, dist / count);
    }
    var g = vec2f(0.0);
    let x = sites[i];
    if (m > 0.0) {
      let z = vec2f(mx, my) / m;
      g = 2.0 * m * (x - z);
      ${lloyd ? 'sites[i] = z;' : ''}
    }
    g2 += dot(g, g);
    ${lloyd ? '' : 'gradient[i] = g;\n    mass[i] = m;\n    slope += dot(g, direction[i]);'}
  }
  let total = sum64_wg(energy, lid);
  let total_g2 = sum_wg(g2, lid);
  let total_slope = sum_wg(slope, lid);
  let total_far = max_wg(far, lid);
  if (lid == 0u) {
    let row = state[${STATE.iteration}];
    if (row < params.misc.y) {
      let h = row * ${HISTORY_WORDS}u;
      history[h + ${HISTORY.energyLo}u] = total.x;
      history[h + ${HISTORY.energyHi}u] = total.y;
      history[h + ${HISTORY.gradient2}u] = bitcast<u32>(total_g2);
      history[h + ${HISTORY.changed}u] = state[${STATE.changed}];
      history[h + ${HISTORY.slope}u] = bitcast<u32>(total_slope);
      history[h + ${HISTORY.step}u] = state[${STATE.step}];
      history[h + ${HISTORY.unlabelled}u] = state[${STATE.unlabelled}];
    }
    if (state[${STATE.unlabelled}] != 0u) {
      // the adaptive first step was too short: the next evaluation runs every JFA step
      state[${STATE.fullUntil}] = row + 2u;
      state[${STATE.unlabelled}] = 0u;
    }
    state[${STATE.maxMean}] = bitcast<u32>(total_far);
    state[${STATE.changed}] = 0u;
    state[${STATE.iteration}] = row + 1u;
  }
}
`,
});
