import { EXACT_FIXED, gridUniformsBindingWgsl } from '../../exact/index.js';
import { HALFEDGE, threadEntry } from '../../mesh/halfedge-wgsl.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { linkWgsl } from '../../runtime/wgsl-module.js';
import { SAME_POINT_WGSL } from './same-point-wgsl.js';

// The indexed emit (adr/0015): each Voronoi vertex crosses to the host once, as f64, and every
// ring point as a u32 index into those vertices. A circumcentre is converted once per triangle by
// the emit's own rounding (`fixed_point_to_f64`), so the expanded rings are the emit's bit for
// bit; a ring point matched to no circumcentre (box-clip points, corners) gets a vertex of its own.

/** `ids` entry of a ring point matched to no circumcentre. */
export const NO_VERTEX = 0xffffffff;

/** Per triangle: its circumcentre as f64 bits (x, y), vertex `t` of the indexed output. */
export const VERTEX_TABLE_KERNEL = defineKernel({
  bindings: { cc: 1, vertices: 2, grid_uniforms: 3 },
  name: 'voronoi/vertex-table',
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { triangles: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> cc: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> vertices: array<vec4u>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 3)}

${threadEntry('t', 'params.triangles', 'grid_init(grid_uniforms);')}
  vertices[t] = fixed_point_to_f64(cc[t]);
}
`,
});

/**
 * Per site, after the ring kernel: for each point of its finished ring (in its scratch slot), a
 * triangle of its fan whose circumcentre equals it, or {@link NO_VERTEX}. The ring of a simple
 * cell is a cyclic subsequence of its fan's circumcentres (consecutive repeats and non-convex
 * vertices dropped), so one forward walk of the fan matches it; every match is checked by value,
 * so a point the walk misses (a clipped or hull cell, a walk cut at its bound) only costs a
 * vertex of its own, never a wrong one.
 */
export const RING_VERTEX_IDS_KERNEL = defineKernel({
  bindings: { halfedges: 1, start: 2, kind: 3, cc: 4, ring: 5, ringInfo: 6, slotOffset: 7, ids: 8 },
  name: 'voronoi/ring-vertex-ids',
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> halfedges: array<i32>;
@group(0) @binding(2) var<storage, read> start: array<u32>;
@group(0) @binding(3) var<storage, read> kind: array<u32>;
@group(0) @binding(4) var<storage, read> cc: array<vec4u>;
@group(0) @binding(5) var<storage, read> ring: array<vec4u>;
@group(0) @binding(6) var<storage, read> ringInfo: array<vec2u>;
@group(0) @binding(7) var<storage, read> slotOffset: array<u32>;
@group(0) @binding(8) var<storage, read_write> ids: array<u32>;

${threadEntry('k', 'params.sites')}
  let info = ringInfo[k];
  if (info.x == 0u) {
    return;
  }
  let m = info.x - 1u;
  let base = slotOffset[k];
  // a fan has no more triangles than its slot has points
  let most = slotOffset[k + 1u] - base + 1u;
  let simple = (kind[k] & 1u) != 0u;
  var e = ~start[k];
  for (var q = 0u; q < m; q++) {
    let p = ring[base + q];
    var id = ${NO_VERTEX}u;
    if (simple) {
      for (var s = 0u; s < most; s++) {
        let t = e / 3u;
        let twin = halfedges[e];
        if (all(cc[t] == p)) {
          id = t;
        }
        if (twin < 0) {
          break;
        }
        e = next_halfedge(u32(twin));
        if (id != ${NO_VERTEX}u) {
          break;
        }
      }
    }
    ids[base + q] = id;
  }
}
`,
});

/**
 * Per site: the indexed twin of the emit kernel — its ring's vertex indices at its place in the
 * output (the offset of its caller index), rotated to its lowest vertex and closed by repeating
 * the first, repeats dropped as the emit drops them; a point without a circumcentre takes vertex `triangles + e`, e counted by an atomic,
 * its f64 bits written there while e is under the vertex buffer's room (past it the host emits
 * the coordinates instead).
 */
export const EMIT_INDEX_KERNEL = defineKernel({
  bindings: {
    ring: 1,
    ringInfo: 2,
    slotOffset: 3,
    order: 4,
    ringOffsets: 5,
    ids: 6,
    index: 7,
    vertices: 8,
    extra: 9,
    grid_uniforms: 10,
  },
  name: 'voronoi/emit-index',
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32, keep_repeats: u32, triangles: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> ring: array<vec4u>;
@group(0) @binding(2) var<storage, read> ringInfo: array<vec2u>;
@group(0) @binding(3) var<storage, read> slotOffset: array<u32>;
@group(0) @binding(4) var<storage, read> order: array<u32>;
@group(0) @binding(5) var<storage, read> ringOffsets: array<u32>;
@group(0) @binding(6) var<storage, read> ids: array<u32>;
@group(0) @binding(7) var<storage, read_write> index: array<u32>;
@group(0) @binding(8) var<storage, read_write> vertices: array<vec4u>;
@group(0) @binding(9) var<storage, read_write> extra: array<atomic<u32>>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 10)}
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
  if (ringOffsets[c + 1u] > arrayLength(&index)) {
    return; // past an output sized by a guess: the host sees the total and emits again
  }
  let room = arrayLength(&vertices) - params.triangles;
  let keep = params.keep_repeats != 0u;
  var q = info.y;
  var w = dst;
  var prev = vec4u(0u);
  var first = vec4u(0u);
  for (var p = 0u; p < m; p++) {
    // the point's f64 bits decide the repeats as the coordinate emit does
    let v = fixed_point_to_f64(ring[base + q]);
    if (p == 0u) {
      first = v;
    }
    if (p == 0u || keep || !same_point(v, prev)) {
      var id = ids[base + q];
      if (id == ${NO_VERTEX}u) {
        let e = atomicAdd(&extra[0], 1u);
        if (e < room) {
          vertices[params.triangles + e] = v;
        }
        id = params.triangles + e;
      }
      index[w] = id;
      w += 1u;
    }
    prev = v;
    q += 1u;
    if (q == m) {
      q = 0u;
    }
  }
  if (keep || !same_point(first, prev)) {
    index[w] = index[dst];
  }
}
`,
});
