import { nextHalfedge } from './buffers.js';

/**
 * For every site, the half-edge its counter-clockwise ring walk starts from: a half-edge leaving
 * the site; for a hull site, the one right after the hull edge that enters it, so the walk runs
 * from one hull edge to the other without wrapping. -1 for a site in no triangle.
 */
export function walkStarts(n: number, triangles: Uint32Array, halfedges: Int32Array): Int32Array {
  const start = new Int32Array(n).fill(-1);
  for (let e = 0; e < triangles.length; e++) {
    const i = triangles[e];
    if (start[i] === -1) start[i] = e;
  }
  for (let e = 0; e < triangles.length; e++) {
    if (halfedges[e] === -1) {
      const f = nextHalfedge(e);
      start[triangles[f]] = f;
    }
  }
  return start;
}

/**
 * The order of collinear sites along their line (lexicographic by x, then y — for distinct
 * points on one line that is their order along it, vertical lines included).
 */
export function lineOrder(sites: Float64Array): Uint32Array {
  const n = sites.length >> 1;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => sites[2 * a] - sites[2 * b] || sites[2 * a + 1] - sites[2 * b + 1]);
  return order;
}
