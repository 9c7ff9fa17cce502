import type { KernelSpec } from '../runtime/pipeline-cache.js';
import { COST_PARAMS, COST_WORKGROUP, FLAGS_TAIL, MAX_BATCH, TAIL } from './cost-wgsl.js';

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
export const FILL_KERNEL: KernelSpec<FillConstants> = {
  name: 'cost/fill',
  source: ({ hops, dist }) => /* wgsl */ `
${COST_PARAMS}
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
};

/**
 * Seeds the sources after {@link FILL_KERNEL}: each source's cell gets cost 0 and the lowest id
 * of the sources in it (an atomic minimum); a source on a barrier cell seeds nothing.
 */
export const SEED_KERNEL: KernelSpec<Record<string, never>> = {
  name: 'cost/seed',
  source: () => /* wgsl */ `
${COST_PARAMS}
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
};

/** Constants of {@link NEXT_ROUND_KERNEL}. */
export interface NextRoundConstants {
  [key: string]: number;
  /** The device's maxComputeWorkgroupsPerDimension. */
  maxX: number;
  /** 1: the ordered cost pass — also the next round's threshold (cost-order.ts). */
  ordered: number;
}

/**
 * Between two rounds (one thread): the next round's indirect dispatch arguments from its list's
 * length (split over x and y; the relax kernel skips ids past the length), the finished round's
 * list emptied for reuse two rounds on, the round's `changed` word (whether any tile is next),
 * and the round counter advanced. Ordered: the next round's threshold, the least key delivered
 * to its list + Δ (+∞ when that key is: tiles listed without a key then all run).
 */
export const NEXT_ROUND_KERNEL: KernelSpec<NextRoundConstants> = {
  name: 'cost/next-round',
  source: ({ maxX, ordered }) => /* wgsl */ `
${COST_PARAMS}
@group(0) @binding(6) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> args: array<u32>;

@compute @workgroup_size(1)
fn main() {
  let tiles = params.tiles.w;
  let tail = ${FLAGS_TAIL('tiles')};
  let r = atomicLoad(&flags[tail + ${MAX_BATCH + 3}u]);
  let p = r & 1u;
  let q = 1u - p;
  let count = atomicLoad(&flags[4u * tiles + q]);
  let x = min(count, ${maxX}u);
  args[3u * q] = x;
  args[3u * q + 1u] = select(1u, (count + x - 1u) / max(x, 1u), x > 0u);
  args[3u * q + 2u] = 1u;
  atomicStore(&flags[4u * tiles + p], 0u);
  atomicStore(&flags[tail + r % ${MAX_BATCH}u], select(0u, 1u, count > 0u));
  atomicStore(&flags[tail + ${MAX_BATCH + 3}u], r + 1u);
  ${
    ordered
      ? `let m = atomicLoad(&flags[tail + ${TAIL.nextMin}u + q]);
  let th = select(bitcast<u32>(bitcast<f32>(m) + bitcast<f32>(params.misc.y)), INF, m >= INF);
  atomicStore(&flags[tail + ${TAIL.threshold}u], th);
  atomicStore(&flags[tail + ${TAIL.nextMin}u + p], INF);`
      : ''
  }
}
`,
};
