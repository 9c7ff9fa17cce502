import { EXACT_FIXED, gridUniformsBindingWgsl } from '../../exact/index.js';
import { HALFEDGE, threadEntry } from '../../mesh/halfedge-wgsl.js';
import { FAULT_FAN_WALK, faultWgsl } from '../../runtime/kernel-fault.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { linkWgsl } from '../../runtime/wgsl-module.js';
import { RING_FAULTED } from './ring-kernel.js';
import { SAME_POINT_WGSL } from './same-point-wgsl.js';

// After the ring kernel: each cell's output length (for the offset scan), then its ring emitted at
// its offset as f64 (adr/0011, adr/0015).

/**
 * Per site, after the ring kernel: its output length at its caller index for the offset scan:
 * the closed length less the points equal in f64 to the point before them (distinct grid points
 * rounding to one double), which the emit drops unless `params.keep_repeats`. A walk past its
 * bound raises the fault flag (runtime/kernel-fault.ts) and leaves an empty cell.
 */
export const RING_LENGTHS_KERNEL = defineKernel({
  name: 'voronoi/ring-lengths',
  bindings: { ringInfo: 1, order: 2, lengths: 3, fault_flags: 4, ring: 5, slotOffset: 6, grid_uniforms: 7 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32, keep_repeats: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> ringInfo: array<vec2u>;
@group(0) @binding(2) var<storage, read> order: array<u32>;
@group(0) @binding(3) var<storage, read_write> lengths: array<u32>;
${faultWgsl(4)}
@group(0) @binding(5) var<storage, read> ring: array<vec4u>;
@group(0) @binding(6) var<storage, read> slotOffset: array<u32>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 7)}
${SAME_POINT_WGSL}

${threadEntry('k', 'params.sites', 'grid_init(grid_uniforms);')}
  var closed = ringInfo[k].x;
  if (closed == ${RING_FAULTED}u) {
    raise_fault(${FAULT_FAN_WALK}u);
    closed = 0u;
    ringInfo[k] = vec2u(0u, 0u);
  } else if (closed > 0u && params.keep_repeats == 0u) {
    // the closed ring's m + 1 points have m neighbouring pairs: the m cyclic pairs of the ring
    let m = closed - 1u;
    let base = slotOffset[k];
    var prev = vec4u(0u);
    var equal = 0u;
    for (var q = 0u; q <= m; q++) {
      let v = fixed_point_to_f64(ring[base + (q + m - 1u) % m]);
      if (q > 0u && same_point(v, prev)) {
        equal += 1u;
      }
      prev = v;
    }
    closed -= equal;
  }
  lengths[order[k]] = closed;
}
`,
});

/**
 * Per site: copies its finished ring from the scratch slot to its place in the output (the offset
 * of its caller index), rotated to its lowest vertex, converted to f64, closed by repeating the
 * first point, a point equal to the one before it dropped unless `params.keep_repeats`. Output
 * points are `vec4u` = the f64 bits of x and y: the buffer reads as interleaved xy f64.
 */
export const EMIT_RINGS_KERNEL = defineKernel({
  name: 'voronoi/emit-rings',
  bindings: { ring: 1, ringInfo: 2, slotOffset: 3, order: 4, ringOffsets: 5, coords: 6, grid_uniforms: 7 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32, keep_repeats: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> ring: array<vec4u>;
@group(0) @binding(2) var<storage, read> ringInfo: array<vec2u>;
@group(0) @binding(3) var<storage, read> slotOffset: array<u32>;
@group(0) @binding(4) var<storage, read> order: array<u32>;
@group(0) @binding(5) var<storage, read> ringOffsets: array<u32>;
@group(0) @binding(6) var<storage, read_write> coords: array<vec4u>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 7)}
${SAME_POINT_WGSL}

${threadEntry('k', 'params.sites', 'grid_init(grid_uniforms);')}
  let info = ringInfo[k];
  if (info.x == 0u) {
    return;
  }
  let m = info.x - 1u;
  let base = slotOffset[k];
  let c = order[k];
  let dst = ringOffsets[c];
  if (ringOffsets[c + 1u] > arrayLength(&coords)) {
    return; // past an output sized by a guess: the host sees the total and emits again
  }
  let keep = params.keep_repeats != 0u;
  var q = info.y;
  var w = dst;
  var prev = vec4u(0u);
  for (var p = 0u; p < m; p++) {
    let v = fixed_point_to_f64(ring[base + q]);
    if (p == 0u || keep || !same_point(v, prev)) {
      coords[w] = v;
      w += 1u;
    }
    prev = v;
    q += 1u;
    if (q == m) {
      q = 0u;
    }
  }
  if (keep || !same_point(coords[dst], prev)) {
    coords[w] = coords[dst];
  }
}
`,
});
