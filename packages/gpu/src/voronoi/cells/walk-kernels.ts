import { HALFEDGE, threadEntry } from '../../mesh/halfedge-wgsl.js';
import { FAULT_FAN_WALK, faultWgsl } from '../../runtime/kernel-fault.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { linkWgsl } from '../../runtime/wgsl-module.js';

/** Bit of a site's kind: its cell is simple (not on the hull, every vertex inside the box). */
export const KIND_SIMPLE = 1;
/** Bit of a site's kind: the site is on the convex hull (its cell is unbounded). */
export const KIND_HULL = 2;

/**
 * Pass 1 of the walk starts: each half-edge offers itself as the walk start of its origin site;
 * the lowest index wins, so the result does not depend on scheduling. Starts are stored
 * complemented (`~e`) so that a zero-cleared buffer and `atomicMax` pick the lowest.
 */
export const WALK_START_KERNEL = defineKernel({
  name: 'voronoi/walk-start',
  bindings: { triangles: 1, start: 2 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { halfedges: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triangles: array<u32>;
@group(0) @binding(2) var<storage, read_write> start: array<atomic<u32>>;

${threadEntry('e', 'params.halfedges')}
  atomicMax(&start[triangles[e]], ~e);
}
`,
});

/**
 * Pass 2 of the walk starts: a hull site must start its walk just after the hull edge that
 * ends at it (so the walk sweeps its fan counter-clockwise from one ray to the other). Each hull
 * site ends exactly one hull edge, so the stores never collide.
 */
export const HULL_START_KERNEL = defineKernel({
  name: 'voronoi/hull-start',
  bindings: { triangles: 1, halfedges: 2, start: 3 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { halfedges: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triangles: array<u32>;
@group(0) @binding(2) var<storage, read> halfedges: array<i32>;
@group(0) @binding(3) var<storage, read_write> start: array<u32>;

${threadEntry('e', 'params.halfedges')}
  if (halfedges[e] < 0) {
    let f = next_halfedge(e);
    start[triangles[f]] = ~f;
  }
}
`,
});

/**
 * Per site: walks its fan once to find its degree and whether its cell is simple, and sizes its
 * slot of the ring scratch: `degree` points for a simple cell (its circumcentres, before
 * duplicates merge), `2·degree + 8` for any other (each boundary edge adds at most its two clip
 * points, the box adds at most four corners, and a hull cell has one edge more than triangles).
 * Writes the kind (bits {@link KIND_SIMPLE}, {@link KIND_HULL}) and the slot size; the slot sizes
 * are then scanned into offsets. A walk longer than the half-edge count raises
 * `FAULT_FAN_WALK` in the fault word (binding 6).
 */
export const PLAN_CELLS_KERNEL = defineKernel({
  name: 'voronoi/plan-cells',
  bindings: { halfedges: 1, start: 2, ccFlags: 3, kind: 4, slots: 5, fault_flags: 6 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> halfedges: array<i32>;
@group(0) @binding(2) var<storage, read> start: array<u32>;
@group(0) @binding(3) var<storage, read> ccFlags: array<u32>;
@group(0) @binding(4) var<storage, read_write> kind: array<u32>;
@group(0) @binding(5) var<storage, read_write> slots: array<u32>;
${faultWgsl(6)}

${threadEntry('k', 'params.sites')}
  let e0 = ~start[k];
  var hull = halfedges[prev_halfedge(e0)] < 0;
  var inside = true;
  var degree = 0u;
  var e = e0;
  // a fan has fewer edges than the triangulation has half-edges: more steps means the twins
  // do not close around the site, and the run is discarded (see runtime/kernel-fault.ts)
  let most = arrayLength(&halfedges);
  loop {
    if (degree >= most) {
      raise_fault(${FAULT_FAN_WALK}u);
      break;
    }
    inside = inside && (ccFlags[e / 3u] & 1u) != 0u;
    degree += 1u;
    let twin = halfedges[e];
    if (twin < 0) {
      hull = true;
      break;
    }
    e = next_halfedge(u32(twin));
    if (e == e0) {
      break;
    }
  }
  let simple = inside && !hull;
  kind[k] = select(0u, ${KIND_SIMPLE}u, simple) | select(0u, ${KIND_HULL}u, hull);
  slots[k] = select(2u * degree + 8u, degree, simple);
}
`,
});
