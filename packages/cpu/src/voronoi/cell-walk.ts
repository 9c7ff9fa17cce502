import { nextHalfedge, prevHalfedge } from '../delaunay/buffers.js';
import type { CellRingWriter } from './cell-ring-writer.js';
import { bisector } from './clip-edge.js';

/**
 * Feeds the writer cell i (any cell: hull, clipped or not), walking counter-clockwise around the
 * site from half-edge e0 (its walk start: a half-edge leaving the site; for a hull site the one
 * right after the hull edge that enters it, so the walk runs from one hull edge to the other).
 */
export function walkCell(
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
export function bisectorEdge(
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
