import { GeoframeError } from '@geoframe/core';
import { orient2d } from 'robust-predicates';
import { nextHalfedge, prevHalfedge } from './buffers.js';
import { LawsonFlipper, link } from './lawson-repair.js';

/** A triangulation grown by {@link insertSkipped}. */
export interface GrownTriangulation {
  triangles: Uint32Array;
  halfedges: Int32Array;
  hull: Uint32Array;
  edgeState: Uint8Array;
  /** Flips done while legalizing the inserted sites. */
  flips: number;
}

/**
 * Inserts the sites delaunator skipped into a Delaunay triangulation, with exact predicates.
 *
 * delaunator drops a point it cannot see from its advancing hull ("likely a near-duplicate"):
 * for distinct sites a few ulps apart, e.g. 1e-12 apart at 1000, the second can land just
 * inside the hull. Such a site lies inside or on the final hull, so it is located by a
 * visibility walk (exact orientation tests; it terminates on a Delaunay triangulation), its
 * triangle (or the two triangles sharing the edge it lies on, or the one hull triangle) is
 * split, and the new edges are legalized by `flipper`. `ids` (optional) maps site indices to
 * the caller's numbering, for error messages.
 *
 * @throws GeoframeError `TRIANGULATION_FAILED` for a skipped site outside the hull (only
 * possible for sites within 2^-52 of each other in the local frame, i.e. ~2^-72 of the extent)
 */
export function insertSkipped(
  xy: Float64Array,
  skipped: Int32Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  hull: Uint32Array,
  edgeState: Uint8Array,
  ids: Uint32Array | null = null,
): GrownTriangulation {
  // every insertion adds at most two triangles
  const capacity = triangles.length + 6 * skipped.length;
  const t2 = new Uint32Array(capacity);
  t2.set(triangles);
  const h2 = new Int32Array(capacity).fill(-1);
  h2.set(halfedges);
  const s2 = new Uint8Array(capacity);
  s2.set(edgeState);
  const flipper = new LawsonFlipper(xy, t2, h2, s2);
  let length = triangles.length;
  let hullList = Array.from(hull);

  for (let k = 0; k < skipped.length; k++) {
    const p = skipped[k];
    const px = xy[2 * p];
    const py = xy[2 * p + 1];
    const side = (e: number) => {
      const a = t2[e];
      const b = t2[nextHalfedge(e)];
      // positive: p on the inner side of a delaunator (clockwise in y-up) triangle's edge
      return orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], px, py);
    };
    // visibility walk from the last triangle
    let t = ((length - 3) / 3) | 0;
    let onEdge = -1;
    for (let steps = 0; ; steps++) {
      if (steps > length) throw failure(p, ids === null ? p : ids[p], xy, 'point location did not converge');
      let moved = false;
      onEdge = -1;
      for (let j = 0; j < 3; j++) {
        const e = 3 * t + j;
        const s = side(e);
        if (s < 0) {
          const twin = h2[e];
          if (twin < 0) throw failure(p, ids === null ? p : ids[p], xy, 'it lies outside the convex hull');
          t = (twin / 3) | 0;
          moved = true;
          break;
        }
        if (s === 0) onEdge = e;
      }
      if (!moved) break;
    }
    const fresh = length;
    if (onEdge < 0) {
      splitTriangle(t2, h2, t, p, fresh);
      length += 6;
      flipper.legalize(3 * t);
      flipper.legalize(fresh);
      flipper.legalize(fresh + 3);
    } else if (h2[onEdge] >= 0) {
      const outer = splitInteriorEdge(t2, h2, onEdge, p, fresh);
      length += 6;
      for (const e of outer) flipper.legalize(e);
    } else {
      const u = t2[onEdge];
      const v = t2[nextHalfedge(onEdge)];
      const outer = splitHullEdge(t2, h2, onEdge, p, fresh);
      length += 3;
      for (const e of outer) flipper.legalize(e);
      hullList = insertIntoHull(hullList, u, v, p);
    }
  }
  return {
    triangles: t2.subarray(0, length),
    halfedges: h2.subarray(0, length),
    hull: Uint32Array.from(hullList),
    edgeState: s2.subarray(0, length),
    flips: flipper.flips,
  };
}

/** (a, b, c) with p inside → (a, b, p) in place, (b, c, p) and (c, a, p) at `fresh`. */
function splitTriangle(tr: Uint32Array, he: Int32Array, t: number, p: number, fresh: number): void {
  const a = tr[3 * t];
  const b = tr[3 * t + 1];
  const c = tr[3 * t + 2];
  const h1 = he[3 * t + 1];
  const h2 = he[3 * t + 2];
  const t1 = fresh;
  const t2 = fresh + 3;
  tr[3 * t + 2] = p; // (a, b, p): a→b keeps its twin
  tr[t1] = b;
  tr[t1 + 1] = c;
  tr[t1 + 2] = p;
  tr[t2] = c;
  tr[t2 + 1] = a;
  tr[t2 + 2] = p;
  tr[3 * t + 1] = b;
  link(he, t1, h1);
  link(he, t2, h2);
  link(he, 3 * t + 1, t1 + 2); // b→p / p→b
  link(he, t1 + 1, t2 + 2); // c→p / p→c
  link(he, t2 + 1, 3 * t + 2); // a→p / p→a
}

/** p on the interior edge e (u→v) of (u, v, w), twin f of (v, u, z): four triangles. */
function splitInteriorEdge(tr: Uint32Array, he: Int32Array, e: number, p: number, fresh: number): number[] {
  const f = he[e];
  const e1 = nextHalfedge(e);
  const e2 = prevHalfedge(e);
  const f1 = nextHalfedge(f);
  const f2 = prevHalfedge(f);
  const u = tr[e];
  const w = tr[e2];
  const z = tr[f2];
  const hE2 = he[e2];
  const hF1 = he[f1];
  const b = fresh; // (u, p, w)
  const d = fresh + 3; // (p, u, z)
  tr[e] = p; // (p, v, w)
  tr[f1] = p; // (v, p, z)
  tr[b] = u;
  tr[b + 1] = p;
  tr[b + 2] = w;
  tr[d] = p;
  tr[d + 1] = u;
  tr[d + 2] = z;
  link(he, e, f); // p→v / v→p
  link(he, e2, b + 1); // w→p / p→w
  link(he, b, d); // u→p / p→u
  link(he, f1, d + 2); // p→z / z→p
  link(he, b + 2, hE2); // w→u
  link(he, d + 1, hF1); // u→z
  return [e1, b + 2, f2, d + 1];
}

/** p on the hull edge e (u→v) of (u, v, w): two triangles. */
function splitHullEdge(tr: Uint32Array, he: Int32Array, e: number, p: number, fresh: number): number[] {
  const e1 = nextHalfedge(e);
  const e2 = prevHalfedge(e);
  const u = tr[e];
  const w = tr[e2];
  const hE2 = he[e2];
  const b = fresh; // (u, p, w)
  tr[e] = p; // (p, v, w), p→v on the hull
  tr[b] = u;
  tr[b + 1] = p;
  tr[b + 2] = w;
  link(he, e, -1);
  link(he, b, -1); // u→p on the hull
  link(he, e2, b + 1);
  link(he, b + 2, hE2);
  return [e1, b + 2];
}

function insertIntoHull(hull: number[], u: number, v: number, p: number): number[] {
  const n = hull.length;
  for (let k = 0; k < n; k++) {
    const next = hull[(k + 1) % n];
    if (hull[k] === u && next === v) return [...hull.slice(0, k + 1), p, ...hull.slice(k + 1)];
    if (hull[k] === v && next === u) return [...hull.slice(0, k + 1), p, ...hull.slice(k + 1)];
  }
  return hull;
}

function failure(p: number, id: number, xy: Float64Array, why: string): GeoframeError {
  return new GeoframeError(
    'TRIANGULATION_FAILED',
    `cannot insert site ${id} (${xy[2 * p]}, ${xy[2 * p + 1]}): ${why}`,
  );
}
