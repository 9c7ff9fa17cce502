import { type Box, boxArea } from '@geoframe/core';
import { emptyPolygons, type PolygonBuffers } from '../delaunay/buffers.js';
import { lineOrder } from '../delaunay/site-order.js';
import {
  type RobustTriangulation,
  SORT_FROM,
  triangulateOrdered,
  triangulateOrderedParallel,
} from '../delaunay/triangulate.js';
import { inChunks, WorkMeter, type WorkProgress } from '../workers/work-meter.js';
import { availableThreads, runRanges, toShared } from '../workers/worker-pool.js';
import { finishCells, planCells, planWalksParallel } from './cell-plan.js';
import { CellRingWriter } from './cell-ring-writer.js';
import { bisectorEdge } from './cell-walk.js';
import { circumcentersParallel } from './circumcenters.js';
import { VORONOI_CELL_PASSES } from './pass-weights.js';
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
  /**
   * Hears how far the run is (0 to 1, never decreasing), on this thread: the passes as they
   * start, delaunator's insertion loop, and the worker ranges as they finish.
   */
  onProgress?: WorkProgress;
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
  const meter = WorkMeter.of(options.onProgress, VORONOI_CELL_PASSES);
  if (n < (options.minSites ?? 200_000) || threads < 2 || n < 3) {
    return cellsOrdered(sites, box, n >= SORT_FROM, false, meter);
  }
  const ordered =
    n >= SORT_FROM
      ? await triangulateOrderedParallel(sites, threads, meter)
      : triangulateOrdered(sites, false, meter);
  if (ordered === null) return collinearCells(sites, box);
  const { tri } = ordered;
  const halfedges = toShared(tri.halfedges);
  meter.pass('circumcentres');
  const cc = await circumcentersParallel(
    ordered.sites,
    tri.frame,
    tri.triangles,
    halfedges,
    tri.edgeState,
    tri.cocircularEdges,
    threads,
    meter,
  );
  meter.pass('walks');
  const walks = await planWalksParallel(n, box, toShared(tri.triangles), halfedges, tri, cc, threads);
  const plan = planCells(ordered.sites, box, tri, ordered.order, false, true, cc, walks, meter);
  const { start, place, length, coords, longest } = plan;
  meter.pass('write');
  const changed = await writeSimpleRingsParallel(
    n,
    threads,
    [start, place, length, halfedges, cc, coords, longest],
    meter,
  );
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
function cellsOrdered(
  sites: Float64Array,
  box: Box,
  sort: boolean,
  general: boolean,
  meter = WorkMeter.SILENT,
): PolygonBuffers {
  const n = sites.length >> 1;
  if (n === 0) return emptyPolygons();
  if (n === 1) {
    if (boxArea(box) === 0) return emptyPolygons();
    const writer = new CellRingWriter(box, 1, 5);
    writer.boxCell();
    return writer.finish();
  }
  const ordered = triangulateOrdered(sites, sort, meter);
  if (ordered === null) return collinearCells(sites, box);
  return walkCells(ordered.sites, box, ordered.tri, ordered.order, general, meter);
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
  meter: WorkMeter,
): PolygonBuffers {
  const plan = planCells(sites, box, tri, order, general, false, null, null, meter);
  const { start, place, length, cc, coords, longest } = plan;
  meter.pass('write');
  let changed = 0;
  inChunks(start.length, meter, (lo, hi) => {
    changed += writeSimpleRings(lo, hi, start, place, length, tri.halfedges, cc, coords, longest);
  });
  return finishCells(plan, tri, changed);
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

/** The arguments of {@link writeSimpleRings} after the range; every array on a SharedArrayBuffer. */
export type SimpleRingArgs = [
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Float64Array,
  Float64Array,
  number,
];

/**
 * Runs {@link writeSimpleRings} over the sites `0 .. n` split into `threads` equal ranges (see
 * {@link runRanges}). Returns the sum of the changed counts.
 */
export async function writeSimpleRingsParallel(
  n: number,
  threads: number,
  args: SimpleRingArgs,
  meter = WorkMeter.SILENT,
): Promise<number> {
  let changed = 0;
  for (const c of await runRanges('writeSimpleRings', n, threads, args, meter)) changed += c as number;
  return changed;
}
