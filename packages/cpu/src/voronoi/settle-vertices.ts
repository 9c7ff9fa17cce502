import { GeoframeError } from '@geoframe/core';
import { orient2d } from 'robust-predicates';

/** Shewchuk's ccwerrboundA: the float orientation filter's relative error bound. */
const ORIENT_ERRBOUND = (3 + 16 * 2 ** -53) * 2 ** -53;
/** Relative error bound of the float dot product of two rounded differences (8 ulps, generous). */
const DOT_ERRBOUND = 8 * 2 ** -53;
/** Squared length ratio under which a reversed edge counts as rounding (2^-16 of the sites' distance). */
const SHORT = 2 ** -32;
/** Squared length ratio under which merging an edge that turns wrong always counts as harmless (2^-20). */
const NEGLIGIBLE = 2 ** -40;

/** Most rounds of merges before giving up (each round merges at least one pair of vertices). */
const MAX_ROUNDS = 64;

/**
 * Merges the two end vertices of every Voronoi edge that rounding broke, when the edge is within
 * the vertices' rounding error: the edge between the circumcentres of the two triangles of a
 * Delaunay edge (i, j) runs, in cell i's counter-clockwise walk, along the bisector's direction
 * (s_j − s_i turned 90° counter-clockwise), and the exact cells turn left at every vertex. Where a
 * short edge's rounded end points do not provably go that way, or make a ring around it turn
 * right (or straight) at either end, and the edge is no longer than the two end points' error
 * bounds together, the exact edge may be that short: both triangles take one value, for every
 * cell at once (one value per triangle, so every ring that uses it moves with it).
 *
 * Why: the exact cells are convex, but circumcentres are rounded (at a 1e15 offset a vertex is
 * only known to 0.125; on near-cocircular sites many centres fall within a few ulps), so a ring
 * can zigzag or cross itself there. A per-cell repair (dropping a vertex from one ring only) lets
 * the neighbours keep it, and the cells overlap. Merging keeps one value per vertex shared by
 * every ring, so each Voronoi edge is the same segment in both cells that bound it and the cells
 * still tile. A reflex vertex on longer edges (thin cells of near-duplicate sites) is kept: it
 * only moves the shared boundary by the rounding, and the ring stays simple.
 *
 * `parent`: the cocircular groups' union–find (every member already holds its root's value), or
 * null; merged groups move together. `candidates`: the short edges found before any merge
 * (`shortEdges`, on worker threads in the parallel path) for the first round, else every edge is
 * visited; later rounds visit every edge. `error(t)`: a bound on the distance of triangle t's computed
 * centre from the exact one. Costs one filtered dot product per interior edge, and four
 * orientation tests per short edge, when nothing is merged.
 *
 * @throws GeoframeError `VORONOI_UNSTABLE` when merges are still needed after 64 rounds (never seen)
 */
export function settleVertices(
  sites: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  parent: Int32Array | null,
  error: (t: number) => number,
  candidates: readonly number[] | null = null,
): void {
  const state: MergeState = { sites, triangles, halfedges, cc, parent, error, bound: null };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let merges = 0;
    // the first round may visit only the short edges found beforehand (see `shortEdges`)
    if (round === 0 && candidates !== null) for (const e of candidates) merges += settleEdge(state, e);
    else for (let e = 0; e < triangles.length; e++) merges += settleEdge(state, e);
    if (merges === 0) return;
    spread(state.parent as Int32Array, cc);
  }
  throw new GeoframeError(
    'VORONOI_UNSTABLE',
    `the Voronoi vertices did not settle into a valid subdivision after ${MAX_ROUNDS} rounds of merges`,
  );
}

/** What {@link settleEdge} reads and updates. */
interface MergeState {
  sites: Float64Array;
  triangles: Uint32Array;
  halfedges: Int32Array;
  cc: Float64Array;
  parent: Int32Array | null;
  error: (t: number) => number;
  /** Per group root: its error bound, merges included (NaN: not computed yet). */
  bound: Float64Array | null;
}

/** Tests the Voronoi edge of half-edge e (once per interior edge: e < twin) and merges it where due; 1 if merged. */
function settleEdge(state: MergeState, e: number): number {
  const { sites, triangles, halfedges, cc } = state;
  const f = halfedges[e];
  if (f < e) return 0;
  const t = (e / 3) | 0;
  const u = (f / 3) | 0;
  const ux = cc[2 * u] - cc[2 * t];
  const uy = cc[2 * u + 1] - cc[2 * t + 1];
  if (ux === 0 && uy === 0) return 0;
  const i = triangles[e];
  const j = triangles[e % 3 === 2 ? e - 2 : e + 1];
  const dx = sites[2 * i + 1] - sites[2 * j + 1];
  const dy = sites[2 * j] - sites[2 * i];
  const length2 = ux * ux + uy * uy;
  if (length2 > SHORT * (dx * dx + dy * dy)) return 0;
  const p = ux * dx;
  const q = uy * dy;
  // each product carries at most three roundings: certain beyond 8 ulps of the terms
  const forward = p + q > DOT_ERRBOUND * (Math.abs(p) + Math.abs(q));
  if (forward && turnsLeft(e, f, t, u, sites, triangles, halfedges, cc)) return 0;
  const nt = triangles.length / 3;
  state.parent ??= identity(nt);
  state.bound ??= new Float64Array(nt).fill(Number.NaN);
  const { parent, bound } = state;
  const rt = find(parent, t);
  const ru = find(parent, u);
  if (rt === ru) return 0;
  if (Number.isNaN(bound[rt])) bound[rt] = state.error(rt);
  if (Number.isNaN(bound[ru])) bound[ru] = state.error(ru);
  // within the rounding, or too short to matter at the sites' spacing (where the exact cell
  // turns by a tiny angle there, even a rounding far below the edge's length reverses it)
  if (!(Math.sqrt(length2) <= bound[rt] + bound[ru]) && length2 > NEGLIGIBLE * (dx * dx + dy * dy)) return 0;
  return merge(parent, cc, rt, ru, bound, Math.sqrt(length2));
}

/** Scratch: the neighbour points of {@link turnsLeft} (x, y) × 4. */
const around = new Float64Array(8);

/**
 * Whether both rings around the edge from t to u (half-edge e of t, twin f of u) turn strictly
 * left at t and at u, exactly (neighbours with the same value are skipped; at the hull the
 * neighbour is a point along the ray).
 */
function turnsLeft(
  e: number,
  f: number,
  t: number,
  u: number,
  sites: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
): boolean {
  // e's site walks … → before t → t → u → after u; f's site walks … → before u → u → t → after t
  const n = around;
  before(e, t, sites, triangles, halfedges, cc, n, 0);
  after(f % 3 === 2 ? f - 2 : f + 1, u, sites, triangles, halfedges, cc, n, 2);
  before(f, u, sites, triangles, halfedges, cc, n, 4);
  after(e % 3 === 2 ? e - 2 : e + 1, t, sites, triangles, halfedges, cc, n, 6);
  const [tx, ty, ux, uy] = [cc[2 * t], cc[2 * t + 1], cc[2 * u], cc[2 * u + 1]];
  return (
    leftTurn(n[0], n[1], tx, ty, ux, uy) &&
    leftTurn(tx, ty, ux, uy, n[2], n[3]) &&
    leftTurn(n[4], n[5], ux, uy, tx, ty) &&
    leftTurn(ux, uy, tx, ty, n[6], n[7])
  );
}

/** Most triangles walked past (all with one value) looking for a different vertex. */
const MAX_WALK = 64;

/**
 * Writes to out[at], out[at + 1] the vertex before half-edge g's triangle (value of triangle v)
 * in the walk around g's start site that differs from v: a triangle's centre, or at the hull a
 * point on the incoming ray; NaN after {@link MAX_WALK} equal ones.
 */
function before(
  g: number,
  v: number,
  sites: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  out: Float64Array,
  at: number,
): void {
  for (let k = 0; k < MAX_WALK; k++) {
    const p = g % 3 === 0 ? g + 2 : g - 1;
    const h = halfedges[p];
    if (h < 0) {
      // the ray in from infinity on the bisector of g's site i and j = p's start: cc[v] − d
      const i = triangles[g];
      const j = triangles[p];
      out[at] = cc[2 * v] - (sites[2 * i + 1] - sites[2 * j + 1]);
      out[at + 1] = cc[2 * v + 1] - (sites[2 * j] - sites[2 * i]);
      return;
    }
    const t = (h / 3) | 0;
    if (cc[2 * t] !== cc[2 * v] || cc[2 * t + 1] !== cc[2 * v + 1]) {
      out[at] = cc[2 * t];
      out[at + 1] = cc[2 * t + 1];
      return;
    }
    g = h;
  }
  out[at] = Number.NaN;
  out[at + 1] = Number.NaN;
}

/** The vertex after half-edge g's triangle in the walk around g's start site: see {@link before}. */
function after(
  g: number,
  v: number,
  sites: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  out: Float64Array,
  at: number,
): void {
  for (let k = 0; k < MAX_WALK; k++) {
    const h = halfedges[g];
    if (h < 0) {
      // the ray out to infinity on the bisector of g's site i and j = g's end: cc[v] + d
      const i = triangles[g];
      const j = triangles[g % 3 === 2 ? g - 2 : g + 1];
      out[at] = cc[2 * v] + (sites[2 * i + 1] - sites[2 * j + 1]);
      out[at + 1] = cc[2 * v + 1] + (sites[2 * j] - sites[2 * i]);
      return;
    }
    const t = (h / 3) | 0;
    if (cc[2 * t] !== cc[2 * v] || cc[2 * t + 1] !== cc[2 * v + 1]) {
      out[at] = cc[2 * t];
      out[at + 1] = cc[2 * t + 1];
      return;
    }
    g = h % 3 === 2 ? h - 2 : h + 1;
  }
  out[at] = Number.NaN;
  out[at + 1] = Number.NaN;
}

/** Whether a, b, c turn strictly left, exactly; a or c NaN (not found) counts as left. */
function leftTurn(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  if (Number.isNaN(ax) || Number.isNaN(cx)) return true;
  const detleft = (ay - cy) * (bx - cx);
  const detright = (ax - cx) * (by - cy);
  const det = detleft - detright;
  // robust-predicates' sign: negative is a left (counter-clockwise) turn in y-up
  if (Math.abs(det) >= ORIENT_ERRBOUND * Math.abs(detleft + detright)) return det < 0;
  return orient2d(ax, ay, bx, by, cx, cy) < 0;
}

function identity(nt: number): Int32Array {
  const parent = new Int32Array(nt);
  for (let t = 0; t < nt; t++) parent[t] = t;
  return parent;
}

function find(parent: Int32Array, t: number): number {
  while (parent[t] !== t) {
    parent[t] = parent[parent[t]];
    t = parent[t];
  }
  return t;
}

/**
 * Merges the groups of roots ra and rb (the lower root stays, as for cocircular groups), `length`
 * apart: the members take the root's value in {@link spread}; the merged group's error bound
 * covers the moved group's bound plus the distance it moved. Returns 1 when two groups were merged.
 */
function merge(
  parent: Int32Array,
  cc: Float64Array,
  ra: number,
  rb: number,
  bound: Float64Array,
  length: number,
): number {
  if (ra === rb) return 0;
  const root = Math.min(ra, rb);
  const other = Math.max(ra, rb);
  parent[other] = root;
  cc[2 * other] = cc[2 * root];
  cc[2 * other + 1] = cc[2 * root + 1];
  bound[root] = Math.max(bound[root], bound[other] + length);
  return 1;
}

/** Every triangle takes its group's value. */
function spread(parent: Int32Array, cc: Float64Array): void {
  for (let t = 0; t < parent.length; t++) {
    const r = find(parent, t);
    if (r !== t) {
      cc[2 * t] = cc[2 * r];
      cc[2 * t + 1] = cc[2 * r + 1];
    }
  }
}
