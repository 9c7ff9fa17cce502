import {
  type Box,
  extractSites,
  type GeometryArray,
  type Sites,
  type UniqueSites,
  uniqueSites,
} from '@geoframe/core';
import { uniqueSitesParallel } from '@geoframe/cpu';

/** The sites of `voronoiPolygons` / `delaunayTriangles`: every vertex, then the unique ones. */
export interface InputSites {
  /** Every vertex of every non-null, non-empty row, with its row. */
  sites: Sites;
  /** The sites left after removing duplicates and merging within `tolerance`. */
  unique: UniqueSites;
  /** Number of unique sites: the size that decides the dispatch. */
  count: number;
  /** The unique sites' bounding box, when the duplicates' removal found it on the way. */
  box?: Box;
}

/**
 * The sites of a geometry column as Voronoi and Delaunay take them (GEOS rule): every vertex,
 * exact duplicates removed, and a site within `tolerance` of an earlier kept one merged into it.
 * Shared by the operations and by `explain`, so both count the same sites.
 *
 * @throws RangeError when `tolerance` is not a finite number ≥ 0 (undefined means 0).
 * @throws InvalidGeometryError naming the row of a NaN or infinite vertex.
 */
export function inputSites(input: GeometryArray, tolerance: number | undefined): InputSites {
  const t = checkedTolerance(tolerance);
  const sites = extractSites(input);
  const unique = uniqueSites(sites.xy, { tolerance: t });
  return { sites, unique, count: unique.xy.length >> 1 };
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
): Promise<InputSites> {
  if (checkedTolerance(tolerance) > 0) return inputSites(input, tolerance);
  const sites = extractSites(input);
  const { box, ...unique } = await uniqueSitesParallel(sites.xy);
  return { sites, unique, count: unique.xy.length >> 1, box };
}

function checkedTolerance(tolerance: number | undefined): number {
  const t = tolerance ?? 0;
  if (!Number.isFinite(t) || t < 0) {
    throw new RangeError(`tolerance must be a finite number ≥ 0, got ${tolerance}`);
  }
  return t;
}
