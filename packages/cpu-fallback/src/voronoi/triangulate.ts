import { GeoframeError } from '@geoframe/core';
import Delaunator from 'delaunator';
import { orient2d } from 'robust-predicates';
import type { Triangulation } from './buffers.js';
import { repairDelaunay } from './lawson-repair.js';
import { type LocalFrame, localFrame } from './local-frame.js';

/** A verified Delaunay triangulation plus what the Voronoi stages need from its construction. */
export interface RobustTriangulation extends Triangulation {
  /** The local frame the triangulation was computed in. */
  frame: LocalFrame;
  /** Per half-edge: 1 strictly Delaunay, 2 cocircular quad, 0 hull (see `repairDelaunay`). */
  edgeState: Uint8Array;
  /** Number of cocircular interior edges. */
  cocircularEdges: number;
  /** Edges flipped to repair delaunator's result (0 almost always). */
  flips: number;
}

/**
 * Delaunay triangulation of unique sites with exact guarantees: delaunator builds it in an exact
 * local frame (never touching `sites`), then every interior edge is verified — and repaired by
 * flips where delaunator's floating-point incircle test erred — with exact predicates.
 *
 * Returns null when there is no triangle: fewer than 3 sites, or all sites collinear (decided
 * exactly). Sites must be unique and finite.
 *
 * @throws GeoframeError `TRIANGULATION_FAILED` if delaunator dropped a distinct site (it skips
 * points within 2^-52 of each other in absolute terms; the local frame's scaling makes that
 * unreachable for sites at least 2^-72 of the extent apart)
 */
export function triangulate(sites: Float64Array): RobustTriangulation | null {
  const n = sites.length >> 1;
  if (n < 3) return null;
  const frame = localFrame(sites);
  if (allCollinear(frame.xy)) return null;
  const d = new Delaunator(frame.xy);
  const { triangles, halfedges, hull } = d;
  const used = new Uint8Array(n);
  for (let e = 0; e < triangles.length; e++) used[triangles[e]] = 1;
  for (let i = 0; i < n; i++) {
    if (used[i] === 0) {
      throw new GeoframeError(
        'TRIANGULATION_FAILED',
        `delaunator skipped site ${i} (${sites[2 * i]}, ${sites[2 * i + 1]}); sites must be unique`,
      );
    }
  }
  const repair = repairDelaunay(frame.xy, triangles, halfedges);
  return {
    triangles,
    halfedges,
    hull,
    frame,
    edgeState: repair.edgeState,
    cocircularEdges: repair.cocircularEdges,
    flips: repair.flips,
  };
}

/** Whether every site lies on one line, decided with the exact orientation predicate. */
export function allCollinear(xy: Float64Array): boolean {
  const n = xy.length >> 1;
  if (n < 3) return true;
  const ax = xy[0];
  const ay = xy[1];
  // the second reference point: the first site different from the first one
  let b = 1;
  while (b < n && xy[2 * b] === ax && xy[2 * b + 1] === ay) b++;
  if (b === n) return true;
  const bx = xy[2 * b];
  const by = xy[2 * b + 1];
  for (let i = b + 1; i < n; i++) {
    if (orient2d(ax, ay, bx, by, xy[2 * i], xy[2 * i + 1]) !== 0) return false;
  }
  return true;
}
