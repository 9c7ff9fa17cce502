import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl, type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { SITE_WORKGROUP, STATE } from './cvt-wgsl.js';
import { META } from './lbfgs-kernels.js';

/**
 * Seeding and the JFA's plan in one one-workgroup kernel per evaluation (after Lloyd's finish, or
 * as the L-BFGS trial point), instead of six dispatches of their own: the host records fewer
 * dispatches (see adr/0028). Not folded into the finish kernel: there its storage barriers made
 * lavapipe's JIT of that kernel 34 s instead of 13 s (shader cache off), per variant.
 */

/** The JFA plan's numbers: the grid's nominal passes and the adaptive step's warm-up. */
export interface PlanNumbers {
  /** Nominal passes: a step-1 pass, then `firstStep`, `firstStep / 2`, …, 1. */
  passes: number;
  firstStep: number;
  /** Evaluations run with the full step sequence before the adaptive first step. */
  warmup: number;
}

/** {@link PlanNumbers} as the parameter block's `auxu` words (uniforms, not constants, so one
 * compiled kernel serves every grid). */
export function planWords(plan: PlanNumbers): number[] {
  return [plan.passes, plan.firstStep, plan.warmup];
}

/**
 * `fn plan_jfa()` (call from one thread; `state: array<u32>`; the plan's numbers in
 * `params.auxu`, see {@link planWords}): plans the next evaluation's JFA. The paper's adaptive
 * first step: for the first `warmup` evaluations the JFA starts at `firstStep`; later at the
 * smallest power of two ≥ twice the largest mean site-to-pixel distance of the previous
 * evaluation (`state.maxMean`), as cells then change little between evaluations; an evaluation
 * that left region pixels unlabelled makes the next one run every step (`state.fullUntil`).
 * Writes that first step to `state.step`, from which each JFA pass knows whether it runs and which
 * half it reads (`JFA_PASS_KERNEL`), and the half holding the final labels to `state.finalHalf`:
 * the step-1 pass and the passes from `firstStep >> (j0 − 1)` = first on run, j0 = 1 +
 * log2(firstStep / first), so `passes − j0 + 1` passes alternate halves from half 0. No plan
 * array is written or read: each pass derives its step and half from `state.step` alone.
 */
export const PLAN_JFA: WgslModule = wgslModule(
  'cvt/plan-jfa',
  /* wgsl */ `
fn plan_jfa() {
  let top = params.auxu.y;
  var first = top;
  let mean = bitcast<f32>(state[${STATE.maxMean}]);
  let it = state[${STATE.iteration}];
  if (it >= params.auxu.z && it >= state[${STATE.fullUntil}] && mean > 0.0) {
    // the smallest power of two ≥ want
    let want = u32(ceil(min(2.0 * mean, f32(top))));
    let p = select(1u << (32u - countLeadingZeros(want - 1u)), 1u, want <= 1u);
    first = min(p, top);
  }
  let j0 = 1u + countTrailingZeros(top) - countTrailingZeros(first);
  state[${STATE.finalHalf}] = (1u + params.auxu.x - j0) % 2u;
  state[${STATE.step}] = first;
}`,
);

/**
 * `fn seed_sites(lid, n)` for a one-workgroup kernel (call from uniform control flow): writes
 * each site's label at its seed pixel in half 0 of `labels` (which must hold NONE there), in the
 * raster's seeding rule: the pixel containing the site (clamped into the grid); among the sites of
 * one pixel, the one nearest its centre (f32 squared distance), ties to the lower index. Three
 * phases separated by storage barriers (one workgroup, so they order every thread): reset the seed
 * pixels' best distance bits, `atomicMin` the sites' bits into them, let each winner `atomicMin`
 * its index into the label. Each site's pixel and bits are kept in `seed_scratch` between phases
 * (computed once, so a compiler cannot round them differently in two places). Needs `sites`,
 * `seed_scratch`, `best_bits` (atomic), `labels` (atomic) and the raster parameter layout
 * (size = (width, height, 1, pixels), scale = (1, pixel height / width, 0, 1)).
 */
export const SEED_SITES: WgslModule = wgslModule(
  'cvt/seed-sites',
  /* wgsl */ `
fn seed_sites(lid: u32, n: u32) {
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    let s = sites[i];
    let col = u32(clamp(floor(s.x), 0.0, f32(params.size.x - 1u)));
    let row = u32(clamp(floor(s.y / params.scale.y), 0.0, f32(params.size.y - 1u)));
    let c = ((vec3f(f32(col), f32(row), 0.0) + 0.5) * params.scale.w) * params.scale.xyz;
    let d = s - c.xy;
    let p = row * params.size.x + col;
    seed_scratch[2u * i] = p;
    seed_scratch[2u * i + 1u] = bitcast<u32>(d.x * d.x + d.y * d.y);
    atomicStore(&best_bits[p], 0xffffffffu);
  }
  storageBarrier();
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    atomicMin(&best_bits[seed_scratch[2u * i]], seed_scratch[2u * i + 1u]);
  }
  storageBarrier();
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    let p = seed_scratch[2u * i];
    if (seed_scratch[2u * i + 1u] == atomicLoad(&best_bits[p])) {
      atomicMin(&labels[p], i);
    }
  }
}`,
);

/** Bindings of {@link SEED_SITES} and {@link PLAN_JFA}: state, scratch, bits, labels. */
const SEED_BINDINGS = /* wgsl */ `
@group(0) @binding(2) var<storage, read_write> state: array<u32>;
@group(0) @binding(3) var<storage, read_write> seed_scratch: array<u32>;
@group(0) @binding(4) var<storage, read_write> best_bits: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> labels: array<atomic<u32>>;`;

/** Constants of {@link SEED_KERNEL}. */
export interface SeedConstants {
  [key: string]: number;
  /** 1: first move `sites` to the L-BFGS trial point x̂ + α·d (bindings 6–8). */
  trial: number;
  /** 1: seed the sites and plan the JFA (1+JFA labelling); 0: the trial point only ('exact'). */
  jfa: number;
}

/**
 * One workgroup before each 1+JFA evaluation: in the run's prologue (the initial sites), after
 * Lloyd's finish (the moved sites) and as each L-BFGS trial point. With `trial`, first
 * the trial point x̂ + α·d (α from the meta words, written by the host's line search) into
 * `sites`, clamped into the grid's box (extra.xy) so every site keeps a seed pixel: a projected
 * step. With `jfa`, then seeds the sites ({@link SEED_SITES}) into half 0 of the labels (cleared
 * by the moments kernel, or by the prologue's fill) and plans the JFA ({@link PLAN_JFA}) from the
 * state the last finish left. Parameters: misc.x = sites; size, scale
 * as the raster kernels; extra.xy = the grid's box; auxu.xyz = {@link planWords}.
 */
export const SEED_KERNEL = defineKernel({
  name: 'cvt/seed',
  bindings: {
    sites: 1,
    state: { binding: 2, optional: true },
    seed_scratch: { binding: 3, optional: true },
    best_bits: { binding: 4, optional: true },
    labels: { binding: 5, optional: true },
    accepted: { binding: 6, optional: true },
    direction: { binding: 7, optional: true },
    ring_meta: { binding: 8, optional: true },
  },
  source: (c: SeedConstants) => /* wgsl */ `
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
${c.jfa ? SEED_BINDINGS : ''}
${
  c.trial
    ? /* wgsl */ `@group(0) @binding(6) var<storage, read> accepted: array<vec2f>;
@group(0) @binding(7) var<storage, read> direction: array<vec2f>;
@group(0) @binding(8) var<storage, read> ring_meta: array<f32>;`
    : ''
}
${c.jfa ? linkWgsl(SEED_SITES, PLAN_JFA) : ''}

@compute @workgroup_size(${SITE_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = params.misc.x;
  ${
    c.trial
      ? /* wgsl */ `for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    sites[i] = clamp(accepted[i] + ring_meta[${META.alpha}] * direction[i], vec2f(0.0), params.extra.xy);
  }`
      : ''
  }
  ${
    c.jfa
      ? /* wgsl */ `seed_sites(lid, n);
  if (lid == 0u) {
    plan_jfa();
  }`
      : ''
  }
}
`,
});
