import { orient2d } from 'robust-predicates';
import { EDGE_COCIRCULAR } from '../delaunay/lawson-repair.js';
import type { LocalFrame } from '../delaunay/local-frame.js';
import { WorkMeter } from '../workers/work-meter.js';
import { runRanges, toShared } from '../workers/worker-pool.js';
import { circumcentreRange, shortEdges } from './cell-kernels.js';
import { settleVertices } from './settle-vertices.js';

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
 * back-and-forth edges where, e.g., four lattice points meet. Then the two ends of a Voronoi
 * edge that rounding reversed are merged, for every cell at once (`settleVertices`), so the
 * cells stay a tiling with each vertex one shared value.
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
  const nt = triangles.length / 3;
  const out = shared ? new Float64Array(new SharedArrayBuffer(16 * nt)) : new Float64Array(2 * nt);
  circumcentreRange(0, nt, sites, frame.xy, 1 / frame.scale, triangles, out, orient2d);
  const groups =
    edgeState !== null && cocircularEdges > 0 ? mergeCocircular(out, halfedges, edgeState, nt) : null;
  // the short edges first, then the settling pass on them: the same steps as the parallel path
  const candidates = shortEdges(0, triangles.length, sites, triangles, halfedges, out);
  const error = (t: number) => centreError(sites, frame, triangles, out, t);
  settleVertices(sites, triangles, halfedges, out, groups, error, candidates);
  return out;
}

/**
 * {@link circumcenters} (on a SharedArrayBuffer) with the per-triangle pass split by ranges of
 * triangles over `threads` threads (see `runRanges`); the triangles whose orientation needs the
 * exact predicate, and the merge of cocircular groups, are done here afterwards. The same output,
 * bit for bit. `sites`, `frame.xy` and `triangles` must lie on SharedArrayBuffers (`halfedges`
 * is copied to one unless it does). The short edges of `settleVertices` are found on the workers.
 * `meter` counts the triangles of the ranges finished.
 */
export async function circumcentersParallel(
  sites: Float64Array,
  frame: LocalFrame,
  triangles: Uint32Array,
  halfedges: Int32Array,
  edgeState: Uint8Array | null,
  cocircularEdges: number,
  threads: number,
  meter = WorkMeter.SILENT,
): Promise<Float64Array> {
  const nt = triangles.length / 3;
  const out = new Float64Array(new SharedArrayBuffer(16 * nt));
  const shared = toShared(halfedges);
  const local = frame.xy;
  const inverse = 1 / frame.scale;
  const left = await runRanges(
    'circumcentreRange',
    nt,
    threads,
    [sites, local, inverse, triangles, out, null],
    meter,
  );
  for (const ts of left as number[][]) {
    for (const t of ts) circumcentreRange(t, t + 1, sites, local, inverse, triangles, out, orient2d);
  }
  const groups =
    edgeState !== null && cocircularEdges > 0 ? mergeCocircular(out, halfedges, edgeState, nt) : null;
  // the short edges are found on the workers; the rest of the settling pass is rare work
  const found = await runRanges('shortEdges', triangles.length, threads, [sites, triangles, shared, out]);
  const candidates = (found as number[][]).flat();
  const error = (t: number) => centreError(sites, frame, triangles, out, t);
  settleVertices(sites, triangles, halfedges, out, groups, error, candidates);
  return out;
}

/**
 * Union–find over triangles joined by cocircular edges; every member takes its root's value.
 * Returns the union–find (for `settleVertices`, which moves groups whole).
 */
function mergeCocircular(
  out: Float64Array,
  halfedges: Int32Array,
  edgeState: Uint8Array,
  nt: number,
): Int32Array {
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
  return parent;
}

const EPS = 2 ** -53;

/**
 * A bound on the distance between triangle t's computed circumcentre (`cc[t]`, before any merge)
 * and the exact one: the rounding of `circumcentreRange`'s arithmetic, done again for t with
 * absolute values (generous factors), plus the final addition to the world coordinates.
 */
function centreError(
  sites: Float64Array,
  frame: LocalFrame,
  triangles: Uint32Array,
  cc: Float64Array,
  t: number,
): number {
  const local = frame.xy;
  let a = triangles[3 * t];
  let b = triangles[3 * t + 1];
  let c = triangles[3 * t + 2];
  // the pivot of circumcentreRange: the vertex opposite the longest edge
  const length2 = (p: number, q: number) =>
    (local[2 * p] - local[2 * q]) ** 2 + (local[2 * p + 1] - local[2 * q + 1]) ** 2;
  const lab = length2(a, b);
  const lbc = length2(b, c);
  const lca = length2(c, a);
  if (lca > lbc && lca >= lab) [a, b, c] = [b, c, a];
  else if (lab > lbc && lab > lca) [a, b, c] = [c, a, b];
  const ax = local[2 * a];
  const ay = local[2 * a + 1];
  const dx = local[2 * b] - ax;
  const dy = local[2 * b + 1] - ay;
  const ex = local[2 * c] - ax;
  const ey = local[2 * c + 1] - ay;
  const bl = dx * dx + dy * dy;
  const cl = ex * ex + ey * ey;
  const pq = Math.abs(dx * ey) + Math.abs(dy * ex);
  const det = Math.abs(orient2d(ax, ay, local[2 * b], local[2 * b + 1], local[2 * c], local[2 * c + 1]));
  if (det === 0) return Number.POSITIVE_INFINITY;
  const ox = (Math.abs(ey * bl) + Math.abs(dy * cl)) / (2 * det);
  const oy = (Math.abs(dx * cl) + Math.abs(ex * bl)) / (2 * det);
  // the numerators' roundings, and the float determinant's where it was trusted (≤ 1e10 ulps)
  const detRelative = Math.min(1, (8 * EPS * pq) / det);
  const worst = 16 * EPS * (ox + oy) + (ox + oy) * 2 * detRelative;
  const world =
    4 *
    EPS *
    (Math.abs(cc[2 * t]) + Math.abs(cc[2 * t + 1]) + Math.abs(sites[2 * a]) + Math.abs(sites[2 * a + 1]));
  return worst / frame.scale + world + Number.MIN_VALUE;
}
