import {
  gridWorkgroup,
  LIST_BUILTINS,
  LIST_INDEX,
  LIST_WORKGROUP,
  rasterHeader,
  tieOrder,
  unrolledNearest,
} from '../raster/raster-wgsl.js';
import type { KernelSpec } from '../runtime/pipeline-cache.js';
import { STATE } from './cvt-wgsl.js';

/**
 * The labelling of one CVT evaluation, with the sites where the GPU left them. Labels live in one
 * buffer of two halves (`2 · pixels` words): seeding writes half 0, each JFA pass reads one half
 * and writes the other, and {@link JFA_SCHEDULE_KERNEL} records which half ends up holding them
 * (`state.finalHalf`), since the number of passes is decided on the GPU.
 *
 * Parameter block (raster layout): size = (width, height, 1, pixels); misc.x = sites;
 * misc.y = last site index; misc.z = the pass index (JFA step); scale = (1, pixel height / width,
 * 0, 1).
 */

/**
 * One thread per site: the pixel containing its f32 position (clamped into the grid), in the
 * seeding rule of the raster kernels, for the raster seeding kernels that follow.
 */
export const SEED_PIXEL_KERNEL: KernelSpec = {
  name: 'cvt/seed-pixel',
  source: () => /* wgsl */ `
${rasterHeader(2, 1)}
@group(0) @binding(2) var<storage, read_write> seed: array<u32>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i >= params.misc.x) {
    return;
  }
  let s = sites[i];
  let col = u32(clamp(floor(s.x), 0.0, f32(params.size.x - 1u)));
  let row = u32(clamp(floor(s.y / params.scale.y), 0.0, f32(params.size.y - 1u)));
  seed[i] = row * params.size.x + col;
}
`,
};

/** Constants of {@link JFA_SCHEDULE_KERNEL}. */
export interface ScheduleConstants {
  [key: string]: number;
  /** Nominal passes: a step-1 pass, then `firstStep`, `firstStep / 2`, …, 1. */
  passes: number;
  firstStep: number;
  /** Iterations run with the full step sequence before the adaptive first step. */
  warmup: number;
}

/**
 * One thread: plans this evaluation's JFA passes. The paper's adaptive first step: for the first
 * `warmup` evaluations the JFA starts at `firstStep`; later at the smallest power of two ≥ twice
 * the largest mean site-to-pixel distance of the previous evaluation (`state.maxMean`), as cells
 * then change little between evaluations; an evaluation that left region pixels unlabelled (the
 * moments kernel counts them) makes the next one run every step. `plan[2k]` = the step of pass k, 0 for a skipped pass
 * (its threads return at once), `plan[2k + 1]` = the half pass k reads; the halves of the passes
 * that run alternate. Writes the half holding the final labels and the first step to `state`.
 * (Skipping by indirect dispatches of zero workgroups was measured 7× slower in wall time on an
 * H200: Dawn validates each indirect dispatch on the host and on the GPU; see adr/0028.)
 */
export const JFA_SCHEDULE_KERNEL: KernelSpec<ScheduleConstants> = {
  name: 'cvt/jfa-schedule',
  source: ({ passes, firstStep, warmup }) => {
    return /* wgsl */ `
${rasterHeader(2, null)}
@group(0) @binding(1) var<storage, read_write> state: array<u32>;
@group(0) @binding(2) var<storage, read_write> plan: array<u32>;

@compute @workgroup_size(1)
fn main() {
  if (params.size.w == 0u) {
    return; // (binds the parameter block every raster program provides)
  }
  var first = ${firstStep}u;
  let mean = bitcast<f32>(state[${STATE.maxMean}]);
  let it = state[${STATE.iteration}];
  if (it >= ${warmup}u && it >= state[${STATE.fullUntil}] && mean > 0.0) {
    let want = u32(ceil(min(2.0 * mean, f32(${firstStep}))));
    var p = 1u;
    while (p < want) {
      p *= 2u;
    }
    first = min(p, ${firstStep}u);
  }
  var half = 0u;
  for (var k = 0u; k < ${passes}u; k++) {
    let step = select(${firstStep}u >> (k - 1u), 1u, k == 0u);
    let on = step <= first;
    plan[2u * k] = select(0u, step, on);
    plan[2u * k + 1u] = half;
    if (on) {
      half = 1u - half;
    }
  }
  state[${STATE.finalHalf}] = half;
  state[${STATE.step}] = first;
}
`;
  },
};

/**
 * One gather-style JFA pass (the raster kernels' 3×3 candidate choice, `unrolledNearest`: squared
 * f32 distance in scaled pixel units, ties to the lower site index), at the step and from the half
 * the schedule planned for pass `misc.z` (nothing for a skipped pass).
 */
export const JFA_PASS_KERNEL: KernelSpec = {
  name: 'cvt/jfa-pass',
  source: () => {
    const [wx, wy] = gridWorkgroup(2);
    return /* wgsl */ `
${rasterHeader(2, 1)}
@group(0) @binding(2) var<storage, read_write> labels: array<u32>;
@group(0) @binding(3) var<storage, read> plan: array<u32>;
${tieOrder(false, 0, '')}

@compute @workgroup_size(${wx}, ${wy}, 1)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g.xy >= params.size.xy)) {
    return;
  }
  let k = params.misc.z;
  let step = i32(plan[2u * k]);
  if (step == 0) {
    return;
  }
  let src = plan[2u * k + 1u] * params.size.w;
  let dst = (1u - plan[2u * k + 1u]) * params.size.w;
  let c = centre_of(g);
  var best = NONE;
  var best_d = BIG;
  ${unrolledNearest(2, 'step', (i) => `labels[src + ${i}]`, { lastSite: 'params.misc.y' })}
  labels[dst + g.y * params.size.x + g.x] = best;
}
`;
  },
};

/**
 * The 'exact' labelling: per pixel, the nearest of all sites by a brute-force scan (squared f32
 * distance in scaled pixel units from the f32 positions, ties to the lower index) into half 0.
 * O(pixels · sites): for small site counts and tests; the sites move on the GPU every iteration,
 * so the raster's bucketed 'exact' search (built on the host) does not apply.
 */
export const EXACT_LABEL_KERNEL: KernelSpec = {
  name: 'cvt/exact-label',
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
};
