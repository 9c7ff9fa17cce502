/**
 * Range kernels of the Voronoi cells: the circumcentres, the short edges the vertex settling
 * starts from, and the two passes of the cell plan. The pooled worker threads run them from their
 * own source text (see `workers/range-kernels.ts`), so each stays self-contained — no reference to
 * anything outside its body, not even a helper or a constant — and takes plain numbers and typed
 * arrays (on SharedArrayBuffers when a worker runs it). Each does a slice of a pass exactly as the
 * serial pass does it, bit for bit.
 */

/**
 * The circumcentres of triangles `t0 .. t1` into `out` (world coordinates, one pair per
 * triangle), before the merge of cocircular groups: the arithmetic of `circumcenters`.
 *
 * `exact` is the exact orientation predicate (robust-predicates' `orient2d`) that nearly flat
 * triangles need; null (on a worker, which cannot import it) leaves such triangles unwritten and
 * lists them in the returned array, for the caller to redo with `exact`. Returns the triangles
 * left (empty when none, always empty with `exact`).
 *
 * @param sites world coordinates of the sites
 * @param local the local frame's coordinates of the sites
 * @param inverse 1 / the local frame's scale
 */
export function circumcentreRange(
  t0: number,
  t1: number,
  sites: Float64Array,
  local: Float64Array,
  inverse: number,
  triangles: Uint32Array,
  out: Float64Array,
  exact: ((ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => number) | null,
): number[] {
  // the largest magnitude a circumcentre offset may take; beyond it the vertex is "at infinity"
  const far = 1e300;
  const left: number[] = [];
  for (let t = t0; t < t1; t++) {
    let a = triangles[3 * t];
    let b = triangles[3 * t + 1];
    let c = triangles[3 * t + 2];
    // pivot on the vertex opposite the longest edge (rotating keeps the orientation): its two
    // edges are the shortest, which keeps the determinant accurate when an edge is tiny
    let rx = local[2 * a] - local[2 * b];
    let ry = local[2 * a + 1] - local[2 * b + 1];
    const lab = rx * rx + ry * ry;
    rx = local[2 * b] - local[2 * c];
    ry = local[2 * b + 1] - local[2 * c + 1];
    const lbc = rx * rx + ry * ry;
    rx = local[2 * c] - local[2 * a];
    ry = local[2 * c + 1] - local[2 * a + 1];
    const lca = rx * rx + ry * ry;
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
      if (exact === null) {
        left.push(t);
        continue;
      }
      det = -exact(ax, ay, local[2 * b], local[2 * b + 1], local[2 * c], local[2 * c + 1]);
    }
    const half = 0.5 / det;
    let ox = (ey * bl - dy * cl) * half;
    let oy = (dx * cl - ex * bl) * half;
    if (!(Math.abs(ox) <= far)) ox = ox > 0 ? far : ox < 0 ? -far : 0;
    if (!(Math.abs(oy) <= far)) oy = oy > 0 ? far : oy < 0 ? -far : 0;
    out[2 * t] = sites[2 * a] + ox * inverse;
    out[2 * t + 1] = sites[2 * a + 1] + oy * inverse;
  }
  return left;
}

/**
 * The interior half-edges e of `e0 .. e1` (with twin f > e) whose Voronoi edge — between the
 * centres `cc` of e's and f's triangles — is shorter than 2^-16 of its two sites' distance, and
 * not of zero length: the only edges `settleVertices` may merge (it repeats the same test, so
 * this list is the candidates of its first round).
 */
export function shortEdges(
  e0: number,
  e1: number,
  sites: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
): number[] {
  const short = 2 ** -32; // squared ratio, as SHORT in settle-vertices.ts
  const out: number[] = [];
  for (let e = e0; e < e1; e++) {
    const f = halfedges[e];
    if (f < e) continue;
    const t = (e / 3) | 0;
    const u = (f / 3) | 0;
    const ux = cc[2 * u] - cc[2 * t];
    const uy = cc[2 * u + 1] - cc[2 * t + 1];
    if (ux === 0 && uy === 0) continue;
    const i = triangles[e];
    const j = triangles[e % 3 === 2 ? e - 2 : e + 1];
    const dx = sites[2 * i + 1] - sites[2 * j + 1];
    const dy = sites[2 * j] - sites[2 * i];
    if (ux * ux + uy * uy <= short * (dx * dx + dy * dy)) out.push(e);
  }
  return out;
}

/**
 * Pass 1a of the cell plan (`planCells` in voronoi-cells.ts) over the half-edges `lo .. hi`:
 * `start[i]` = the first half-edge leaving site i (the least index: an atomic minimum, as ranges
 * run concurrently), `length[i]` += one per half-edge leaving i, except across a cocircular edge
 * when `merged` (its two triangles share one centre). `start` is -1 and `length` 0 beforehand.
 */
export function planDegrees(
  lo: number,
  hi: number,
  triangles: Uint32Array,
  edgeState: Uint8Array,
  merged: number,
  start: Int32Array,
  length: Int32Array,
): void {
  const COCIRCULAR = 2;
  for (let e = lo; e < hi; e++) {
    const i = triangles[e];
    let seen = Atomics.load(start, i);
    while (seen === -1 || e < seen) {
      const was = Atomics.compareExchange(start, i, seen, e);
      if (was === seen) break;
      seen = was;
    }
    if (merged === 0 || edgeState[e] !== COCIRCULAR) Atomics.add(length, i, 1);
  }
}

/**
 * Pass 1b of the cell plan over the triangles `lo .. hi` (after {@link planDegrees}): `inside[t]`
 * = 1 when its centre lies in the box (`box` = [min x, min y, max x, max y]), else its three sites
 * are marked not simple (`length` -1); a hull half-edge makes its two sites not simple and sets
 * the walk start of the site it points to (each hull site is pointed to by one hull edge).
 */
export function planBoundary(
  lo: number,
  hi: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  box: Float64Array,
  inside: Uint8Array,
  start: Int32Array,
  length: Int32Array,
): void {
  const [minX, minY, maxX, maxY] = box;
  for (let t = lo; t < hi; t++) {
    const x = cc[2 * t];
    const y = cc[2 * t + 1];
    if (x >= minX && x <= maxX && y >= minY && y <= maxY) inside[t] = 1;
    else {
      length[triangles[3 * t]] = -1;
      length[triangles[3 * t + 1]] = -1;
      length[triangles[3 * t + 2]] = -1;
    }
  }
  for (let e = 3 * lo; e < 3 * hi; e++) {
    if (halfedges[e] !== -1) continue;
    const f = e % 3 === 2 ? e - 2 : e + 1;
    start[triangles[f]] = f;
    length[triangles[e]] = -1;
    length[triangles[f]] = -1;
  }
}
