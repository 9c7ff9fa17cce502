import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { COST_PARAMS, COST_WORKGROUP } from './cost-wgsl.js';

/** Constants of {@link FILL_KERNEL}. */
export interface FillConstants {
  [key: string]: number;
  /** 1: also fill the hop counts (backlinks asked for). */
  hops: number;
  /** 0: leave the costs (labels alone are reset, for the monotone label pass). */
  dist: number;
}

const LINEAR = /* wgsl */ `let i = gid.y * nw.x * ${COST_WORKGROUP}u + gid.x;`;

/** Every cell unreached: cost +∞, no label (and ∞ hops). Cheaper than uploading those arrays. */
export const FILL_KERNEL = defineKernel({
  name: 'cost/fill',
  bindings: {
    dist: { binding: 2, optional: true },
    labels: 3,
    hops: { binding: 4, optional: true },
  },
  source: ({ hops, dist }: FillConstants) => /* wgsl */ `
${linkWgsl(COST_PARAMS)}
${dist ? '@group(0) @binding(2) var<storage, read_write> dist: array<u32>;' : ''}
@group(0) @binding(3) var<storage, read_write> labels: array<u32>;
${hops ? '@group(0) @binding(4) var<storage, read_write> hops: array<u32>;' : ''}

@compute @workgroup_size(${COST_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  ${LINEAR}
  if (i >= params.size.w) {
    return;
  }
  ${dist ? 'dist[i] = INF;' : ''}
  labels[i] = NONE;
  ${hops ? 'hops[i] = INF;' : ''}
}
`,
});

/**
 * Seeds the sources after {@link FILL_KERNEL}: each source's cell gets cost 0 and the lowest id
 * of the sources in it (an atomic minimum); a source on a barrier cell seeds nothing.
 */
export const SEED_KERNEL = defineKernel({
  name: 'cost/seed',
  bindings: { values: 1, dist: 2, labels: 3, sources: 5 },
  source: () => /* wgsl */ `
${linkWgsl(COST_PARAMS)}
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read_write> dist: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> labels: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read> sources: array<u32>;

@compute @workgroup_size(${COST_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  ${LINEAR}
  if (i >= params.extra.x) {
    return;
  }
  let cell = sources[i];
  if (values[cell] >= 0.0) {
    atomicStore(&dist[cell], 0u);
    atomicMin(&labels[cell], i);
  }
}
`,
});
