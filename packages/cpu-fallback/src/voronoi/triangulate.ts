import Delaunator from 'delaunator';
import { orient2d } from 'robust-predicates';
import type { Triangulation } from './buffers.js';
import { insertSkipped } from './insert-skipped.js';
import { countCocircular, repairDelaunay } from './lawson-repair.js';
import { type LocalFrame, localFrame } from './local-frame.js';

/** A verified Delaunay triangulation plus what the Voronoi stages need from its construction. */
export interface RobustTriangulation extends Triangulation {
  /** The local frame the triangulation was computed in. */
  frame: LocalFrame;
  /** Per half-edge: 1 strictly Delaunay, 2 cocircular quad, 0 hull (see `repairDelaunay`). */
  edgeState: Uint8Array;
  /** Number of cocircular interior edges. */
  cocircularEdges: number;
  /** Edges flipped to repair delaunator's result (0 for well-spread sites). */
  flips: number;
  /** Sites delaunator skipped (distinct but ulps apart) and that were inserted exactly afterwards. */
  inserted: number;
}

/**
 * Delaunay triangulation of unique sites with exact guarantees: delaunator builds it in an exact
 * local frame (never touching `sites`), then every interior edge is verified — and repaired by
 * flips where delaunator's floating-point incircle test erred — with exact predicates.
 *
 * Returns null when there is no triangle: fewer than 3 sites, or all sites collinear (decided
 * exactly). Sites must be unique and finite.
 * Sites delaunator skips as "near duplicates" (distinct sites a few ulps apart) are inserted
 * afterwards with exact predicates (`insertSkipped`), so every site is a vertex.
 *
 * @throws GeoframeError `TRIANGULATION_FAILED` only for a skipped site outside the hull, which
 * needs sites within 2^-52 of each other in the local frame (about 2^-72 of the extent)
 */
export function triangulate(sites: Float64Array): RobustTriangulation | null {
  const n = sites.length >> 1;
  if (n < 3) return null;
  const frame = localFrame(sites);
  if (allCollinear(frame.xy)) return null;
  const d = new Delaunator(frame.xy);
  let triangles: Uint32Array = d.triangles;
  let halfedges: Int32Array = d.halfedges;
  let hull: Uint32Array = d.hull;
  const repair = repairDelaunay(frame.xy, triangles, halfedges);
  let edgeState = repair.edgeState;
  let flips = repair.flips;
  const used = new Uint8Array(n);
  for (let e = 0; e < triangles.length; e++) used[triangles[e]] = 1;
  let skipped = 0;
  for (let i = 0; i < n; i++) skipped += 1 - used[i];
  if (skipped > 0) {
    const missing = new Int32Array(skipped);
    for (let i = 0, k = 0; i < n; i++) if (used[i] === 0) missing[k++] = i;
    const grown = insertSkipped(frame.xy, missing, triangles, halfedges, hull, edgeState);
    ({ triangles, halfedges, hull, edgeState } = grown);
    flips += grown.flips;
  }
  return {
    triangles,
    halfedges,
    hull,
    frame,
    edgeState,
    cocircularEdges: countCocircular(halfedges, edgeState),
    flips,
    inserted: skipped,
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
