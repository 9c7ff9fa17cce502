import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { SITE_WORKGROUP, WORKGROUP_REDUCE } from './cvt-wgsl.js';

/** L-BFGS memory (the paper's m). */
export const LBFGS_MEMORY = 7;

/** Words of the L-BFGS meta buffer: ring head, length, 1/(s·y) per slot, the host's step α, ∇F̂·d. */
export const META = {
  head: 0,
  length: 1,
  rho: 2,
  alpha: 2 + LBFGS_MEMORY,
  slope0: 3 + LBFGS_MEMORY,
} as const;
export const META_WORDS = 4 + LBFGS_MEMORY;

const PARAMS = /* wgsl */ `
struct Params {
  size: vec4u,
  misc: vec4u,
  scale: vec4f,
  extra: vec4f,
  aux: vec4f,
  auxu: vec4u,
}
@group(0) @binding(0) var<uniform> params: Params;`;

/** Constants of {@link DIRECTION_KERNEL}. */
export interface DirectionConstants {
  [key: string]: number;
  /** 1: the first direction (no pair to store; the history is emptied). */
  first: number;
}

/**
 * One workgroup: accepts the last evaluated point and computes the next search direction.
 * Unless `first`, stores the pair s = x̂ₜ − x̂, y = ∇F̂ₜ − ∇F̂ in the ring of {@link LBFGS_MEMORY}
 * (when s·y > 0, so the inverse Hessian estimate stays positive definite); then x̂ ← x̂ₜ,
 * ∇F̂ ← ∇F̂ₜ and d = −H∇F̂ by the two-loop recursion, with H₀ = diag(1 / 2m̂ᵢ) per site: the
 * inverse of the Hessian's diagonal part, so that d with an empty history is exactly Lloyd's step
 * (ẑ − x̂). A direction that is not a descent direction empties the history and becomes Lloyd's.
 * Writes ∇F̂·d to `meta` for the line search. Dot products are workgroup sums in a fixed order.
 */
export const DIRECTION_KERNEL = defineKernel({
  name: 'cvt/lbfgs-direction',
  bindings: {
    accepted: 1,
    trial: 2,
    gradient: 3,
    trial_gradient: 4,
    mass: 5,
    direction: 6,
    s_ring: 7,
    y_ring: 8,
    ring_meta: 9,
  },
  source: ({ first }: DirectionConstants) => /* wgsl */ `
${PARAMS}
@group(0) @binding(1) var<storage, read_write> accepted: array<vec2f>;
@group(0) @binding(2) var<storage, read> trial: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> gradient: array<vec2f>;
@group(0) @binding(4) var<storage, read> trial_gradient: array<vec2f>;
@group(0) @binding(5) var<storage, read> mass: array<f32>;
@group(0) @binding(6) var<storage, read_write> direction: array<vec2f>;
@group(0) @binding(7) var<storage, read_write> s_ring: array<vec2f>;
@group(0) @binding(8) var<storage, read_write> y_ring: array<vec2f>;
@group(0) @binding(9) var<storage, read_write> ring_meta: array<u32>;
${linkWgsl(WORKGROUP_REDUCE)}
const M: u32 = ${LBFGS_MEMORY}u;
var<workgroup> shared_u: u32;
var<workgroup> alphas: array<f32, M>;

fn inv_hessian(i: u32, mean_mass: f32) -> f32 {
  return 0.5 / select(mean_mass, mass[i], mass[i] > 0.0);
}

@compute @workgroup_size(${SITE_WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32) {
  let n = params.misc.x;
  var msum = 0.0;
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    msum += mass[i];
  }
  let mean_mass = max(sum_wg(msum, lid) / f32(n), 1e-30);
  ${
    first
      ? 'if (lid == 0u) { ring_meta[0] = 0u; ring_meta[1] = 0u; }'
      : /* wgsl */ `if (lid == 0u) {
    shared_u = ring_meta[0];
  }
  let head = workgroupUniformLoad(&shared_u);
  var sy = 0.0;
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    let s = trial[i] - accepted[i];
    let y = trial_gradient[i] - gradient[i];
    sy += dot(s, y);
  }
  let total_sy = sum_wg(sy, lid);
  if (total_sy > 0.0) {
    // the slot at head is the oldest pair when the ring is full: overwritten only when kept
    for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
      s_ring[head * n + i] = trial[i] - accepted[i];
      y_ring[head * n + i] = trial_gradient[i] - gradient[i];
    }
  }
  if (lid == 0u && total_sy > 0.0) {
    ring_meta[${META.rho}u + head] = bitcast<u32>(1.0 / total_sy);
    ring_meta[0] = (head + 1u) % M;
    ring_meta[1] = min(ring_meta[1] + 1u, M);
  }`
  }
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    accepted[i] = trial[i];
    gradient[i] = trial_gradient[i];
    direction[i] = trial_gradient[i];
  }
  storageBarrier();
  workgroupBarrier();
  if (lid == 0u) {
    shared_u = ring_meta[0] | (ring_meta[1] << 8u);
  }
  let ring = workgroupUniformLoad(&shared_u);
  let newest = ring & 0xffu;
  let len = ring >> 8u;
  // first loop, newest to oldest: αₖ = ρₖ sₖ·q, q −= αₖ yₖ (q lives in direction)
  for (var j = 0u; j < len; j++) {
    let k = (newest + M - 1u - j) % M;
    var part = 0.0;
    for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
      part += dot(s_ring[k * n + i], direction[i]);
    }
    let a = bitcast<f32>(ring_meta[${META.rho}u + k]) * sum_wg(part, lid);
    alphas[k] = a;
    for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
      direction[i] -= a * y_ring[k * n + i];
    }
  }
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    direction[i] *= inv_hessian(i, mean_mass);
  }
  // second loop, oldest to newest: β = ρₖ yₖ·r, r += sₖ (αₖ − β)
  for (var j = 0u; j < len; j++) {
    let k = (newest + M - len + j) % M;
    var part = 0.0;
    for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
      part += dot(y_ring[k * n + i], direction[i]);
    }
    let b = bitcast<f32>(ring_meta[${META.rho}u + k]) * sum_wg(part, lid);
    let coef = alphas[k] - b;
    for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
      direction[i] += coef * s_ring[k * n + i];
    }
  }
  var slope = 0.0;
  for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
    direction[i] = -direction[i];
    slope += dot(gradient[i], direction[i]);
  }
  var total = sum_wg(slope, lid);
  if (lid == 0u) {
    shared_u = select(0u, 1u, !(total < 0.0));
  }
  if (workgroupUniformLoad(&shared_u) == 1u) {
    // not a descent direction (or NaN): forget the history, take Lloyd's step
    slope = 0.0;
    for (var i = lid; i < n; i += ${SITE_WORKGROUP}u) {
      direction[i] = -gradient[i] * inv_hessian(i, mean_mass);
      slope += dot(gradient[i], direction[i]);
    }
    total = sum_wg(slope, lid);
    if (lid == 0u) {
      ring_meta[1] = 0u;
    }
  }
  if (lid == 0u) {
    ring_meta[${META.slope0}u] = bitcast<u32>(total);
  }
}
`,
});
