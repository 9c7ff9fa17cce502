import {
  checkOptions,
  type DeviceOption,
  type DispatchEvent,
  GeometryArray,
  GeometryType,
  type ProgressOption,
} from '@geoframe/core';
import { delaunayEdgeLines, delaunayTriangleRings } from '@geoframe/cpu';
import { dispatchOperation } from '../ops/dispatch-operation.js';
import { delaunayEngines } from '../ops/engines.js';
import { singleRingPolygons } from './cell-arrays.js';
import { gatherInputSites } from './input-sites.js';
import { checkLines, checkRings } from './output-check.js';
import { delaunayProgress } from './voronoi-progress.js';

/** Options of `delaunayTriangles`. */
export interface DelaunayOptions {
  /**
   * Snapping distance, as GEOS 3.13 applies it (see `voronoiPolygons`; GEOS' Delaunay builder
   * triangulates in a frame around the sites' box, so the same tolerance may keep other sites).
   * Default 0: only exact duplicates merge.
   */
  tolerance?: number;
  /** LineStrings of the unique edges instead of triangles. */
  onlyEdges?: boolean;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
  /** Hears this call's dispatch events only (see `VoronoiOptions.onDispatch`). */
  onDispatch?: (event: DispatchEvent) => void;
  /** Hears progress on long runs (stages 'sites', 'triangulation', 'triangles'; see `voronoiPolygons`). */
  onProgress?: ProgressOption;
}

/** The keys of {@link DelaunayOptions}: anything else is refused (`checkOptions`). */
export const DELAUNAY_OPTION_KEYS = ['tolerance', 'onlyEdges', 'device', 'onDispatch', 'onProgress'] as const;

/**
 * The Delaunay triangulation of every vertex of a geometry column: one counter-clockwise
 * triangle Polygon per row, or one two-point LineString per unique edge with `onlyEdges`. Empty
 * for fewer than 3 unique sites or when they are all collinear (GEOS semantics). Triangles are
 * Delaunay under exact predicates; cocircular ties are split consistently. `device: 'gpu'` runs
 * the GPU's per-site star triangulation (exact, with simulation of simplicity: where sites are
 * cocircular it may split ties differently from the CPU); 'auto' keeps the CPU, which is faster
 * today. GPU failures under 'auto' fall back with an event.
 */
export async function computeDelaunay(
  input: GeometryArray,
  options: DelaunayOptions = {},
): Promise<{ geometry: GeometryArray; dispatch: DispatchEvent }> {
  checkOptions(options, DELAUNAY_OPTION_KEYS, 'delaunayTriangles');
  const progress = delaunayProgress(options.onProgress);
  progress.stage('sites', input.length);
  const { unique, count } = await gatherInputSites(input, options.tolerance, { op: 'delaunay' });
  progress.stage('triangulation', count);
  const device = options.device ?? 'auto';
  const { value: tri, decision: dispatch } = await dispatchOperation(
    'delaunayTriangles',
    count,
    device,
    delaunayEngines(unique.xy, progress.stageFraction()),
    options.onDispatch,
  );
  progress.stage('triangles', count);
  if (options.onlyEdges) {
    const lines = delaunayEdgeLines(unique.xy, tri);
    checkLines(lines.coords, lines.partOffsets, 'the Delaunay edges');
    const geometry = new GeometryArray({
      type: GeometryType.LineString,
      dimension: 'xy',
      coords: lines.coords,
      offsets: [lines.partOffsets],
      length: lines.partOffsets.length - 1,
      crs: input.crs,
    });
    progress.finish();
    return { geometry, dispatch };
  }
  const rings = delaunayTriangleRings(unique.xy, tri);
  // the output check (both paths): finite, closed rings of 4 points
  checkRings(rings.coords, rings.ringOffsets, (t) => `Delaunay triangle ${t}`);
  progress.finish();
  return { geometry: singleRingPolygons(rings.coords, rings.ringOffsets, input.crs), dispatch };
}
