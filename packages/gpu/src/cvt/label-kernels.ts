import { gridWorkgroup, rasterHeader, tieOrder, unrolledNearest } from '../raster/raster-wgsl.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { STATE } from './cvt-wgsl.js';

/**
 * The labelling of one CVT evaluation, with the sites where the GPU left them. Labels live in one
 * buffer of two halves (`2 · pixels` words): seeding writes half 0, each JFA pass reads one half
 * and writes the other, and the plan (`PLAN_JFA`, run by the kernel before) records which half
 * ends up holding them (`state.finalHalf`), since the number of passes is decided on the GPU.
 *
 * Parameter block (raster layout): size = (width, height, 1, pixels); misc.x = sites;
 * misc.y = last site index; misc.z = the pass index (JFA step); scale = (1, pixel height / width,
 * 0, 1).
 */

/**
 * One gather-style JFA pass (the raster kernels' 3×3 candidate choice, `unrolledNearest`: squared
 * f32 distance in scaled pixel units, ties to the lower site index), for pass `misc.z` of the plan
 * `state.step` sets (nothing for a skipped pass); misc.w = the grid's top step.
 */
export const JFA_PASS_KERNEL = defineKernel({
  name: 'cvt/jfa-pass',
  bindings: { sites: 1, labels: 2, state: 3 },
  source: () => {
    const [wx, wy] = gridWorkgroup(2);
    return /* wgsl */ `
${rasterHeader(2, 1)}
@group(0) @binding(2) var<storage, read_write> labels: array<u32>;
@group(0) @binding(3) var<storage, read> state: array<u32>;
${tieOrder(false, 0, '')}

@compute @workgroup_size(${wx}, ${wy}, 1)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= params.size.xy)) {
    return;
  }
  // pass k's nominal step: 1, then top = misc.w, top / 2, …, 1; it runs unless above the plan's
  // first step, and the passes that run alternate halves from half 0 (see PLAN_JFA)
  let k = params.misc.z;
  let top = params.misc.w;
  let first = state[${STATE.step}];
  let nominal = select(top >> (k - 1u), 1u, k == 0u);
  if (nominal > first) {
    return;
  }
  let j0 = 1u + countTrailingZeros(top) - countTrailingZeros(first);
  let ran = select(1u + max(k, j0) - j0, 0u, k == 0u);
  let half = ran % 2u;
  let step = i32(nominal);
  let src = half * params.size.w;
  let dst = (1u - half) * params.size.w;
  let c = centre_of(g);
  var best = NONE;
  var best_d = BIG;
  ${unrolledNearest(2, 'step', (i) => `labels[src + ${i}]`, { lastSite: 'params.misc.y' })}
  labels[dst + g.y * params.size.x + g.x] = best;
}
`;
  },
});

/**
 * The 'exact' labelling: per pixel, the nearest of all sites by a brute-force scan (squared f32
 * distance in scaled pixel units from the f32 positions, ties to the lower index) into half 0.
 * O(pixels · sites): for small site counts and tests; the sites move on the GPU every iteration,
 * so the raster's bucketed 'exact' search (built on the host) does not apply.
 */
export const EXACT_LABEL_KERNEL = defineKernel({
  name: 'cvt/exact-label',
  bindings: { sites: 1, labels: 2 },
  source: () => {
    const [wx, wy] = gridWorkgroup(2);
    return /* wgsl */ `
${rasterHeader(2, 1)}
@group(0) @binding(2) var<storage, read_write> labels: array<u32>;

@compute @workgroup_size(${wx}, ${wy}, 1)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= params.size.xy)) {
    return;
  }
  let c = centre_of(g);
  var best = NONE;
  var best_d = BIG;
  for (var i = 0u; i < params.misc.x; i++) {
    let d = dist2_at(c, sites[i]);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  labels[g.y * params.size.x + g.x] = best;
}
`;
  },
});
