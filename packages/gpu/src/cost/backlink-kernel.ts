import { type CostConnectivity, crossedCells, type NeighbourStep, neighbourSteps } from '@geoframe/core';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { COST_PARAMS, COST_WORKGROUP, stepCost } from './cost-wgsl.js';

/** Constants of {@link BACKLINK_KERNEL}. */
export interface BacklinkConstants {
  [key: string]: number;
  connectivity: CostConnectivity;
}

/**
 * Per cell, after the cost, label and hop passes: the first step (in `neighbourSteps` order)
 * from a predecessor u that is tight (d(u) ⊕ w(u, v) = d(v)), has the same label and one hop
 * less; 255 at a source's own cell (hops 0) and at unreached cells. Hops fall by one along every
 * backlink, so following them always ends, at the source of the cell's label. Each thread writes
 * one word: the bytes of four consecutive cells.
 */
export const BACKLINK_KERNEL = defineKernel({
  name: 'cost/backlink',
  bindings: { values: 1, dist: 2, labels: 3, hops: 4, backlink: 5 },
  source: ({ connectivity }: BacklinkConstants) => {
    const steps = neighbourSteps(connectivity);
    const tries = steps
      .map((step, k) => {
        const [dx, dy, dz] = step;
        const cross = crossedCells(step);
        // a knight's move's crossed cells, as offsets from the predecessor q (inside the grid
        // whenever q and p are)
        const at = (c: NeighbourStep) =>
          `u32(i32(u) + ${c[0]} + ${c[1]} * size.x + ${c[2]} * size.x * size.y)`;
        const loads = cross
          ? `let ca = values[${at(cross[0])}];\n          let cb = values[${at(cross[1])}];`
          : '';
        const open = cross ? ' && ca >= 0.0 && cb >= 0.0' : '';
        return `if (b == 255u) {
        let q = p - vec3i(${dx}, ${dy}, ${dz});
        if (all(q >= vec3i(0)) && all(q < size)) {
          let u = u32((q.z * size.y + q.y) * size.x + q.x);
          let cu = values[u];
          let du = dist[u];
          ${loads}
          if (cu >= 0.0 && du != INF${open} && labels[u] == l && hops[u] + 1u == h) {
            if (bitcast<u32>(${stepCost(k, 'du', 'cu', 'v', cross ? ['ca', 'cb'] : undefined)}) == d) { b = ${k}u; }
          }
        }
      }`;
      })
      .join('\n      ');
    return /* wgsl */ `
${linkWgsl(COST_PARAMS)}
@group(0) @binding(1) var<storage, read> values: array<f32>;
@group(0) @binding(2) var<storage, read> dist: array<u32>;
@group(0) @binding(3) var<storage, read> labels: array<u32>;
@group(0) @binding(4) var<storage, read> hops: array<u32>;
@group(0) @binding(5) var<storage, read_write> backlink: array<u32>;

@compute @workgroup_size(${COST_WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let word = gid.y * nw.x * ${COST_WORKGROUP}u + gid.x;
  let cells = params.size.w;
  if (word * 4u >= cells) {
    return;
  }
  let size = vec3i(params.size.xyz);
  var packed = 0u;
  for (var j = 0u; j < 4u; j++) {
    let c = word * 4u + j;
    var b = 255u;
    if (c < cells) {
      let d = dist[c];
      let h = hops[c];
      let v = values[c];
      if (d != INF && h != INF && h != 0u && v >= 0.0) {
        let l = labels[c];
        let p = vec3i(i32(c % params.size.x), i32((c / params.size.x) % params.size.y), i32(c / (params.size.x * params.size.y)));
      ${tries}
      }
    }
    packed |= b << (8u * j);
  }
  backlink[word] = packed;
}
`;
  },
});
