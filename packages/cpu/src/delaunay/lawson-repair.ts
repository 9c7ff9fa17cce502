import { incircle } from 'robust-predicates';
import { nextHalfedge, prevHalfedge } from './buffers.js';
import { certifyEdges } from './delaunay-kernels.js';

/** Per-half-edge state after a repair: the edge's quad is cocircular. */
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
 * Lawson's flip algorithm with exact predicates over a triangulation in delaunator's layout
 * (triangles clockwise in y-up), in place. An edge whose opposite vertex lies strictly inside
 * the neighbouring circumcircle (Shewchuk's adaptive `incircle`) is flipped and the four edges
 * around the new pair are tested again; exact predicates make this terminate. Ties (cocircular
 * quads) are kept — any diagonal of a cocircular quad gives the same Voronoi diagram — and
 * recorded in `edgeState`, so circumcentres can be merged. The hull never changes.
 */
export class LawsonFlipper {
  private stack = new Int32Array(64);
  private top = 0;
  /** Flips done so far. */
  flips = 0;

  /**
   * @param xy site coordinates the triangulation refers to
   * @param triangles site triples, modified in place
   * @param halfedges twins, modified in place
   * @param edgeState per half-edge state (see {@link RepairResult.edgeState}), written here
   */
  constructor(
    private readonly xy: Float64Array,
    public triangles: Uint32Array,
    public halfedges: Int32Array,
    public edgeState: Uint8Array,
  ) {}

  /** Tests edge `e` and, through flips, everything its flips make suspect. */
  legalize(e: number): void {
    const { xy, triangles, halfedges, edgeState } = this;
    this.push(e);
    while (this.top > 0) {
      const a = this.stack[--this.top];
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
      this.flips++;
      this.push(a);
      this.push(a1);
      this.push(b);
      this.push(b1);
    }
  }

  private push(e: number): void {
    if (this.top === this.stack.length) {
      const grown = new Int32Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.top++] = e;
  }
}

/**
 * Makes a triangulation Delaunay with exact predicates: every interior edge is tested once with
 * {@link LawsonFlipper} and repaired where delaunator's floating-point test erred.
 *
 * @param xy site coordinates the triangulation refers to (the local frame)
 * @param triangles delaunator-convention triangles (clockwise in y-up), modified in place
 * @param halfedges twins, modified in place
 * @param certified per half-edge, the float filter's verdict computed beforehand (`certifyEdges`,
 *   maybe on worker threads) on these very arrays: 1 = certified strictly Delaunay. It is trusted
 *   only until the first flip changes the triangulation; from there on the filter runs here.
 * @param allCertified the filter certified every interior edge (`certified` then marks both
 *   halves of each, which is the edge state as is: nothing to verify here)
 */
export function repairDelaunay(
  xy: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  certified: Uint8Array | null = null,
  allCertified = false,
): RepairResult {
  // every interior edge certified (both halves marked): the verdicts are the edge states
  if (certified !== null && allCertified) return { flips: 0, cocircularEdges: 0, edgeState: certified };
  const edgeState = new Uint8Array(triangles.length);
  const flipper = new LawsonFlipper(xy, triangles, halfedges, edgeState);
  for (let e = 0; e < triangles.length; e++) {
    const f = halfedges[e];
    if (f <= e) continue;
    if (certified !== null && flipper.flips === 0) {
      if (certified[e] === 1) {
        edgeState[e] = 1;
        edgeState[f] = 1;
      } else {
        flipper.legalize(e);
      }
      continue;
    }
    // the float filter of the exact incircle on this one edge: when it certifies the edge as
    // strictly Delaunay (the common case) it marks both halves, as legalize() would record;
    // anything else (inside, cocircular, uncertain) goes to the exact path
    if (certifyEdges(e, e + 1, xy, triangles, halfedges, edgeState) === 1) flipper.legalize(e);
  }
  return { flips: flipper.flips, cocircularEdges: countCocircular(halfedges, edgeState), edgeState };
}

/** Number of interior edges marked cocircular. */
export function countCocircular(halfedges: Int32Array, edgeState: Uint8Array): number {
  let count = 0;
  for (let e = 0; e < halfedges.length; e++) {
    if (edgeState[e] === EDGE_COCIRCULAR && halfedges[e] > e) count++;
  }
  return count;
}

/** Makes `a` and `b` twins (b may be -1: a hull edge). */
export function link(halfedges: Int32Array, a: number, b: number): void {
  halfedges[a] = b;
  if (b >= 0) halfedges[b] = a;
}
