import {
  type DeviceOption,
  type DispatchEvent,
  emitDispatch,
  GeometryArray,
  GeometryType,
  planDispatch,
} from '@geoframe/core';
import { delaunay, delaunayEdgeLines, delaunayTriangleRings } from '@geoframe/cpu-fallback';
import { singleRingPolygons } from './cell-arrays.js';
import { inputSites } from './input-sites.js';

/** Options of `delaunayTriangles`. */
export interface DelaunayOptions {
  /** Snapping distance (GEOS rule), as for Voronoi. Default 0: only exact duplicates merge. */
  tolerance?: number;
  /** LineStrings of the unique edges instead of triangles. */
  onlyEdges?: boolean;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
}

/**
 * The Delaunay triangulation of every vertex of a geometry column: one counter-clockwise
 * triangle Polygon per row, or one two-point LineString per unique edge with `onlyEdges`. Empty
 * for fewer than 3 unique sites or when they are all collinear (GEOS semantics). Triangles are
 * Delaunay under exact predicates; cocircular ties are split consistently.
 */
export function computeDelaunay(
  input: GeometryArray,
  options: DelaunayOptions = {},
): { geometry: GeometryArray; dispatch: DispatchEvent } {
  const { unique, count } = inputSites(input, options.tolerance);
  const dispatch = planDispatch('delaunayTriangles', count, { device: options.device });
  emitDispatch(dispatch);
  const tri = delaunay(unique.xy);
  if (options.onlyEdges) {
    const lines = delaunayEdgeLines(unique.xy, tri);
    const geometry = new GeometryArray({
      type: GeometryType.LineString,
      dimension: 'xy',
      coords: lines.coords,
      offsets: [lines.partOffsets],
      length: lines.partOffsets.length - 1,
      crs: input.crs,
    });
    return { geometry, dispatch };
  }
  const rings = delaunayTriangleRings(unique.xy, tri);
  return { geometry: singleRingPolygons(rings.coords, rings.ringOffsets, input.crs), dispatch };
}
