import {
  type DeviceOption,
  type DispatchEvent,
  GeometryArray,
  GeometryType,
  onDispatch,
  planDispatch,
  runDispatched,
} from '@geoframe/core';
import { delaunay, delaunayEdgeLines, delaunayTriangleRings, type Triangulation } from '@geoframe/cpu';
import { delaunayGpu, getGpuContext } from '@geoframe/gpu';
import { singleRingPolygons } from './cell-arrays.js';
import { gatherInputSites } from './input-sites.js';
import { checkLines, checkRings } from './output-check.js';

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
 * Delaunay under exact predicates; cocircular ties are split consistently. `device: 'gpu'` runs
 * the GPU's per-site star triangulation (exact, with simulation of simplicity: where sites are
 * cocircular it may split ties differently from the CPU); 'auto' keeps the CPU, which is faster
 * today. GPU failures under 'auto' fall back with an event.
 */
export async function computeDelaunay(
  input: GeometryArray,
  options: DelaunayOptions = {},
): Promise<{ geometry: GeometryArray; dispatch: DispatchEvent }> {
  const { unique, count } = await gatherInputSites(input, options.tolerance);
  const device = options.device ?? 'auto';
  const planned = planDispatch('delaunayTriangles', count, { device });
  let dispatch = planned;
  const stop = onDispatch((event) => {
    if (event.type === 'fallback' && event.kernel === 'delaunayTriangles') dispatch = event;
  });
  const tri: Triangulation = await runDispatched(planned, device, {
    gpu: async () => {
      const out = await delaunayGpu(await getGpuContext(), unique.xy);
      return out === null ? delaunay(unique.xy) : { ...out, hull: new Uint32Array(0) };
    },
    cpu: () => delaunay(unique.xy),
  }).finally(stop);
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
    return { geometry, dispatch };
  }
  const rings = delaunayTriangleRings(unique.xy, tri);
  // the output check (both paths): finite, closed rings of 4 points
  checkRings(rings.coords, rings.ringOffsets, (t) => `Delaunay triangle ${t}`);
  return { geometry: singleRingPolygons(rings.coords, rings.ringOffsets, input.crs), dispatch };
}
