import { type Box, boxArea } from '@geoframe/core';
import { emptyPolygons, nextHalfedge, type PolygonBuffers, prevHalfedge } from '../delaunay/buffers.js';
import { EDGE_COCIRCULAR } from '../delaunay/lawson-repair.js';
import { lineOrder } from '../delaunay/site-order.js';
import {
  type RobustTriangulation,
  SORT_FROM,
  triangulateOrdered,
  triangulateOrderedParallel,
} from '../delaunay/triangulate.js';
import { availableThreads, runRanges, toShared, writeSimpleRingsParallel } from '../workers/worker-pool.js';
import { CellRingWriter, closeRing } from './cell-ring-writer.js';
import { circumcenters, circumcentersParallel } from './circumcenters.js';
import { bisector, inBox } from './clip-edge.js';
import { cellsInSafeFrame, cellsInSafeFrameAsync } from './safe-frame.js';
import { writeSimpleRings } from './simple-rings.js';

/**
 * The Voronoi cell of every site, clipped to `box`, as one polygon (one closed,
 * counter-clockwise ring) per site, in site order.
 *
 * Semantics (GEOS `VoronoiDiagramBuilder`, with the box from `clipBox`):
 * - 0 sites: no polygon. 1 site: no polygon when the box has no area (GEOS without
 *   `extendTo`), otherwise one polygon equal to the box.
 * - 2 sites, or all sites collinear: strips between the perpendicular bisectors of neighbours
 *   along the line.
 * - Otherwise: cells from the Delaunay triangulation (verified with exact predicates), whose
 *   vertices are circumcentres; cocircular sites (lattices, circles) share one vertex exactly.
 *
 * Sites must be unique and finite (see `uniqueSites`); the box must contain them and, with two
 * or more sites, have positive width and height. Each cell contains its site; cells tile the box
 * (every vertex is one value shared by every cell that uses it). `sites` is never modified.
 *
 * Any finite magnitude: the work runs in a power-of-two scaled frame (exact; see `safeFrame`).
 *
 * @throws GeoframeError `COORDINATE_RANGE` where no exact answer is possible (nonzero coordinates
 * more than 2^220 apart in magnitude, all below 2^-1000, or a box 2^380 times the sites)
 */
export function voronoiCells(sites: Float64Array, box: Box): PolygonBuffers {
  return voronoiCellsOrdered(sites, box, sites.length >> 1 >= SORT_FROM);
}

/** Options of {@link voronoiCellsParallel}. */
export interface ParallelCellsOptions {
  /** Fewer sites than this run on this thread alone, as {@link voronoiCells}. Default 200 000. */
  minSites?: number;
  /**
   * Threads to use, this one included; default min(available parallelism, 8). 1, a single core
   * or an environment without worker threads runs {@link voronoiCells}.
   */
  threads?: number;
}

/**
 * {@link voronoiCells} with three passes split over worker threads by ranges: the float filter of
 * the exact Delaunay verification (half-edges; the edges it cannot certify still go through the
 * exact repair here), the circumcentres (triangles; nearly flat ones are finished here with the
 * exact predicate) and the write pass — every ring inside the box built and stored at its place
 * (sites). The same output, bit for bit.
 *
 * The workers read the sites and the triangulation and write their results in place through
 * SharedArrayBuffers (nothing is copied to them), so the returned `coords` may lie on a
 * SharedArrayBuffer. Workers are started on first use and kept, unreferenced (they never hold the
 * process open). delaunator, the Hilbert keys' radix sort, the exact repair (when the filter left
 * edges to it), the side-buffer cells and the offset scan stay on this thread.
 */
export async function voronoiCellsParallel(
  sites: Float64Array,
  box: Box,
  options: ParallelCellsOptions = {},
): Promise<PolygonBuffers> {
  if (sites.length < 2) return emptyPolygons();
  checkBox(box, sites.length >> 1);
  return cellsInSafeFrameAsync(sites, box, (s, b) => parallelCells(s, b, options));
}

/** {@link voronoiCellsParallel} in the safe frame. */
async function parallelCells(
  sites: Float64Array,
  box: Box,
  options: ParallelCellsOptions,
): Promise<PolygonBuffers> {
  const n = sites.length >> 1;
  const threads = options.threads ?? (await availableThreads());
  if (n < (options.minSites ?? 200_000) || threads < 2 || n < 3) {
    return cellsOrdered(sites, box, n >= SORT_FROM, false);
  }
  const ordered =
    n >= SORT_FROM ? await triangulateOrderedParallel(sites, threads) : triangulateOrdered(sites, false);
  if (ordered === null) return collinearCells(sites, box);
  const { tri } = ordered;
  const halfedges = toShared(tri.halfedges);
  const cc = await circumcentersParallel(
    ordered.sites,
    tri.frame,
    tri.triangles,
    halfedges,
    tri.edgeState,
    tri.cocircularEdges,
    threads,
  );
  const walks = await planWalksParallel(n, box, toShared(tri.triangles), halfedges, tri, cc, threads);
  const plan = planCells(ordered.sites, box, tri, ordered.order, false, true, cc, walks);
  const { start, place, length, coords, longest } = plan;
  const changed = await writeSimpleRingsParallel(n, threads, [
    start,
    place,
    length,
    halfedges,
    cc,
    coords,
    longest,
  ]);
  return finishCells(plan, tri, changed);
}

/**
 * {@link voronoiCells}, choosing whether the sites are first renumbered along a Hilbert curve
 * (`sort`). The output is the same either way, bit for bit, wherever the Delaunay triangulation is
 * unique (no four cocircular sites); `sort` only changes the speed. Exported for tests.
 *
 * With `sort`, cells are walked in curve order (local in memory) and each ring is written
 * straight to its final place in the caller's site order (see {@link walkCells}). `general`
 * sends every cell through the general clipping writer instead of the fast path for cells
 * inside the box — the same output, slower; for tests.
 */
export function voronoiCellsOrdered(
  sites: Float64Array,
  box: Box,
  sort: boolean,
  general = false,
): PolygonBuffers {
  if (sites.length < 2) return emptyPolygons();
  checkBox(box, sites.length >> 1);
  return cellsInSafeFrame(sites, box, (s, b) => cellsOrdered(s, b, sort, general));
}

/** {@link voronoiCellsOrdered} in the safe frame. */
function cellsOrdered(sites: Float64Array, box: Box, sort: boolean, general: boolean): PolygonBuffers {
  const n = sites.length >> 1;
  if (n === 0) return emptyPolygons();
  if (n === 1) {
    if (boxArea(box) === 0) return emptyPolygons();
    const writer = new CellRingWriter(box, 1, 5);
    writer.boxCell();
    return writer.finish();
  }
  const ordered = triangulateOrdered(sites, sort);
  if (ordered === null) return collinearCells(sites, box);
  return walkCells(ordered.sites, box, ordered.tri, ordered.order, general);
}

/**
 * Every cell of a triangulation's sites, written in the caller's site order (`order[k]` is the
 * caller's index of site k; null: the same numbering).
 *
 * Three passes, no scratch copy of the output:
 * 1. count: per site, its degree (half-edges leaving it) and whether its cell is *simple* — not on
 *    the hull and with every circumcentre around it inside the box. A simple cell's ring has
 *    degree + 1 points (closed), less one per cocircular edge leaving the site (the two centres
 *    are merged into one point), unless rounding makes two centres equal or the straight-vertex pass
 *    drops a vertex. Other cells are walked right away with the clipping writer into a small side buffer
 *    (they are O(√n) for well-spread sites), which gives their exact length.
 * 2. offsets: the lengths in the caller's order, exclusive-scanned.
 * 3. write: simple cells are walked straight into their final place; side-buffer cells copied.
 *    A simple ring that came out shorter than predicted (only on near-cocircular input) is
 *    recorded, and one compaction pass at the end closes the gaps.
 */
function walkCells(
  sites: Float64Array,
  box: Box,
  tri: RobustTriangulation,
  order: Uint32Array | null,
  general: boolean,
): PolygonBuffers {
  const plan = planCells(sites, box, tri, order, general, false);
  const { start, place, length, cc, coords, longest } = plan;
  const changed = writeSimpleRings(0, start.length, start, place, length, tri.halfedges, cc, coords, longest);
  return finishCells(plan, tri, changed);
}

/** Pass 1 of the cell plan: walk starts, degrees (-1: not simple), centres inside the box. */
interface CellWalks {
  start: Int32Array;
  length: Int32Array;
  inside: Uint8Array;
}

/**
 * Pass 1 of {@link planCells} on `threads` threads (`planDegrees`, then `planBoundary`): the same
 * starts, lengths and inside flags.
 */
async function planWalksParallel(
  n: number,
  box: Box,
  triangles: Uint32Array,
  halfedges: Int32Array,
  tri: RobustTriangulation,
  cc: Float64Array,
  threads: number,
): Promise<CellWalks> {
  const start = new Int32Array(new SharedArrayBuffer(4 * n)).fill(-1);
  const length = new Int32Array(new SharedArrayBuffer(4 * n));
  const nt = triangles.length / 3;
  const inside = new Uint8Array(new SharedArrayBuffer(nt));
  await runRanges('planDegrees', triangles.length, threads, [
    triangles,
    toShared(tri.edgeState),
    tri.cocircularEdges > 0 ? 1 : 0,
    start,
    length,
  ]);
  const bounds = Float64Array.of(box.minX, box.minY, box.maxX, box.maxY);
  await runRanges('planBoundary', nt, threads, [triangles, halfedges, cc, bounds, inside, start, length]);
  return { start, length, inside };
}

/** What the planning passes leave for the write pass (see {@link walkCells}). */
interface CellPlan {
  /** Per site k: its walk start; -1 once its cell is in `coords` (side-buffer cells). */
  start: Int32Array;
  /** Per site k: the point index its ring starts at in `coords`. */
  place: Int32Array;
  /** Per site k: its planned ring length (the write pass records differences here). */
  length: Int32Array;
  cc: Float64Array;
  coords: Float64Array;
  ringOffsets: Int32Array;
  longest: number;
  order: Uint32Array | null;
}

/**
 * Passes 1 and 2 of {@link walkCells}, and the copy of the side-buffer cells to their places.
 * `shared`: every array the write pass touches lies on a SharedArrayBuffer. `cc`: the
 * circumcentres when already computed (see `circumcentersParallel`).
 */
function planCells(
  sites: Float64Array,
  box: Box,
  tri: RobustTriangulation,
  order: Uint32Array | null,
  general: boolean,
  shared: boolean,
  computed: Float64Array | null = null,
  walks: CellWalks | null = null,
): CellPlan {
  const n = sites.length >> 1;
  const { triangles, halfedges } = tri;
  const cc =
    computed ??
    circumcenters(sites, tri.frame, triangles, halfedges, tri.edgeState, tri.cocircularEdges, shared);
  const int32s = (count: number) =>
    shared ? new Int32Array(new SharedArrayBuffer(4 * count)) : new Int32Array(count);

  // pass 1: walk starts (see walkStarts), degrees, simple or not (length -1 marks "not simple")
  const { start, length, inside } = walks ?? planWalks(n, box, tri, cc, int32s);
  if (general) length.fill(-1);
  let others = 0;
  let longest = 0;
  for (let i = 0; i < n; i++) {
    if (length[i] < 0) others++;
    else if (length[i] > longest) longest = length[i];
  }
  const side = new CellRingWriter(box, others, 16 * others + 64);
  const sideRing = new Int32Array(others);
  for (let i = 0, r = 0; i < n; i++) {
    if (length[i] >= 0) {
      // closed ring; a ring of one point (all centres equal) is closed too
      length[i] = Math.max(length[i], 1) + 1;
      continue;
    }
    walkCell(side, sites, i, start[i], triangles, halfedges, cc, inside);
    sideRing[r++] = i;
  }
  const sideCells = side.finish();
  for (let r = 0; r < others; r++) {
    length[sideRing[r]] = sideCells.ringOffsets[r + 1] - sideCells.ringOffsets[r];
  }

  // pass 2: ring offsets in the caller's order
  const ringOffsets = new Int32Array(n + 1);
  if (order === null) for (let i = 0; i < n; i++) ringOffsets[i + 1] = length[i];
  else for (let k = 0; k < n; k++) ringOffsets[order[k] + 1] = length[k];
  for (let i = 0; i < n; i++) ringOffsets[i + 1] += ringOffsets[i];
  const size = 2 * ringOffsets[n];
  const coords = shared ? new Float64Array(new SharedArrayBuffer(8 * size)) : new Float64Array(size);
  // each ring's place, gathered in a tight loop of independent loads (in the write pass each
  // would be a cache miss that the ring's stores wait on)
  const place = int32s(n);
  if (order === null) place.set(ringOffsets.subarray(0, n));
  else for (let k = 0; k < n; k++) place[k] = ringOffsets[order[k]];

  // the side-buffer cells go to their places now; the write pass skips them (start -1)
  for (let r = 0; r < others; r++) {
    const k = sideRing[r];
    coords.set(
      sideCells.coords.subarray(2 * sideCells.ringOffsets[r], 2 * sideCells.ringOffsets[r + 1]),
      2 * place[k],
    );
    start[k] = -1;
  }
  return { start, place, length, cc, coords, ringOffsets, longest, order };
}

/** Pass 1 of {@link planCells} on this thread (see `planDegrees` and `planBoundary`, its parallel twin). */
function planWalks(
  n: number,
  box: Box,
  tri: RobustTriangulation,
  cc: Float64Array,
  int32s: (count: number) => Int32Array,
): CellWalks {
  const { triangles, halfedges, edgeState } = tri;
  const nt = triangles.length / 3;
  const inside = new Uint8Array(nt);
  const start = int32s(n).fill(-1);
  const length = int32s(n);
  const merged = tri.cocircularEdges > 0;
  for (let e = 0; e < triangles.length; e++) {
    const i = triangles[e];
    if (start[i] === -1) start[i] = e;
    // across a cocircular edge both triangles have the same (merged) centre: written once
    if (!merged || edgeState[e] !== EDGE_COCIRCULAR) length[i]++;
  }
  for (let t = 0; t < nt; t++) {
    // each centre is tested once, so every cell around it agrees
    if (inBox(box, cc[2 * t], cc[2 * t + 1])) {
      inside[t] = 1;
      continue;
    }
    length[triangles[3 * t]] = -1;
    length[triangles[3 * t + 1]] = -1;
    length[triangles[3 * t + 2]] = -1;
  }
  for (let e = 0; e < triangles.length; e++) {
    if (halfedges[e] !== -1) continue;
    const f = nextHalfedge(e);
    start[triangles[f]] = f;
    length[triangles[e]] = -1;
    length[triangles[f]] = -1;
  }
  return { start, length, inside };
}

/**
 * After the write pass ({@link writeSimpleRings}, `changed` sites reported): redoes with the exact
 * predicate the rings it left undecided, and closes the gaps of rings that came out shorter than
 * planned.
 */
function finishCells(plan: CellPlan, tri: RobustTriangulation, changed: number): PolygonBuffers {
  const { coords, ringOffsets, order, length, place } = plan;
  if (changed === 0) return { coords, ringOffsets };
  const n = length.length;
  const { halfedges } = tri;
  let short: number[] | null = null;
  let ring: Float64Array | null = null;
  for (let k = 0; k < n; k++) {
    const i = order === null ? k : order[k];
    const want = ringOffsets[i + 1] - ringOffsets[i];
    let got = length[k];
    if (got === -1) {
      // the float filter could not decide a turn: this ring again, with the exact predicate
      ring ??= new Float64Array(2 * (plan.longest + 2));
      const e0 = plan.start[k];
      let e = e0;
      let m = 0;
      do {
        const t = (e / 3) | 0;
        const x = plan.cc[2 * t];
        const y = plan.cc[2 * t + 1];
        if (m === 0 || ring[2 * m - 2] !== x || ring[2 * m - 1] !== y) {
          ring[2 * m] = x;
          ring[2 * m + 1] = y;
          m++;
        }
        e = nextHalfedge(halfedges[e]);
      } while (e !== e0);
      got = closeRing(ring, 0, m);
      coords.set(ring.subarray(0, 2 * got), 2 * place[k]);
    }
    if (got !== want) {
      short ??= [];
      short.push(i, got);
    }
  }
  return short === null ? { coords, ringOffsets } : closeGaps(coords, ringOffsets, short);
}

/**
 * Moves rings left over the unused tails of rings that came out shorter than their planned
 * length (`short`: pairs of ring index and actual length), fixing the offsets; one front-to-back
 * pass, the destination never after the source.
 */
function closeGaps(coords: Float64Array, ringOffsets: Int32Array, short: number[]): PolygonBuffers {
  const n = ringOffsets.length - 1;
  const actual = new Int32Array(n);
  for (let i = 0; i < n; i++) actual[i] = ringOffsets[i + 1] - ringOffsets[i];
  for (let p = 0; p < short.length; p += 2) actual[short[p]] = short[p + 1];
  let to = 0;
  for (let i = 0; i < n; i++) {
    const from = ringOffsets[i];
    if (from !== to) coords.copyWithin(2 * to, 2 * from, 2 * (from + actual[i]));
    ringOffsets[i] = to;
    to += actual[i];
  }
  ringOffsets[n] = to;
  return { coords: coords.slice(0, 2 * to), ringOffsets };
}

/**
 * Feeds the writer cell i (any cell: hull, clipped or not), walking counter-clockwise around the
 * site from half-edge e0 (its walk start, see `walkStarts`).
 */
function walkCell(
  writer: CellRingWriter,
  sites: Float64Array,
  i: number,
  e0: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
  cc: Float64Array,
  inside: Uint8Array,
): void {
  writer.begin();
  let e = e0;
  const hull = halfedges[prevHalfedge(e0)] === -1;
  if (hull) {
    // the ray coming in from infinity, on the bisector with the hull neighbour before the walk
    const j = triangles[prevHalfedge(e0)];
    const t = (e0 / 3) | 0;
    bisectorEdge(writer, sites, i, j, false, 0, 0, false, true, cc[2 * t], cc[2 * t + 1], inside[t] === 1);
  }
  do {
    const t = (e / 3) | 0;
    const twin = halfedges[e];
    if (twin === -1) {
      const j = triangles[nextHalfedge(e)];
      // the ray going out to infinity, on the bisector with the hull neighbour after the walk
      bisectorEdge(writer, sites, i, j, true, cc[2 * t], cc[2 * t + 1], inside[t] === 1, false, 0, 0, false);
      break;
    }
    const e2 = nextHalfedge(twin);
    const t2 = (e2 / 3) | 0;
    if (inside[t] === 1 && inside[t2] === 1) {
      writer.vertex(cc[2 * t], cc[2 * t + 1]);
    } else {
      bisectorEdge(
        writer,
        sites,
        i,
        triangles[nextHalfedge(e)],
        true,
        cc[2 * t],
        cc[2 * t + 1],
        inside[t] === 1,
        true,
        cc[2 * t2],
        cc[2 * t2 + 1],
        inside[t2] === 1,
      );
    }
    e = e2;
  } while (e !== e0);
  writer.end(sites[2 * i], sites[2 * i + 1]);
}

/** Scratch for the bisector line (mx, my, dx, dy) of {@link bisectorEdge}. */
const line = new Float64Array(4);

/**
 * Feeds the writer the edge of cell i shared with site j: the bisector, oriented so the cell
 * is on its left (direction = (s_j − s_i) turned 90° counter-clockwise).
 */
function bisectorEdge(
  writer: CellRingWriter,
  sites: Float64Array,
  i: number,
  j: number,
  hasA: boolean,
  ax: number,
  ay: number,
  aInside: boolean,
  hasB: boolean,
  bx: number,
  by: number,
  bInside: boolean,
): void {
  bisector(sites, i, j, line);
  writer.edge(line[0], line[1], line[2], line[3], hasA, ax, ay, aInside, hasB, bx, by, bInside);
}

/** Cells of collinear sites (2 sites included): strips between consecutive bisectors. */
function collinearCells(sites: Float64Array, box: Box): PolygonBuffers {
  const n = sites.length >> 1;
  const order = lineOrder(sites);
  const rank = new Uint32Array(n);
  for (let k = 0; k < n; k++) rank[order[k]] = k;
  const writer = new CellRingWriter(box, n, 7 * n + 16);
  for (let i = 0; i < n; i++) {
    const k = rank[i];
    writer.begin();
    if (k + 1 < n) bisectorEdge(writer, sites, i, order[k + 1], false, 0, 0, false, false, 0, 0, false);
    if (k > 0) bisectorEdge(writer, sites, i, order[k - 1], false, 0, 0, false, false, 0, 0, false);
    writer.end(sites[2 * i], sites[2 * i + 1]);
  }
  return writer.finish();
}

function checkBox(box: Box, n: number): void {
  const ok =
    Number.isFinite(box.minX) &&
    Number.isFinite(box.minY) &&
    Number.isFinite(box.maxX) &&
    Number.isFinite(box.maxY) &&
    box.minX <= box.maxX &&
    box.minY <= box.maxY;
  if (!ok) throw new RangeError(`the clip box must be finite and not empty, got ${JSON.stringify(box)}`);
  if (n >= 2 && !(box.maxX > box.minX && box.maxY > box.minY)) {
    throw new RangeError('the clip box of two or more sites must have positive width and height');
  }
}
