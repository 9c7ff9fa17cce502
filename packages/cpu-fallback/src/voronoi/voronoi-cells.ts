import { type Box, boxArea } from '@geoframe/core';
import { emptyPolygons, nextHalfedge, type PolygonBuffers, prevHalfedge } from './buffers.js';
import { CellRingWriter } from './cell-ring-writer.js';
import { circumcenters } from './circumcenters.js';
import { inBox } from './clip-edge.js';
import { lineOrder, walkStarts } from './site-order.js';
import { type RobustTriangulation, SORT_FROM, triangulateOrdered } from './triangulate.js';

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
 * or more sites, have positive width and height. Each cell contains its site; cells tile the box.
 * `sites` is never modified.
 */
export function voronoiCells(sites: Float64Array, box: Box): PolygonBuffers {
  return voronoiCellsOrdered(sites, box, sites.length >> 1 >= SORT_FROM);
}

/**
 * {@link voronoiCells}, choosing whether the sites are first renumbered along a Hilbert curve
 * (`sort`). The output is the same either way, bit for bit, wherever the Delaunay triangulation is
 * unique (no four cocircular sites); `sort` only changes the speed. Exported for tests.
 *
 * With `sort`, cells are walked in curve order (local in memory) into a scratch buffer, then
 * scattered into the caller's site order: ring offsets by an exclusive scan of the ring
 * lengths, then one copy per ring into an output of exactly the right size.
 */
export function voronoiCellsOrdered(sites: Float64Array, box: Box, sort: boolean): PolygonBuffers {
  const n = sites.length >> 1;
  if (n === 0) return emptyPolygons();
  checkBox(box, n);
  if (n === 1) {
    if (boxArea(box) === 0) return emptyPolygons();
    const writer = new CellRingWriter(box, 1, 5);
    writer.boxCell();
    return writer.finish();
  }
  const ordered = triangulateOrdered(sites, sort);
  if (ordered === null) return collinearCells(sites, box);
  const { tri, order } = ordered;
  const walked = walkCells(ordered.sites, box, tri);
  return order === null ? walked : scatterRings(walked, order);
}

/** Every cell of a triangulation's sites, in their numbering. */
function walkCells(sites: Float64Array, box: Box, tri: RobustTriangulation): PolygonBuffers {
  const n = sites.length >> 1;
  const { triangles, halfedges } = tri;
  const cc = circumcenters(sites, tri.frame, triangles, halfedges, tri.edgeState, tri.cocircularEdges);
  const nt = triangles.length / 3;
  const inside = new Uint8Array(nt);
  for (let t = 0; t < nt; t++) inside[t] = inBox(box, cc[2 * t], cc[2 * t + 1]) ? 1 : 0;
  const start = walkStarts(n, triangles, halfedges);
  // an unclipped cell has one vertex per half-edge leaving its site, plus the closing one
  const writer = new CellRingWriter(box, n, triangles.length + n + 8 * tri.hull.length + 64);

  for (let i = 0; i < n; i++) {
    const xi = sites[2 * i];
    const yi = sites[2 * i + 1];
    const e0 = start[i];
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
        bisectorEdge(
          writer,
          sites,
          i,
          j,
          true,
          cc[2 * t],
          cc[2 * t + 1],
          inside[t] === 1,
          false,
          0,
          0,
          false,
        );
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
    writer.end(xi, yi);
  }
  return writer.finish();
}

/**
 * Rings numbered by `order` (ring k belongs to site order[k]) moved into site order: ring
 * lengths scattered to the caller's numbering, an exclusive scan gives the offsets, then each
 * ring is copied to its place (reading front to back; measured faster than writing front to back).
 */
function scatterRings(walked: PolygonBuffers, order: Uint32Array): PolygonBuffers {
  const n = order.length;
  const from = walked.ringOffsets;
  const src = walked.coords;
  const ringOffsets = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) ringOffsets[order[k] + 1] = from[k + 1] - from[k];
  for (let i = 0; i < n; i++) ringOffsets[i + 1] += ringOffsets[i];
  const coords = new Float64Array(2 * ringOffsets[n]);
  for (let k = 0; k < n; k++) {
    const hi = 2 * from[k + 1];
    let at = 2 * ringOffsets[order[k]];
    for (let c = 2 * from[k]; c < hi; c++) coords[at++] = src[c];
  }
  return { coords, ringOffsets };
}

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
  const xi = sites[2 * i];
  const yi = sites[2 * i + 1];
  const xj = sites[2 * j];
  const yj = sites[2 * j + 1];
  writer.edge(
    (xi + xj) * 0.5,
    (yi + yj) * 0.5,
    yi - yj,
    xj - xi,
    hasA,
    ax,
    ay,
    aInside,
    hasB,
    bx,
    by,
    bInside,
  );
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
