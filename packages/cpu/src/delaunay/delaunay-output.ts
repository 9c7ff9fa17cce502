import { DELAUNAY_PASSES } from '../voronoi/pass-weights.js';
import { checkSiteRange } from '../voronoi/safe-frame.js';
import { WorkMeter, type WorkProgress } from '../workers/work-meter.js';
import {
  emptyLines,
  emptyPolygons,
  type LineBuffers,
  nextHalfedge,
  type PolygonBuffers,
  type Triangulation,
} from './buffers.js';
import { lineOrder } from './site-order.js';
import { triangulate } from './triangulate.js';

/**
 * The Delaunay triangulation of unique sites in half-edge form (delaunator's layout), verified
 * and repaired with exact predicates. `sites` is never modified. Fewer than 3 sites or all
 * collinear: no triangle, no half-edge, and `hull` lists the sites in order along their line.
 * Cocircular sites (lattices, circles) have several Delaunay triangulations; this returns one.
 * Any finite magnitude (the local frame scales by a power of two).
 *
 * @throws GeoframeError `COORDINATE_RANGE` for nonzero coordinates more than 2^220 apart in
 * magnitude, or all below 2^-1000 (the exact predicates would underflow)
 * `onProgress` hears how far the run is (0 to 1, never decreasing).
 */
export function delaunay(sites: Float64Array, onProgress?: WorkProgress): Triangulation {
  checkSiteRange(sites);
  const tri = triangulate(sites, WorkMeter.of(onProgress, DELAUNAY_PASSES));
  if (tri !== null) return { triangles: tri.triangles, halfedges: tri.halfedges, hull: tri.hull };
  return { triangles: new Uint32Array(0), halfedges: new Int32Array(0), hull: lineOrder(sites) };
}

/**
 * Delaunay triangles as polygons (GEOS `DelaunayTriangles`): one closed counter-clockwise ring
 * of 4 points per triangle. Empty for fewer than 3 sites or collinear sites.
 */
export function delaunayTriangleRings(sites: Float64Array, triangulation = delaunay(sites)): PolygonBuffers {
  const { triangles } = triangulation;
  const nt = triangles.length / 3;
  if (nt === 0) return emptyPolygons();
  const coords = new Float64Array(8 * nt);
  const ringOffsets = new Int32Array(nt + 1);
  for (let t = 0; t < nt; t++) {
    // delaunator's triangles are clockwise in y-up: write a, c, b, a
    const a = triangles[3 * t];
    const b = triangles[3 * t + 1];
    const c = triangles[3 * t + 2];
    const o = 8 * t;
    coords[o] = sites[2 * a];
    coords[o + 1] = sites[2 * a + 1];
    coords[o + 2] = sites[2 * c];
    coords[o + 3] = sites[2 * c + 1];
    coords[o + 4] = sites[2 * b];
    coords[o + 5] = sites[2 * b + 1];
    coords[o + 6] = sites[2 * a];
    coords[o + 7] = sites[2 * a + 1];
    ringOffsets[t + 1] = 4 * (t + 1);
  }
  return { coords, ringOffsets };
}

/**
 * Every Delaunay edge once, as two-point line parts (GEOS `DelaunayTriangles` with
 * `onlyEdges`). Empty for fewer than 3 sites or collinear sites.
 */
export function delaunayEdgeLines(sites: Float64Array, triangulation = delaunay(sites)): LineBuffers {
  const { triangles, halfedges } = triangulation;
  if (triangles.length === 0) return emptyLines();
  let count = 0;
  for (let e = 0; e < triangles.length; e++) if (halfedges[e] < e) count++;
  const coords = new Float64Array(4 * count);
  const partOffsets = new Int32Array(count + 1);
  let k = 0;
  for (let e = 0; e < triangles.length; e++) {
    if (halfedges[e] >= e) continue; // each edge once: from its larger half-edge, or the hull one
    const i = triangles[e];
    const j = triangles[nextHalfedge(e)];
    coords[4 * k] = sites[2 * i];
    coords[4 * k + 1] = sites[2 * i + 1];
    coords[4 * k + 2] = sites[2 * j];
    coords[4 * k + 3] = sites[2 * j + 1];
    partOffsets[++k] = 2 * k;
  }
  return { coords, partOffsets };
}
