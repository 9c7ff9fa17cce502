import { EXACT_FIXED, gridUniformsBindingWgsl } from '../../exact/index.js';
import { HALFEDGE, threadEntry } from '../../mesh/halfedge-wgsl.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { linkWgsl } from '../../runtime/wgsl-module.js';

/**
 * Per half-edge: the Voronoi edge it stands for, once per pair of twins (from the lower
 * half-edge, or from a hull half-edge alone), clipped exactly to the box. As on the CPU
 * (`voronoiEdges`): an edge between two cells runs with the cell of the lower caller index on
 * its left, a hull ray with its site's cell on its left; an edge that shrinks to a point (two
 * equal circumcentres) or misses the box is left out. Writes the clipped segment (fixed point)
 * and a 0/1 flag, scanned afterwards into output positions.
 */
export const CLIP_EDGES_KERNEL = defineKernel({
  name: 'voronoi/clip-edges',
  bindings: {
    sites: 1,
    triangles: 2,
    halfedges: 3,
    cc: 4,
    ccFlags: 5,
    order: 6,
    segments: 7,
    keep: 8,
    grid_uniforms: 9,
  },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { halfedges: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read> triangles: array<u32>;
@group(0) @binding(3) var<storage, read> halfedges: array<i32>;
@group(0) @binding(4) var<storage, read> cc: array<vec4u>;
@group(0) @binding(5) var<storage, read> ccFlags: array<u32>;
@group(0) @binding(6) var<storage, read> order: array<u32>;
@group(0) @binding(7) var<storage, read_write> segments: array<vec4u>;
@group(0) @binding(8) var<storage, read_write> keep: array<u32>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 9)}

fn inside(t: u32) -> bool {
  return (ccFlags[t] & 1u) != 0u;
}

${threadEntry('e', 'params.halfedges', 'grid_init(grid_uniforms);')}
  let twin = halfedges[e];
  var visible = false;
  var r: ClipResult;
  if (twin < 0 || u32(twin) > e) {
    let i = triangles[e];
    let j = triangles[next_halfedge(e)];
    let t = e / 3u;
    let ka = sites[triangles[prev_halfedge(e)]];
    if (twin < 0) {
      r = clip_bisector(sites[i], sites[j], true, ka, cc[t], inside(t), false, ka, ka, false);
      visible = true;
    } else {
      let u = u32(twin) / 3u;
      let kb = sites[triangles[prev_halfedge(u32(twin))]];
      if (any(cc[t] != cc[u])) {
        if (order[i] > order[j]) {
          r = clip_bisector(sites[j], sites[i], true, kb, cc[u], inside(u), true, ka, cc[t], inside(t));
        } else {
          r = clip_bisector(sites[i], sites[j], true, ka, cc[t], inside(t), true, kb, cc[u], inside(u));
        }
        visible = true;
      }
    }
    visible = visible && (r.flags & 1u) != 0u && any(r.p0 != r.p1);
  }
  keep[e] = select(0u, 1u, visible);
  if (visible) {
    segments[2u * e] = r.p0;
    segments[2u * e + 1u] = r.p1;
  }
}
`,
});

/** Per kept half-edge: its segment converted to f64 at its scanned place (two points). */
export const EMIT_EDGES_KERNEL = defineKernel({
  name: 'voronoi/emit-edges',
  bindings: { segments: 1, place: 2, coords: 3, grid_uniforms: 4 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { halfedges: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> segments: array<vec4u>;
@group(0) @binding(2) var<storage, read> place: array<u32>;
@group(0) @binding(3) var<storage, read_write> coords: array<vec4u>;
${linkWgsl(EXACT_FIXED)}
${gridUniformsBindingWgsl(0, 4)}

${threadEntry('e', 'params.halfedges', 'grid_init(grid_uniforms);')}
  if (place[e + 1u] == place[e]) {
    return;
  }
  let at = 2u * place[e];
  let a = segments[2u * e];
  let b = segments[2u * e + 1u];
  coords[at] = fixed_point_to_f64(a);
  coords[at + 1u] = fixed_point_to_f64(b);
}
`,
});
