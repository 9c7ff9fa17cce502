import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
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
 * host can name it; a subnormal value (or 1/v), which a device may flush to 0, puts it into
 * `bad[3]` (the GPU declines: its bound would not hold). Classified on the bits alone.
 */
export const PREPARE_KERNEL = defineKernel({
  name: 'cost/prepare',
  bindings: { values: 1, bad: 8 },
  source: ({ compliance }: PrepareConstants) => /* wgsl */ `
${linkWgsl(COST_PARAMS)}
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
  // subnormal values (or a subnormal 1/v) may be flushed to 0 by the device: declined
  let u = ${compliance ? '1.0 / bitcast<f32>(magnitude)' : 'bitcast<f32>(magnitude)'};
  let um = bitcast<u32>(u) & 0x7fffffffu;
  if ((magnitude != 0u && magnitude < 0x00800000u) || (um != 0u && um < 0x00800000u) || um >= INF) {
    atomicMin(&bad[3], i);
  }
  values[i] = u;
}
`,
});

/** Constants of {@link CHECK_KERNEL}. */
export interface CheckConstants {
  [key: string]: number;
  /** 1: backlinks were computed (binding 5 holds them, four cells a word). */
  backlink: number;
}

/**
 * The output's consistency, on the device: every reached cell has a label and (with backlinks)
 * a backlink unless it is its label's source cell; without a cost cap, no open cell next to a
 * reached one is unreached (else its cost overflowed f32: `bad[2]`, declined). The lowest cell
 * failing the first goes into `bad[1]`
 * (the label and backlink passes recompute each step's cost; they miss a tight step only if the
 * device rounded one step two ways — an error, never a silently wrong result).
 */
export const CHECK_KERNEL = defineKernel({
  name: 'cost/check',
  bindings: {
    values: 1,
    dist: 2,
    labels: 3,
    backlink: { binding: 4, optional: true },
    sources: { binding: 5, optional: true },
    bad: 8,
  },
  source: ({ backlink }: CheckConstants) => /* wgsl */ `
${linkWgsl(COST_PARAMS)}
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read> dist: array<u32>;
@group(0) @binding(3) var<storage, read> labels: array<u32>;
${backlink ? '@group(0) @binding(4) var<storage, read> backlink: array<u32>;' : ''}
${backlink ? '@group(0) @binding(5) var<storage, read> sources: array<u32>;' : ''}
@group(0) @binding(8) var<storage, read_write> bad: array<atomic<u32>>;

@compute @workgroup_size(${COST_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  ${LINEAR}
  if (i >= params.size.w) {
    return;
  }
  if (dist[i] == INF) {
    // without a cap (or one past f32's range), an open cell next to a reached one is unreached
    // only because its cost overflowed f32: declined
    if (values[i] >= 0.0 && params.misc.x >= 0x7f7fffffu) {
      let c = vec3u(i % params.size.x, (i / params.size.x) % params.size.y, i / (params.size.x * params.size.y));
      for (var a = 0u; a < 3u; a++) {
        for (var o = 0u; o < 2u; o++) {
          var q = c;
          q[a] = select(c[a] + 1u, c[a] - 1u, o == 0u);
          if (q[a] < params.size[a] && dist[(q.z * params.size.y + q.y) * params.size.x + q.x] != INF) {
            atomicMin(&bad[2], i);
          }
        }
      }
    }
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
});
