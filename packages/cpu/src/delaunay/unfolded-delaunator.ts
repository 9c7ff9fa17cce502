import Delaunator from 'delaunator';
import { orient2d } from 'robust-predicates';
import { WorkMeter } from '../workers/work-meter.js';
import { runRanges, toShared } from '../workers/worker-pool.js';
import { countedDelaunator } from './counting-delaunator.js';
import { hullFan } from './hull-fan.js';
import { renumberTrianglesParallel, scatterTrianglesParallel } from './triangle-order.js';

/**
 * The error bound of the floating-point orientation determinant relative to the sum of its two
 * products (Shewchuk's `ccwerrboundA`, robust-predicates' first filter stage).
 */
const ORIENT_ERRBOUND = (3 + 16 * 2 ** -53) * 2 ** -53;

/** Re-runs of delaunator allowed before giving up (each one only happens on degenerate input). */
const MAX_ROUNDS = 8;

/** delaunator's output, in the numbering of the sites it was given. */
export interface DelaunatorOutput {
  triangles: Uint32Array;
  halfedges: Int32Array;
  hull: Uint32Array;
}

/**
 * delaunator's triangulation of `xy` with every triangle checked to be strictly clockwise (in
 * y-up, delaunator's convention) with the exact orientation predicate.
 *
 * delaunator's hull walk is exact, but its edge flips trust a floating-point `incircle`: where
 * four sites are nearly cocircular *and* two of them nearly coincide (distinct sites 1e-12 apart
 * at 1000), a wrong sign can flip the diagonal of a non-convex quad, which folds the mesh — a
 * triangle comes out inverted and overlaps its neighbours. Flips on top of a fold cannot undo it.
 * So, when a triangle is inverted or flat, the sites of such triangles that are not on the hull
 * are left out and delaunator is run again on the others (repeated while a new fold appears);
 * the left-out sites are then missing from the triangulation, exactly like the sites delaunator
 * skips itself, and the caller inserts them with exact predicates (`insertSkipped`). Well-spread
 * input costs one filtered orientation test per triangle. When folds persist after several rounds,
 * or a fold involves only hull sites, the triangulation starts over from a fan over the exact
 * convex hull ({@link hullFan}): the caller's exact repair and insertion then build all of it
 * (slower, but sure; sites 1e-6 apart on a unit circle 1e6 from a second cluster need it).
 */
export function unfoldedDelaunator(xy: Float64Array, meter = WorkMeter.SILENT): DelaunatorOutput {
  const n = xy.length >> 1;
  const first = countedDelaunator(xy, meter);
  let out: DelaunatorOutput = first;
  let folded = foldedTriangles(xy, first.triangles);
  if (folded === null) return first;
  const onHull = new Uint8Array(n);
  for (let k = 0; k < first.hull.length; k++) onHull[first.hull[k]] = 1;
  const left = new Uint8Array(n);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let added = 0;
    for (const t of folded) {
      for (let k = 0; k < 3; k++) {
        const v = out.triangles[3 * t + k];
        if (onHull[v] === 0 && left[v] === 0) {
          left[v] = 1;
          added++;
        }
      }
    }
    // a fold of hull sites only, which leaving sites out cannot undo: start from the hull
    if (added === 0) return hullFan(xy);
    out = withoutSites(xy, left);
    folded = foldedTriangles(xy, out.triangles);
    if (folded === null) return out;
  }
  return hullFan(xy);
}

/**
 * {@link unfoldedDelaunator} renumbered along the sites' order (see `renumberTriangles`) on
 * `threads` threads, for sites numbered along a curve: the orientation filter, the lowest site of
 * each triangle and its counts run as one range kernel (`triangleLows`), the scatter as another;
 * the same triangles, numbers and half-edges, on SharedArrayBuffers. Triangles the filter cannot
 * certify are checked exactly here; a fold sends the whole run through {@link unfoldedDelaunator}.
 * `meter` hears passes 'delaunator' and 'renumber'.
 */
export async function unfoldedDelaunatorRenumbered(
  xy: Float64Array,
  threads: number,
  meter = WorkMeter.SILENT,
): Promise<DelaunatorOutput> {
  const n = xy.length >> 1;
  meter.pass('delaunator');
  const first = countedDelaunator(xy, meter);
  meter.pass('renumber');
  const nt = first.triangles.length / 3;
  const triangles = toShared(first.triangles);
  const halfedges = toShared(first.halfedges);
  const low = new Int32Array(new SharedArrayBuffer(4 * nt));
  const counts = new Int32Array(new SharedArrayBuffer(4 * (n + 1)));
  let unsure = 0;
  for (const u of await runRanges('triangleLows', nt, threads, [xy, triangles, low, counts], meter))
    unsure += u as number;
  if (unsure > 0 && foldedTriangles(xy, first.triangles) !== null) {
    const out = unfoldedDelaunator(xy);
    return { ...(await renumberTrianglesParallel(n, out.triangles, out.halfedges, threads)), hull: out.hull };
  }
  // the counting sort by lowest site, stable: low[t] becomes triangle t's new number
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  for (let t = 0; t < nt; t++) low[t] = counts[low[t]]++;
  return { ...(await scatterTrianglesParallel(triangles, halfedges, low, threads)), hull: first.hull };
}

/** Indices of the triangles that are not strictly clockwise (y-up), or null when there is none. */
function foldedTriangles(xy: Float64Array, triangles: Uint32Array): number[] | null {
  let found: number[] | null = null;
  for (let t = 0, e = 0; e < triangles.length; t++, e += 3) {
    const a = triangles[e];
    const b = triangles[e + 1];
    const c = triangles[e + 2];
    const ax = xy[2 * a];
    const ay = xy[2 * a + 1];
    const bx = xy[2 * b];
    const by = xy[2 * b + 1];
    const cx = xy[2 * c];
    const cy = xy[2 * c + 1];
    // robust-predicates' orient2d, its floating-point filter inlined: positive = clockwise here
    const detleft = (ay - cy) * (bx - cx);
    const detright = (ax - cx) * (by - cy);
    const det = detleft - detright;
    if (det > ORIENT_ERRBOUND * Math.abs(detleft + detright)) continue;
    if (orient2d(ax, ay, bx, by, cx, cy) > 0) continue;
    found ??= [];
    found.push(t);
  }
  return found;
}

/** delaunator on the sites not marked in `left`, renumbered back to all sites. */
function withoutSites(xy: Float64Array, left: Uint8Array): DelaunatorOutput {
  const n = left.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += 1 - left[i];
  const sub = new Float64Array(2 * m);
  const id = new Uint32Array(m);
  for (let i = 0, k = 0; i < n; i++) {
    if (left[i] === 1) continue;
    sub[2 * k] = xy[2 * i];
    sub[2 * k + 1] = xy[2 * i + 1];
    id[k++] = i;
  }
  const d = new Delaunator(sub);
  const triangles = d.triangles;
  for (let e = 0; e < triangles.length; e++) triangles[e] = id[triangles[e]];
  const hull = d.hull;
  for (let k = 0; k < hull.length; k++) hull[k] = id[hull[k]];
  return { triangles, halfedges: d.halfedges, hull };
}
