import {
  type Box,
  boxOfXY,
  clipBox,
  defaultClipBox,
  extractSites,
  type GeometryArray,
  InvalidGeometryError,
  isEmptyBox,
  type Sites,
  type UniqueSites,
  uniqueSites,
} from '@geoframe/core';
import { geosToleranceSites, uniqueSitesParallel } from '@geoframe/cpu';
import type { HostLaps } from './host-laps.js';
import { SITES_CHECKED_ON_GPU_FROM } from './sites-may-repeat.js';

/** The sites of `voronoiPolygons` / `delaunayTriangles`: every vertex, then the unique ones. */
export interface InputSites {
  /** Every vertex of every non-null, non-empty row, with its row. */
  sites: Sites;
  /** The sites left after removing duplicates and merging within `tolerance`. */
  unique: UniqueSites;
  /** Number of unique sites: the size that decides the dispatch. */
  count: number;
  /**
   * The box the default clip box grows from, when found on the way: the unique sites' box, or
   * with a positive `tolerance` the box of every site before merging (GEOS takes the diagram's
   * envelope before it merges).
   */
  box?: Box;
}

/**
 * Whose triangulation decides which sites a positive `tolerance` merges (adr/0023): GEOS'
 * Voronoi builder triangulates inside a frame around the diagram box (with `extendTo`), its
 * Delaunay builder inside a frame around the sites' box and keeps the boundary convex.
 */
export type ToleranceRule = { op: 'voronoi'; extendTo: Box | GeometryArray | null } | { op: 'delaunay' };

const VORONOI: ToleranceRule = { op: 'voronoi', extendTo: null };

/**
 * The sites of a geometry column as Voronoi and Delaunay take them: every vertex, exact
 * duplicates removed, and with a positive `tolerance` the sites GEOS 3.13 drops removed (each
 * maps to the kept site it was found near). Shared by the operations and by `explain`, so both
 * count the same sites.
 *
 * @throws RangeError when `tolerance` is not a finite number ≥ 0 (undefined means 0).
 * @throws InvalidGeometryError naming the row of a NaN or infinite vertex.
 */
export function inputSites(
  input: GeometryArray,
  tolerance: number | undefined,
  rule: ToleranceRule = VORONOI,
): InputSites {
  const t = checkedTolerance(tolerance);
  const sites = extractSites(input);
  if (t === 0) {
    const unique = uniqueSites(sites.xy);
    return { sites, unique, count: unique.xy.length >> 1 };
  }
  const box = boxOfXY(sites.xy);
  const frameOf = rule.op === 'voronoi' ? clipBox(sites.xy, rule.extendTo, box) : box;
  const unique = geosToleranceSites(sites.xy, t, { frameOf, forceConvex: rule.op === 'delaunay' });
  return { sites, unique, count: unique.xy.length >> 1, box };
}

/**
 * {@link inputSites} for the operations themselves: the same sites, with exact duplicates
 * removed on worker threads (`uniqueSitesParallel`, which also finds their box) — on one thread
 * this step took 300 ms of a 390 ms `voronoiPolygons` of 1M points on the GPU host
 * (docs/benchmarks.md, "Host costs"). A positive tolerance merges on this thread.
 */
export async function gatherInputSites(
  input: GeometryArray,
  tolerance: number | undefined,
  rule: ToleranceRule = VORONOI,
  laps?: HostLaps,
): Promise<InputSites> {
  if (checkedTolerance(tolerance) > 0) return inputSites(input, tolerance, rule);
  const sites = extractSites(input);
  laps?.lap('sites extracted');
  const { box, ...unique } = await uniqueSitesParallel(sites.xy);
  return { sites, unique, count: unique.xy.length >> 1, box };
}

/**
 * {@link gatherInputSites} for the GPU's cells, where a large input's duplicates need not be
 * removed first (adr/0015): every site kept under identity maps, with its box (the unique sites'
 * box too), and `distinct()`, which removes the duplicates on worker threads — once — and puts
 * the result in `gathered` (its `unique` and `count`) when the GPU finds repeats or the CPU runs.
 * Small inputs, a positive tolerance and `speculate: false` take {@link gatherInputSites}.
 */
export async function gatherSitesMayRepeat(
  input: GeometryArray,
  tolerance: number | undefined,
  rule: ToleranceRule,
  speculate: boolean,
  laps?: HostLaps,
): Promise<{ gathered: InputSites; distinct?: () => Promise<Float64Array> }> {
  if (!speculate || checkedTolerance(tolerance) > 0) {
    return { gathered: await gatherInputSites(input, tolerance, rule, laps) };
  }
  const sites = extractSites(input);
  laps?.lap('sites extracted');
  const n = sites.xy.length >> 1;
  if (n < SITES_CHECKED_ON_GPU_FROM) {
    const { box, ...unique } = await uniqueSitesParallel(sites.xy);
    return { gathered: { sites, unique, count: unique.xy.length >> 1, box } };
  }
  // a point column's rows are 0, 1, …: the identity maps are that array, checked, not a new one
  const identity = isIdentity(sites.row) ? sites.row : identityOf(n);
  const gathered: InputSites = {
    sites,
    unique: { xy: sites.xy, siteOfInput: identity, inputOfSite: identity },
    count: n,
    box: boxOfXY(sites.xy),
  };
  let done: Promise<Float64Array> | null = null;
  const distinct = () => {
    done ??= uniqueSitesParallel(sites.xy).then(({ box: _box, ...unique }) => {
      gathered.unique = unique;
      gathered.count = unique.xy.length >> 1;
      return unique.xy;
    });
    return done;
  };
  return { gathered, distinct };
}

function identityOf(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

function isIdentity(a: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== i) return false;
  return true;
}

function checkedTolerance(tolerance: number | undefined): number {
  const t = tolerance ?? 0;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
    throw new RangeError(`tolerance must be a finite number ≥ 0, got ${String(tolerance)}`);
  }
  return t;
}

/** Whether every bound of `box` and both of its spans are finite doubles. */
function spansFinite(box: Box): boolean {
  return Number.isFinite(box.maxX - box.minX) && Number.isFinite(box.maxY - box.minY);
}

/**
 * The Voronoi clip box ({@link clipBox}), refused where it cannot be represented: a finite
 * coordinate such as 1e308 whose grown box overflows the largest double is an
 * InvalidGeometryError naming the row of the largest coordinate; an `extendTo` that makes the
 * box's span overflow is a RangeError.
 */
export function checkedClipBox(gathered: InputSites, extendTo: Box | GeometryArray | null): Box {
  const { sites, unique } = gathered;
  const siteBox = gathered.box ?? boxOfXY(unique.xy);
  const grown = defaultClipBox(siteBox);
  if (!isEmptyBox(grown) && !(spansFinite(grown) && spansFinite(siteBox))) {
    let k = 0;
    for (let i = 1; i < sites.xy.length; i++) if (Math.abs(sites.xy[i]) > Math.abs(sites.xy[k])) k = i;
    throw new InvalidGeometryError(
      sites.row[k >> 1],
      `coordinate ${sites.xy[k]} is finite, but the Voronoi clip box (the sites' box grown by max(width, height) on every side) overflows the largest double; scale or shift the data`,
    );
  }
  const box = clipBox(unique.xy, extendTo, siteBox);
  if (!isEmptyBox(box) && !spansFinite(box)) {
    throw new RangeError('extendTo makes the Voronoi clip box span more than the largest double');
  }
  return box;
}
