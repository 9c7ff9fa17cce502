import { orient2d } from 'robust-predicates';
import type { DelaunatorOutput } from './unfolded-delaunator.js';

/**
 * A fan over the strict convex hull of `xy`, in delaunator's conventions (triangles clockwise in
 * y-up, `hull` clockwise, −1 twins on the hull): the start from which the exact stages can build
 * the Delaunay triangulation when delaunator's floating-point flips fold the mesh beyond repair.
 *
 * The hull comes from Andrew's monotone chain with the exact orientation predicate, keeping only
 * strict turns, so every fan triangle is strictly clockwise. Every other site — interior, or on a
 * hull edge between two corners — is left out; the caller's exact repair makes the fan Delaunay
 * (Lawson's flips converge from any triangulation) and inserts the left-out sites with exact
 * predicates, as it does for the sites delaunator skips. Needs three sites not all collinear.
 */
export function hullFan(xy: Float64Array): DelaunatorOutput {
  const n = xy.length >> 1;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => xy[2 * a] - xy[2 * b] || xy[2 * a + 1] - xy[2 * b + 1]);
  // upper chain left to right, then lower chain right to left: clockwise in y-up (orient2d > 0)
  const hull: number[] = [];
  const chain = (from: number, to: number, step: number) => {
    const start = hull.length;
    for (let k = from; k !== to; k += step) {
      const p = order[k];
      while (hull.length - start >= 2 && !clockwise(xy, hull[hull.length - 2], hull[hull.length - 1], p))
        hull.pop();
      hull.push(p);
    }
    hull.pop(); // the chain's last corner starts the other chain
  };
  chain(0, n, 1);
  chain(n - 1, -1, -1);
  const h = hull.length;
  if (h < 3) throw new Error('hullFan needs three sites that are not all collinear');
  const triangles = new Uint32Array(3 * (h - 2));
  const halfedges = new Int32Array(3 * (h - 2));
  for (let i = 1, t = 0; i < h - 1; i++, t++) {
    // (v0, v_i, v_i+1): v0→v_i is shared with the triangle before, v_i+1→v0 with the one after
    triangles[3 * t] = hull[0];
    triangles[3 * t + 1] = hull[i];
    triangles[3 * t + 2] = hull[i + 1];
    halfedges[3 * t] = t === 0 ? -1 : 3 * (t - 1) + 2;
    halfedges[3 * t + 1] = -1;
    halfedges[3 * t + 2] = i === h - 2 ? -1 : 3 * (t + 1);
  }
  return { triangles, halfedges, hull: Uint32Array.from(hull) };
}

function clockwise(xy: Float64Array, a: number, b: number, c: number): boolean {
  return orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]) > 0;
}
