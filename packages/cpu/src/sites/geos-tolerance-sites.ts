import type { Box, UniqueSites } from '@geoframe/core';
import { incircle, orient2d } from 'robust-predicates';
import { QuadEdgeMesh } from './quad-edge-mesh.js';

/** Which GEOS builder's triangulation decides the merges. */
export interface GeosToleranceOptions {
  /**
   * The envelope GEOS builds its frame triangle from: for `VoronoiDiagramBuilder` the diagram
   * box (the sites' box grown by max(width, height), united with `extend_to`), for
   * `DelaunayTriangulationBuilder` the sites' box.
   */
  frameOf: Box;
  /** GEOS keeps the triangulation's boundary convex for Delaunay, not for Voronoi. */
  forceConvex: boolean;
}

/** GEOS' frame is this many times the envelope's larger side away from it. */
const FRAME_SIZE_FACTOR = 10;
/** A site closer than tolerance / this to an edge splits that edge (GEOS' heuristic). */
const EDGE_COINCIDENCE_TOL_FACTOR = 1000;

/**
 * The sites GEOS 3.13 keeps for a positive `tolerance`, as `VoronoiDiagramBuilder` and
 * `DelaunayTriangulationBuilder` decide it. GEOS sorts the unique sites by (x, y) and inserts
 * them one by one into a quad-edge Delaunay triangulation inside a frame triangle; each site is
 * located by a walk that always starts at the same frame edge, and the site is dropped when it
 * lies closer than `tolerance` (strictly) to the origin or the destination of the edge the walk
 * stops at. It is *not* "within tolerance of any kept site": a site near a kept one that is the
 * third corner of its triangle stays. This replays that insertion (same mesh operations, same
 * walk, GEOS' floating-point orientation test in the walk; the in-circle test exact, where GEOS
 * computes it in x87 long double), so the kept sites are GEOS'.
 *
 * Kept sites come back in order of first appearance in `xy`, each at its own coordinates; a
 * dropped site maps to the kept site it was found near (the edge's origin first), or to −1 when
 * it was found near a corner of GEOS' frame (a tolerance of about ten times the data's extent),
 * where GEOS drops it with no cell at all.
 *
 * @throws RangeError when the walk fails to end (GEOS throws there too).
 */
export function geosToleranceSites(
  xy: Float64Array,
  tolerance: number,
  options: GeosToleranceOptions,
): UniqueSites {
  const n = xy.length >> 1;
  const { order, uniqueOf, m } = sortedUnique(xy);
  // the sorted unique sites, then the three frame corners
  const v = new Float64Array(2 * (m + 3));
  for (let k = 0; k < m; k++) {
    v[2 * k] = xy[2 * order[k]] + 0;
    v[2 * k + 1] = xy[2 * order[k] + 1] + 0;
  }
  const keptAs = insertSorted(v, m, tolerance, options);
  // kept sites in order of first appearance of their own coordinates
  const siteOfUnique = new Int32Array(m).fill(-1);
  const inputOfSiteAll = new Int32Array(m);
  const kept = new Float64Array(2 * m);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const u = uniqueOf[i];
    if (keptAs[u] !== u || siteOfUnique[u] >= 0) continue;
    siteOfUnique[u] = count;
    kept[2 * count] = v[2 * u];
    kept[2 * count + 1] = v[2 * u + 1];
    inputOfSiteAll[count++] = i;
  }
  const siteOfInput = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = keptAs[uniqueOf[i]];
    siteOfInput[i] = k < 0 ? -1 : siteOfUnique[k];
  }
  return { xy: kept.slice(0, 2 * count), siteOfInput, inputOfSite: inputOfSiteAll.slice(0, count) };
}

/** Input indices sorted by (x, y) (GEOS' coordinate order), exact duplicates removed. */
function sortedUnique(xy: Float64Array): { order: Int32Array; uniqueOf: Int32Array; m: number } {
  const n = xy.length >> 1;
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => xy[2 * a] - xy[2 * b] || xy[2 * a + 1] - xy[2 * b + 1] || a - b);
  const order = new Int32Array(n);
  const uniqueOf = new Int32Array(n);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    if (m > 0) {
      const p = order[m - 1];
      if (xy[2 * p] === xy[2 * i] && xy[2 * p + 1] === xy[2 * i + 1]) {
        uniqueOf[i] = m - 1;
        continue;
      }
    }
    order[m] = i;
    uniqueOf[i] = m++;
  }
  return { order, uniqueOf, m };
}

/**
 * Inserts the `m` sorted sites of `v` (whose last three slots receive the frame) as GEOS'
 * IncrementalDelaunayTriangulator does; returns, per site, itself when kept or the kept site
 * it merged into.
 */
function insertSorted(
  v: Float64Array,
  m: number,
  tolerance: number,
  options: GeosToleranceOptions,
): Int32Array {
  const keptAs = new Int32Array(m);
  for (let s = 0; s < m; s++) keptAs[s] = s;
  if (m < 2) return keptAs; // nothing to merge with (and GEOS' frame around one site is a point)
  const { forceConvex } = options;
  const { mesh, start } = framedMesh(v, m, options.frameOf);

  const isFrame = (a: number) => a >= m;
  // GEOS' Vertex::isCCW in doubles, as written there
  const ccw = (a: number, b: number, c: number) =>
    (v[2 * b] - v[2 * a]) * (v[2 * c + 1] - v[2 * a + 1]) >
    (v[2 * b + 1] - v[2 * a + 1]) * (v[2 * c] - v[2 * a]);
  const rightOf = (a: number, e: number) => ccw(a, mesh.dest(e), mesh.orig(e));
  const dist = (a: number, b: number) =>
    Math.sqrt((v[2 * a] - v[2 * b]) ** 2 + (v[2 * a + 1] - v[2 * b + 1]) ** 2);
  const same = (a: number, b: number) => v[2 * a] === v[2 * b] && v[2 * a + 1] === v[2 * b + 1];

  const locate = (s: number): number => {
    let e = start;
    const maxIter = 4 * mesh.quads + 16;
    for (let iter = 0; ; iter++) {
      if (iter > maxIter) throw new RangeError(`tolerance: could not locate site ${s} (as GEOS fails)`);
      if (same(s, mesh.orig(e)) || same(s, mesh.dest(e))) return e;
      if (rightOf(s, e)) e = mesh.sym(e);
      else if (!rightOf(s, mesh.oNext(e))) e = mesh.oNext(e);
      else if (!rightOf(s, mesh.dPrev(e))) e = mesh.dPrev(e);
      else return e;
    }
  };
  const concaveAtOrigin = (e: number) => {
    const p = mesh.orig(e);
    const pp = mesh.dest(mesh.oPrev(e));
    const pn = mesh.dest(mesh.oNext(e));
    // robust-predicates' orient2d is negative for a counter-clockwise turn
    return orient2d(v[2 * pp], v[2 * pp + 1], v[2 * pn], v[2 * pn + 1], v[2 * p], v[2 * p + 1]) < 0;
  };
  const concaveBoundary = (e: number) => {
    if (isFrame(mesh.dest(e))) return concaveAtOrigin(e);
    if (isFrame(mesh.orig(e))) return concaveAtOrigin(mesh.sym(e));
    return false;
  };
  const betweenFrameAndInserted = (e: number, s: number) => {
    const v1 = mesh.dest(mesh.oNext(e));
    const v2 = mesh.dest(mesh.oPrev(e));
    return (same(v1, s) && isFrame(v2)) || (same(v2, s) && isFrame(v1));
  };

  const edgeTolerance = tolerance / EDGE_COINCIDENCE_TOL_FACTOR;
  for (let s = 0; s < m; s++) {
    let e = locate(s);
    const o = mesh.orig(e);
    const d = mesh.dest(e);
    const near = dist(s, o) < tolerance ? o : dist(s, d) < tolerance ? d : -1;
    if (near >= 0) {
      // near a frame corner (a tolerance of about 10× the data's extent) GEOS drops the site
      keptAs[s] = isFrame(near) ? -1 : near;
      continue;
    }
    keptAs[s] = s;
    if (segmentDistance(v, s, o, d) < edgeTolerance) {
      e = mesh.oPrev(e);
      mesh.remove(mesh.oNext(e));
    }
    let base = mesh.makeEdge(mesh.orig(e), s);
    mesh.splice(base, e);
    const startEdge = base;
    do {
      base = mesh.connect(e, mesh.sym(base));
      e = mesh.oPrev(base);
    } while (mesh.lNext(e) !== startEdge);
    // restore the Delaunay condition around the new site
    for (;;) {
      const t = mesh.oPrev(e);
      const a = mesh.orig(e);
      const b = mesh.dest(t);
      const c = mesh.dest(e);
      let flip =
        rightOf(b, e) &&
        incircle(
          v[2 * a],
          v[2 * a + 1],
          v[2 * b],
          v[2 * b + 1],
          v[2 * c],
          v[2 * c + 1],
          v[2 * s],
          v[2 * s + 1],
        ) > 0;
      if (forceConvex) {
        if (concaveBoundary(e)) flip = true;
        else if (betweenFrameAndInserted(e, s)) flip = false;
      }
      if (flip) {
        mesh.swap(e);
        e = mesh.oPrev(e);
        continue;
      }
      if (mesh.oNext(e) === startEdge) break;
      e = mesh.lPrev(mesh.oNext(e));
    }
  }
  return keptAs;
}

/**
 * GEOS' frame: a triangle 10 × the envelope's larger side around `env`, its corners written to
 * the last three slots of `v`, as a mesh of three edges; `start` is the edge every walk starts at.
 */
function framedMesh(v: Float64Array, m: number, env: Box): { mesh: QuadEdgeMesh; start: number } {
  const offset = Math.max(env.maxX - env.minX, env.maxY - env.minY) * FRAME_SIZE_FACTOR;
  v[2 * m] = (env.maxX + env.minX) / 2;
  v[2 * m + 1] = env.maxY + offset;
  v[2 * m + 2] = env.minX - offset;
  v[2 * m + 3] = env.minY - offset;
  v[2 * m + 4] = env.maxX + offset;
  v[2 * m + 5] = env.minY - offset;
  const mesh = new QuadEdgeMesh(3 + 4 * m);
  const start = mesh.makeEdge(m, m + 1);
  const s1 = mesh.makeEdge(m + 1, m + 2);
  mesh.splice(mesh.sym(start), s1);
  const s2 = mesh.makeEdge(m + 2, m);
  mesh.splice(mesh.sym(s1), s2);
  mesh.splice(mesh.sym(s2), start);
  return { mesh, start };
}

/** Distance from site `p` to the segment a–b (GEOS' Distance::pointToSegment). */
function segmentDistance(v: Float64Array, p: number, a: number, b: number): number {
  const px = v[2 * p];
  const py = v[2 * p + 1];
  const ax = v[2 * a];
  const ay = v[2 * a + 1];
  const dx = v[2 * b] - ax;
  const dy = v[2 * b + 1] - ay;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return Math.sqrt((px - ax) ** 2 + (py - ay) ** 2);
  const r = ((px - ax) * dx + (py - ay) * dy) / len2;
  if (r <= 0) return Math.sqrt((px - ax) ** 2 + (py - ay) ** 2);
  if (r >= 1) return Math.sqrt((px - v[2 * b]) ** 2 + (py - v[2 * b + 1]) ** 2);
  const s = ((ay - py) * dx - (ax - px) * dy) / len2;
  return Math.abs(s) * Math.sqrt(len2);
}
