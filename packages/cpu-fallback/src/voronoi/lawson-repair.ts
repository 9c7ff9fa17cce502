import { incircle } from 'robust-predicates';
import { nextHalfedge, prevHalfedge } from './buffers.js';

/** Per-half-edge state after {@link repairDelaunay}: the edge's quad is cocircular. */
export const EDGE_COCIRCULAR = 2;

/** What {@link repairDelaunay} did. */
export interface RepairResult {
  /** Number of edge flips (0 when delaunator's triangulation was already Delaunay). */
  flips: number;
  /** Number of interior edges whose two triangles share their circumcircle exactly. */
  cocircularEdges: number;
  /**
   * Per half-edge: 1 = strictly Delaunay, {@link EDGE_COCIRCULAR} = the four points are
   * cocircular (both triangles have the same circumcentre), 0 = hull edge.
   */
  edgeState: Uint8Array;
}

/**
 * Makes a triangulation Delaunay with exact predicates (Lawson's flip algorithm), in place.
 *
 * Every interior edge is tested once with Shewchuk's adaptive `incircle`; an edge whose opposite
 * vertex lies strictly inside its neighbour's circumcircle is flipped and the four edges around
 * the new pair are tested again. Ties (cocircular quads) are kept — any diagonal of a cocircular
 * quad gives the same Voronoi diagram — and recorded, so circumcentres can be merged. Exact
 * predicates make the flip sequence terminate. The hull never changes.
 *
 * @param xy site coordinates the triangulation refers to (the local frame)
 * @param triangles delaunator-convention triangles (clockwise in y-up), modified in place
 * @param halfedges twins, modified in place
 */
export function repairDelaunay(
  xy: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
): RepairResult {
  const count = triangles.length;
  const edgeState = new Uint8Array(count);
  let stack = new Int32Array(64);
  let top = 0;
  let flips = 0;

  const test = (e: number): void => {
    stack[top++] = e;
    while (top > 0) {
      const a = stack[--top];
      const b = halfedges[a];
      if (b < 0) {
        edgeState[a] = 0;
        continue;
      }
      const a1 = nextHalfedge(a);
      const a2 = prevHalfedge(a);
      const b1 = nextHalfedge(b);
      const b2 = prevHalfedge(b);
      const u = triangles[a];
      const v = triangles[a1];
      const w = triangles[a2];
      const z = triangles[b2];
      // (u, v, w) is counter-clockwise in robust-predicates' y-down convention: negative = inside
      const s = incircle(
        xy[2 * u],
        xy[2 * u + 1],
        xy[2 * v],
        xy[2 * v + 1],
        xy[2 * w],
        xy[2 * w + 1],
        xy[2 * z],
        xy[2 * z + 1],
      );
      if (s >= 0) {
        const state = s === 0 ? EDGE_COCIRCULAR : 1;
        edgeState[a] = state;
        edgeState[b] = state;
        continue;
      }
      // flip u-v into w-z: (u, v, w) + (v, u, z) become (z, v, w) + (w, u, z)
      const outerB2 = halfedges[b2];
      const outerA2 = halfedges[a2];
      triangles[a] = z;
      triangles[b] = w;
      link(halfedges, a, outerB2);
      link(halfedges, b, outerA2);
      link(halfedges, a2, b2);
      edgeState[a2] = 1;
      edgeState[b2] = 1;
      flips++;
      if (top + 4 > stack.length) {
        const grown = new Int32Array(stack.length * 2);
        grown.set(stack);
        stack = grown;
      }
      stack[top++] = a;
      stack[top++] = a1;
      stack[top++] = b;
      stack[top++] = b1;
    }
  };

  for (let e = 0; e < count; e++) {
    if (halfedges[e] > e) test(e);
  }
  let cocircularEdges = 0;
  for (let e = 0; e < count; e++) {
    if (edgeState[e] === EDGE_COCIRCULAR && halfedges[e] > e) cocircularEdges++;
  }
  return { flips, cocircularEdges, edgeState };
}

function link(halfedges: Int32Array, a: number, b: number): void {
  halfedges[a] = b;
  if (b >= 0) halfedges[b] = a;
}
