import { orient2d } from 'robust-predicates';
import { EDGE_COCIRCULAR } from './lawson-repair.js';
import type { LocalFrame } from './local-frame.js';

/** Largest magnitude a circumcentre offset may take; beyond it the vertex is "at infinity". */
const FAR = 1e300;

/**
 * The circumcentre of every triangle, in world coordinates (interleaved, one pair per triangle).
 *
 * Each is computed in the local frame relative to the triangle's first vertex and then added to
 * that vertex's world coordinates, so the only error that grows with the distance from the
 * origin is the final rounding. The orientation determinant falls back to the exact predicate
 * when the floating-point one is unreliable (nearly flat triangles).
 *
 * Triangles whose shared edges are cocircular (recorded by the Lawson repair) have the same
 * circumcentre mathematically; they get one bitwise-identical representative — the value of
 * the lowest-numbered triangle of their cocircular group — so cells never have zero-length or
 * back-and-forth edges where, e.g., four lattice points meet.
 *
 * @param sites world coordinates of the sites
 * @param frame the local frame the triangulation was built in
 * @param edgeState per half-edge state from `repairDelaunay`, or null
 * @param shared allocate the output on a SharedArrayBuffer (for worker threads)
 */
export function circumcenters(
  sites: Float64Array,
  frame: LocalFrame,
  triangles: Uint32Array,
  halfedges: Int32Array,
  edgeState: Uint8Array | null,
  cocircularEdges: number,
  shared = false,
): Float64Array {
  const local = frame.xy;
  const inverse = 1 / frame.scale;
  const nt = triangles.length / 3;
  const out = shared ? new Float64Array(new SharedArrayBuffer(16 * nt)) : new Float64Array(2 * nt);
  for (let t = 0; t < nt; t++) {
    let a = triangles[3 * t];
    let b = triangles[3 * t + 1];
    let c = triangles[3 * t + 2];
    // pivot on the vertex opposite the longest edge (rotating keeps the orientation): its two
    // edges are the shortest, which keeps the determinant accurate when an edge is tiny
    const lab = dist2(local, a, b);
    const lbc = dist2(local, b, c);
    const lca = dist2(local, c, a);
    if (lca > lbc && lca >= lab) {
      const r = a;
      a = b;
      b = c;
      c = r;
    } else if (lab > lbc && lab > lca) {
      const r = c;
      c = b;
      b = a;
      a = r;
    }
    const ax = local[2 * a];
    const ay = local[2 * a + 1];
    const dx = local[2 * b] - ax;
    const dy = local[2 * b + 1] - ay;
    const ex = local[2 * c] - ax;
    const ey = local[2 * c + 1] - ay;
    const bl = dx * dx + dy * dy;
    const cl = ex * ex + ey * ey;
    const p = dx * ey;
    const q = dy * ex;
    let det = p - q;
    // for nearly flat triangles the naive determinant may even have the wrong sign: ask the
    // exact predicate (its value is accurate, not just its sign)
    if (Math.abs(det) <= 1e-10 * (Math.abs(p) + Math.abs(q))) {
      det = -orient2d(ax, ay, local[2 * b], local[2 * b + 1], local[2 * c], local[2 * c + 1]);
    }
    const half = 0.5 / det;
    let ox = (ey * bl - dy * cl) * half;
    let oy = (dx * cl - ex * bl) * half;
    if (!(Math.abs(ox) <= FAR)) ox = ox > 0 ? FAR : ox < 0 ? -FAR : 0;
    if (!(Math.abs(oy) <= FAR)) oy = oy > 0 ? FAR : oy < 0 ? -FAR : 0;
    out[2 * t] = sites[2 * a] + ox * inverse;
    out[2 * t + 1] = sites[2 * a + 1] + oy * inverse;
  }
  if (edgeState !== null && cocircularEdges > 0) mergeCocircular(out, halfedges, edgeState, nt);
  return out;
}

function dist2(xy: Float64Array, i: number, j: number): number {
  const dx = xy[2 * i] - xy[2 * j];
  const dy = xy[2 * i + 1] - xy[2 * j + 1];
  return dx * dx + dy * dy;
}

/** Union–find over triangles joined by cocircular edges; every member takes its root's value. */
function mergeCocircular(out: Float64Array, halfedges: Int32Array, edgeState: Uint8Array, nt: number): void {
  const parent = new Int32Array(nt);
  for (let t = 0; t < nt; t++) parent[t] = t;
  const find = (t: number): number => {
    while (parent[t] !== t) {
      parent[t] = parent[parent[t]];
      t = parent[t];
    }
    return t;
  };
  for (let e = 0; e < halfedges.length; e++) {
    const f = halfedges[e];
    if (f <= e || edgeState[e] !== EDGE_COCIRCULAR) continue;
    const ra = find((e / 3) | 0);
    const rb = find((f / 3) | 0);
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  }
  for (let t = 0; t < nt; t++) {
    const r = find(t);
    if (r !== t) {
      out[2 * t] = out[2 * r];
      out[2 * t + 1] = out[2 * r + 1];
    }
  }
}
