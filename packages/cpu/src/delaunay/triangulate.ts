import { orient2d } from 'robust-predicates';
import { WorkMeter } from '../workers/work-meter.js';
import { runRanges, toShared } from '../workers/worker-pool.js';
import type { Triangulation } from './buffers.js';
import { gatherSites } from './delaunay-kernels.js';
import { hilbertOrder, hilbertOrderParallel } from './hilbert-order.js';
import { insertSkipped } from './insert-skipped.js';
import { countCocircular, repairDelaunay } from './lawson-repair.js';
import { frameOfBounds, type LocalFrame, localFrame } from './local-frame.js';
import { renumberTriangles } from './triangle-order.js';
import {
  type DelaunatorOutput,
  unfoldedDelaunator,
  unfoldedDelaunatorRenumbered,
} from './unfolded-delaunator.js';

/** A verified Delaunay triangulation plus what the Voronoi stages need from its construction. */
export interface RobustTriangulation extends Triangulation {
  /** The local frame the triangulation was computed in. */
  frame: LocalFrame;
  /** Per half-edge: 1 strictly Delaunay, 2 cocircular quad, 0 hull (see `repairDelaunay`). */
  edgeState: Uint8Array;
  /** Number of cocircular interior edges. */
  cocircularEdges: number;
  /** Edges flipped to repair delaunator's result (0 for well-spread sites). */
  flips: number;
  /** Sites delaunator skipped (distinct but ulps apart) and that were inserted exactly afterwards. */
  inserted: number;
}

/**
 * Delaunay triangulation of unique sites with exact guarantees: delaunator builds it in an exact
 * local frame (never touching `sites`), then every interior edge is verified — and repaired by
 * flips where delaunator's floating-point incircle test erred — with exact predicates.
 *
 * Returns null when there is no triangle: fewer than 3 sites, or all sites collinear (decided
 * exactly). Sites must be unique and finite.
 * Sites delaunator skips as "near duplicates" (distinct sites a few ulps apart) are inserted
 * afterwards with exact predicates (`insertSkipped`), so every site is a vertex.
 *
 * @throws GeoframeError `TRIANGULATION_FAILED` only for a skipped site outside the hull, which
 * needs sites within 2^-52 of each other in the local frame (about 2^-72 of the extent)
 */
export function triangulate(sites: Float64Array, meter = WorkMeter.SILENT): RobustTriangulation | null {
  const ordered = triangulateOrdered(sites, sites.length >> 1 >= SORT_FROM, meter);
  if (ordered === null) return null;
  const { tri, order } = ordered;
  if (order === null) return tri;
  // back to the caller's site numbering (the triangles themselves stay where they are)
  const { triangles, hull } = tri;
  for (let e = 0; e < triangles.length; e++) triangles[e] = order[triangles[e]];
  for (let k = 0; k < hull.length; k++) hull[k] = order[hull[k]];
  const local = tri.frame.xy;
  const xy = new Float64Array(local.length);
  for (let k = 0; k < order.length; k++) {
    xy[2 * order[k]] = local[2 * k];
    xy[2 * order[k] + 1] = local[2 * k + 1];
  }
  return { ...tri, frame: { ...tri.frame, xy } };
}

/**
 * Fewest sites worth sorting along a Hilbert curve before triangulating: below this everything
 * fits in cache anyway (and small inputs keep delaunator's own numbering).
 */
export const SORT_FROM = 1024;

/** A triangulation of the sites taken in some order (see {@link triangulateOrdered}). */
export interface OrderedTriangulation {
  /** Its site indices are positions in `order` (or the caller's indices when `order` is null). */
  tri: RobustTriangulation;
  /** `order[k]` is the caller's index of site k of `tri`; null: the caller's order. */
  order: Uint32Array | null;
  /** World coordinates of the sites in `tri`'s numbering (the caller's buffer when `order` is null). */
  sites: Float64Array;
}

/**
 * {@link triangulate} with the sites renumbered along a Hilbert curve first (`sort`), which
 * makes delaunator about 1.7× faster on large unsorted input and keeps every later pass over
 * the triangulation local in memory. The triangulation is the same either way (a Delaunay
 * triangulation is unique up to the diagonals of cocircular quads); only its numbering changes.
 * `sort = false` keeps the caller's order (tests compare both). `meter` hears the passes 'order',
 * 'delaunator', 'renumber' and 'repair'.
 */
export function triangulateOrdered(
  sites: Float64Array,
  sort: boolean,
  meter = WorkMeter.SILENT,
): OrderedTriangulation | null {
  const n = sites.length >> 1;
  if (n < 3) return null;
  meter.pass('order');
  if (!sort) {
    const tri = triangulateInPlace(sites, localFrame(sites), null, meter);
    return tri === null ? null : { tri, order: null, sites };
  }
  const { world, frame, order } = gatherAlongCurve(sites);
  const tri = triangulateInPlace(world, frame, order, meter);
  return tri === null ? null : { tri, order, sites: world };
}

/**
 * {@link triangulateOrdered} with sorting, on `threads` threads by ranges (see `runRanges`): the
 * Hilbert keys, the gather along the curve, the renumbering scatter and the float filter of the
 * exact verification (delaunator, the radix sort and the exact repair stay on this thread; the
 * repair is skipped when the filter certifies every edge). The same triangulation, bit for bit.
 * The sites, their local copy and the triangulation lie on SharedArrayBuffers (for the later parallel passes).
 * `meter` hears the passes 'order', 'delaunator', 'renumber', 'certify' and 'repair'.
 */
export async function triangulateOrderedParallel(
  sites: Float64Array,
  threads: number,
  meter = WorkMeter.SILENT,
): Promise<OrderedTriangulation | null> {
  const n = sites.length >> 1;
  if (n < 3) return null;
  meter.pass('order');
  const { world, frame, order } = await gatherAlongCurveParallel(sites, threads);
  const d = await parallelDelaunayStage(frame, threads, meter);
  if (d === null) return null;
  const certified = await certifyParallel(frame, d, threads, meter);
  return { tri: finishTriangulation(n, frame, order, d, certified, meter), order, sites: world };
}

/**
 * {@link triangulateOrdered} with `sort = false` — the sites already in a local order, e.g. along
 * a curve computed elsewhere — with the float filter of the exact verification split over
 * `threads` threads (as {@link triangulateOrderedParallel}). The same triangles (numbered along
 * the sites' order), on SharedArrayBuffers.
 */
export async function triangulatePresortedParallel(
  sites: Float64Array,
  threads: number,
): Promise<RobustTriangulation | null> {
  const n = sites.length >> 1;
  if (n < 3) return null;
  const frame = localFrame(sites);
  frame.xy = toShared(frame.xy);
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const d = await parallelDelaunayStage(frame, threads);
  if (d === null) return null;
  const certified = await certifyParallel(frame, d, threads, WorkMeter.SILENT);
  return finishTriangulation(n, frame, ids, d, certified, WorkMeter.SILENT);
}

/** The sites renumbered along a Hilbert curve, in world and local coordinates. */
function gatherAlongCurve(sites: Float64Array): {
  world: Float64Array;
  frame: LocalFrame;
  order: Uint32Array;
} {
  const n = sites.length >> 1;
  const bounds = new Float64Array(4);
  const order = hilbertOrder(sites, bounds);
  // gather the sites in curve order, and their local-frame copy on the way
  const frame = frameOfBounds(bounds[0], bounds[1], bounds[2], bounds[3]);
  const world = new Float64Array(2 * n);
  const local = new Float64Array(2 * n);
  gatherSites(0, n, sites, order, Float64Array.of(frame.originX, frame.originY, frame.scale), world, local);
  frame.xy = local;
  return { world, frame, order };
}

/**
 * {@link gatherAlongCurve} on `threads` threads (the Hilbert keys and the gather; the radix sort
 * stays here): the same order and coordinates, on SharedArrayBuffers.
 */
async function gatherAlongCurveParallel(
  sites: Float64Array,
  threads: number,
): Promise<{ world: Float64Array; frame: LocalFrame; order: Uint32Array }> {
  const n = sites.length >> 1;
  // workers read shared memory in place (anything else is copied to each of them)
  const input = toShared(sites);
  const bounds = new Float64Array(4);
  const order = new Uint32Array(new SharedArrayBuffer(4 * n));
  order.set(await hilbertOrderParallel(input, threads, bounds));
  const frame = frameOfBounds(bounds[0], bounds[1], bounds[2], bounds[3]);
  const world = new Float64Array(new SharedArrayBuffer(16 * n));
  const local = new Float64Array(new SharedArrayBuffer(16 * n));
  const params = Float64Array.of(frame.originX, frame.originY, frame.scale);
  await runRanges('gatherSites', n, threads, [input, order, params, world, local]);
  frame.xy = local;
  return { world, frame, order };
}

/**
 * The float filter of the exact verification on `threads` threads (`certifyEdges`): per
 * half-edge 1 where certified strictly Delaunay (both halves), and whether every interior edge
 * is (then the exact repair has nothing to do).
 */
async function certifyParallel(
  frame: LocalFrame,
  d: DelaunatorOutput,
  threads: number,
  meter: WorkMeter,
): Promise<{ verdicts: Uint8Array; all: boolean }> {
  meter.pass('certify');
  const verdicts = new Uint8Array(new SharedArrayBuffer(d.triangles.length));
  const counts = await runRanges(
    'certifyEdges',
    d.triangles.length,
    threads,
    [frame.xy, d.triangles, d.halfedges, verdicts],
    meter,
  );
  let uncertified = 0;
  for (const c of counts) uncertified += c as number;
  return { verdicts, all: uncertified === 0 };
}

/** The triangulation of `sites` in their given order, in `frame` (their local copy); `ids` name sites in errors. */
function triangulateInPlace(
  sites: Float64Array,
  frame: LocalFrame,
  ids: Uint32Array | null,
  meter: WorkMeter,
): RobustTriangulation | null {
  const d = delaunayStage(sites.length >> 1, frame, ids, meter);
  return d === null ? null : finishTriangulation(sites.length >> 1, frame, ids, d, null, meter);
}

/**
 * delaunator's triangulation (unfolded), renumbered along the curve when `ids` is given; null when
 * all sites are collinear.
 */
function delaunayStage(
  n: number,
  frame: LocalFrame,
  ids: Uint32Array | null,
  meter: WorkMeter,
): DelaunatorOutput | null {
  if (allCollinear(frame.xy)) return null;
  meter.pass('delaunator');
  const d = unfoldedDelaunator(frame.xy, meter);
  // sites along a curve: triangles along it too (see renumberTriangles)
  if (ids === null) return d;
  meter.pass('renumber');
  return { ...renumberTriangles(n, d.triangles, d.halfedges), hull: d.hull };
}

/**
 * {@link delaunayStage} for the parallel paths (`frame.xy` on a SharedArrayBuffer; delaunator on
 * this thread, the renumbering on `threads`); null when all sites are collinear. The triangles
 * come numbered by lowest site, on SharedArrayBuffers.
 */
async function parallelDelaunayStage(
  frame: LocalFrame,
  threads: number,
  meter = WorkMeter.SILENT,
): Promise<DelaunatorOutput | null> {
  if (allCollinear(frame.xy)) return null;
  // sites along a curve: triangles along it too (see renumberTriangles)
  return unfoldedDelaunatorRenumbered(frame.xy, threads, meter);
}

/**
 * The exact verification and repair of {@link delaunayStage}'s output, and the insertion of the
 * skipped sites; `certified`: the float filter's verdicts computed beforehand (see
 * `repairDelaunay`).
 */
function finishTriangulation(
  n: number,
  frame: LocalFrame,
  ids: Uint32Array | null,
  d: DelaunatorOutput,
  certified: { verdicts: Uint8Array; all: boolean } | null,
  meter: WorkMeter,
): RobustTriangulation {
  meter.pass('repair');
  let { triangles, halfedges, hull } = d;
  const repair = repairDelaunay(frame.xy, triangles, halfedges, certified?.verdicts ?? null, certified?.all);
  let edgeState = repair.edgeState;
  let flips = repair.flips;
  // a valid triangulation of all n sites has 2n − 2 − h triangles (Euler); fewer: sites skipped
  let skipped = 0;
  const used = new Uint8Array(n);
  if (triangles.length / 3 !== 2 * n - 2 - hull.length) {
    for (let e = 0; e < triangles.length; e++) used[triangles[e]] = 1;
    for (let i = 0; i < n; i++) skipped += 1 - used[i];
  }
  if (skipped > 0) {
    const missing = new Int32Array(skipped);
    for (let i = 0, k = 0; i < n; i++) if (used[i] === 0) missing[k++] = i;
    const grown = insertSkipped(frame.xy, missing, triangles, halfedges, hull, edgeState, ids);
    ({ triangles, halfedges, hull, edgeState } = grown);
    flips += grown.flips;
  }
  return {
    triangles,
    halfedges,
    hull,
    frame,
    edgeState,
    cocircularEdges:
      repair.cocircularEdges === 0 && skipped === 0 ? 0 : countCocircular(halfedges, edgeState),
    flips,
    inserted: skipped,
  };
}

/** Whether every site lies on one line, decided with the exact orientation predicate. */
export function allCollinear(xy: Float64Array): boolean {
  const n = xy.length >> 1;
  if (n < 3) return true;
  const ax = xy[0];
  const ay = xy[1];
  // the second reference point: the first site different from the first one
  let b = 1;
  while (b < n && xy[2 * b] === ax && xy[2 * b + 1] === ay) b++;
  if (b === n) return true;
  const bx = xy[2 * b];
  const by = xy[2 * b + 1];
  for (let i = b + 1; i < n; i++) {
    if (orient2d(ax, ay, bx, by, xy[2 * i], xy[2 * i + 1]) !== 0) return false;
  }
  return true;
}
