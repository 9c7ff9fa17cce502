import { boxOfXY } from '@geoframe/core';
import { runRanges } from '../../workers/worker-pool.js';
import type { DelaunatorOutput } from '../unfolded-delaunator.js';
import { convexHull } from './convex-hull.js';
import { STAR_SLOT } from './star-kernels.js';

/** Average sites a bucket cell of the star search holds. */
const SITES_PER_CELL = 2;

/** Largest hull whose vertices a star still open after two rings takes as candidates. */
const HULL_SEED_LIMIT = 4096;

/** Work of a {@link triangulateByStars} run summed over sites (for benchmarks; see `buildStars`). */
export interface StarWork {
  rings: number;
  collected: number;
  tested: number;
  incircles: number;
  disks: number;
}

/** Why the stars gave up (the caller then triangulates with delaunator), or null. */
export type StarFallback =
  | 'undecided predicate'
  | 'star overflow'
  | 'inconsistent star'
  | 'stars disagree'
  | 'triangle count';

/** The outcome of {@link triangulateByStars}. */
export type StarTriangulation = (
  | { ok: true; output: DelaunatorOutput }
  | { ok: false; reason: StarFallback }
) & {
  work: StarWork;
};

/**
 * The Delaunay triangulation of the sites `xy` (local frame, unique, finite, not all collinear, on a
 * SharedArrayBuffer) built as per-site stars on `threads` threads (ADR 0014): delaunator's output
 * format (triangles clockwise in y-up, half-edges, hull clockwise), triangles numbered by their
 * lowest site (so along the sites' curve order), on SharedArrayBuffers.
 *
 * Every decision is a float predicate certified by a static error bound; on any tie or near-tie
 * (lattices, cocircular or collinear sites), an overflowing star or a disagreement between stars
 * it gives up with the reason, and the caller uses delaunator.
 */
export async function triangulateByStars(xy: Float64Array, threads: number): Promise<StarTriangulation> {
  const n = xy.length >> 1;
  const hull = convexHull(xy);
  const hullPrev = new Int32Array(new SharedArrayBuffer(4 * n)).fill(-1);
  const hullNext = new Int32Array(new SharedArrayBuffer(4 * n)).fill(-1);
  const h = hull.length;
  for (let k = 0; k < h; k++) {
    hullPrev[hull[k]] = hull[(k + h - 1) % h];
    hullNext[hull[k]] = hull[(k + 1) % h];
  }
  const hullList = new Int32Array(new SharedArrayBuffer(4 * h));
  hullList.set(hull);
  const { grid, cellStart, cellSites } = bucketGrid(xy);
  const stars = new Int32Array(new SharedArrayBuffer(4 * STAR_SLOT * n));
  // stars longer than a slot (degree 16 and more: rare on spread sites) spill here
  const spill = new Int32Array(new SharedArrayBuffer(4 * Math.max(1024, n >> 2)));
  const info = new Int32Array(new SharedArrayBuffer(4 * n));
  const abort = new Int32Array(new SharedArrayBuffer(8));
  const ranges = await runRanges('buildStars', n, threads, [
    xy,
    grid,
    cellStart,
    cellSites,
    hullPrev,
    hullNext,
    hullList,
    HULL_SEED_LIMIT,
    stars,
    spill,
    info,
    abort,
  ]);
  const sums = [0, 0, 0, 0, 0, 0];
  for (const w of ranges as number[][]) for (let k = 0; k < sums.length; k++) sums[k] += w[k];
  const work = { rings: sums[1], collected: sums[2], tested: sums[3], incircles: sums[4], disks: sums[5] };
  const failure = firstFailure(info);
  if (failure !== null) return { ok: false, reason: failure, work };
  const counts = new Int32Array(new SharedArrayBuffer(4 * (n + 1)));
  const disagreeing = await runRanges('countStarTriangles', n, threads, [stars, spill, info, counts]);
  if (disagreeing.some((d) => (d as number) > 0)) return { ok: false, reason: 'stars disagree', work };
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  const triangleCount = counts[n];
  if (triangleCount !== 2 * n - 2 - h) return { ok: false, reason: 'triangle count', work };
  const triangles = new Uint32Array(new SharedArrayBuffer(12 * triangleCount));
  const halfedges = new Int32Array(new SharedArrayBuffer(12 * triangleCount));
  await runRanges('emitStarTriangles', n, threads, [stars, spill, info, counts, triangles, halfedges]);
  // delaunator's hull runs clockwise (y up)
  const hullOut = new Uint32Array(h);
  for (let k = 0; k < h; k++) hullOut[k] = hull[(h - k) % h];
  return { ok: true, output: { triangles, halfedges, hull: hullOut }, work };
}

/** The first failure among the stars' statuses (see star-kernels.ts), or null when all are final. */
function firstFailure(info: Int32Array): StarFallback | null {
  let worst = 1;
  for (let i = 0; i < info.length; i++) {
    const status = info[i] >> 8;
    // a range that stopped early marks its stars abandoned: report the cause, not those
    if (status !== 1 && (worst === 1 || worst === 5)) worst = status;
  }
  switch (worst) {
    case 1:
      return null;
    case 2:
      return 'undecided predicate';
    case 3:
      return 'star overflow';
    default:
      return 'inconsistent star';
  }
}

/**
 * A uniform grid of square cells over the sites' box with about {@link SITES_PER_CELL} sites a
 * cell: `grid` = [min x, min y, cell size, cells across, cells down], the sites of cell c at
 * `cellSites[cellStart[c] .. cellStart[c + 1]]` in index order.
 */
function bucketGrid(xy: Float64Array): { grid: Float64Array; cellStart: Int32Array; cellSites: Int32Array } {
  const n = xy.length >> 1;
  const { minX, minY, maxX, maxY } = boxOfXY(xy);
  const width = Math.max(maxX - minX, Number.MIN_VALUE);
  const height = Math.max(maxY - minY, Number.MIN_VALUE);
  // square cells: area per cell = box area × SITES_PER_CELL / n, bounded for very thin boxes
  let size = Math.sqrt((width * height * SITES_PER_CELL) / n);
  size = Math.max(size, Math.max(width, height) / Math.max(1, Math.ceil(n / SITES_PER_CELL)));
  const gw = Math.max(1, Math.min(Math.ceil(width / size), 1 << 15));
  const gh = Math.max(1, Math.min(Math.ceil(height / size), 1 << 15));
  size = Math.max(size, width / gw, height / gh) * (1 + 2 ** -40);
  const cellOf = new Int32Array(n);
  const cellStart = new Int32Array(new SharedArrayBuffer(4 * (gw * gh + 1)));
  for (let i = 0; i < n; i++) {
    const x = Math.min(gw - 1, Math.floor((xy[2 * i] - minX) / size));
    const y = Math.min(gh - 1, Math.floor((xy[2 * i + 1] - minY) / size));
    const c = y * gw + x;
    cellOf[i] = c;
    cellStart[c + 1]++;
  }
  for (let c = 0; c < gw * gh; c++) cellStart[c + 1] += cellStart[c];
  const fill = cellStart.slice(0, gw * gh);
  const cellSites = new Int32Array(new SharedArrayBuffer(4 * n));
  for (let i = 0; i < n; i++) cellSites[fill[cellOf[i]]++] = i;
  const grid = new Float64Array(new SharedArrayBuffer(40));
  grid.set([minX, minY, size, gw, gh]);
  return { grid, cellStart, cellSites };
}
