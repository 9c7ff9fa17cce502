import type { KernelSpec } from '../runtime/pipeline-cache.js';
import { COST_PARAMS, COST_WORKGROUP } from './cost-wgsl.js';

const LINEAR = /* wgsl */ `let i = gid.y * nw.x * ${COST_WORKGROUP}u + gid.x;`;

/** Constants of {@link PREPARE_KERNEL}. */
export interface PrepareConstants {
  [key: string]: number;
  /** 1: values are stiffness ('compliance'), turned into 1/v; 0: costs, kept. */
  compliance: number;
}

/**
 * The caller's values, in place, into what the relax passes read: NaN (by its bits, which no
 * fast-math can assume away) → −1, a barrier; 'compliance' → 1/v. A value that is not valid
 * (negative, infinite; for 'compliance' also 0) puts the lowest such cell into `bad[0]`, so the
 * host can name it. Classified on the bits alone.
 */
export const PREPARE_KERNEL: KernelSpec<PrepareConstants> = {
  name: 'cost/prepare',
  source: ({ compliance }) => /* wgsl */ `
${COST_PARAMS}
@group(0) @binding(1) var<storage, read_write> values: array<f32>;
@group(0) @binding(8) var<storage, read_write> bad: array<atomic<u32>>;

@compute @workgroup_size(${COST_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  ${LINEAR}
  if (i >= params.size.w) {
    return;
  }
  let b = bitcast<u32>(values[i]);
  let magnitude = b & 0x7fffffffu;
  if (magnitude > INF) {
    values[i] = -1.0;
    return;
  }
  let negative = b != magnitude && magnitude != 0u;
  if (negative || magnitude == INF${compliance ? ' || magnitude == 0u' : ''}) {
    atomicMin(&bad[0], i);
    return;
  }
  ${compliance ? 'values[i] = 1.0 / bitcast<f32>(magnitude);' : 'values[i] = bitcast<f32>(magnitude);'}
}
`,
};

/** Constants of {@link CHECK_KERNEL}. */
export interface CheckConstants {
  [key: string]: number;
  /** 1: backlinks were computed (binding 5 holds them, four cells a word). */
  backlink: number;
}

/**
 * The output's consistency, on the device: every reached cell has a label and (with backlinks)
 * a backlink unless it is its label's source cell. The lowest cell failing it goes into `bad[1]`
 * (the label and backlink passes recompute each step's cost; they miss a tight step only if the
 * device rounded one step two ways — an error, never a silently wrong result).
 */
export const CHECK_KERNEL: KernelSpec<CheckConstants> = {
  name: 'cost/check',
  source: ({ backlink }) => /* wgsl */ `
${COST_PARAMS}
@group(0) @binding(2) var<storage, read> dist: array<u32>;
@group(0) @binding(3) var<storage, read> labels: array<u32>;
${backlink ? '@group(0) @binding(4) var<storage, read> backlink: array<u32>;' : ''}
${backlink ? '@group(0) @binding(5) var<storage, read> sources: array<u32>;' : ''}
@group(0) @binding(8) var<storage, read_write> bad: array<atomic<u32>>;

@compute @workgroup_size(${COST_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  ${LINEAR}
  if (i >= params.size.w || dist[i] == INF) {
    return;
  }
  let l = labels[i];
  var wrong = l == NONE;
  ${
    backlink
      ? `if (!wrong) {
    let b = (backlink[i / 4u] >> (8u * (i % 4u))) & 255u;
    wrong = b == 255u && sources[l] != i;
  }`
      : ''
  }
  if (wrong) {
    atomicMin(&bad[1], i);
  }
}
`,
};
