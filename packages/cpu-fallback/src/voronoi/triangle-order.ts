/**
 * Renumbers the triangles of a half-edge triangulation by their lowest site index (stable: ties
 * keep their order), returning new `triangles` and `halfedges` arrays; each triangle keeps its
 * vertex order, so it is the same triangle with another number. With sites numbered along a
 * space-filling curve, the triangles around a site then sit next to each other in memory, which
 * makes every later pass that goes from site to triangles (repair, cell walk) cache-friendly;
 * delaunator numbers triangles in insertion order, which spirals out from the centre.
 * `shared`: the new arrays lie on SharedArrayBuffers (for worker threads).
 */
export function renumberTriangles(
  n: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
  shared = false,
): { triangles: Uint32Array; halfedges: Int32Array } {
  const nt = triangles.length / 3;
  // counting sort of the triangles by lowest vertex: `place[t]` is the new number of triangle t
  const place = new Int32Array(nt);
  const counts = new Int32Array(n + 1);
  for (let t = 0; t < nt; t++) {
    const a = triangles[3 * t];
    const b = triangles[3 * t + 1];
    const c = triangles[3 * t + 2];
    const low = Math.min(a, b, c);
    place[t] = low;
    counts[low + 1]++;
  }
  for (let i = 0; i < n; i++) counts[i + 1] += counts[i];
  for (let t = 0; t < nt; t++) place[t] = counts[place[t]]++;
  const outTriangles = shared ? new Uint32Array(new SharedArrayBuffer(12 * nt)) : new Uint32Array(3 * nt);
  const outHalfedges = shared ? new Int32Array(new SharedArrayBuffer(12 * nt)) : new Int32Array(3 * nt);
  for (let t = 0; t < nt; t++) {
    const to = 3 * place[t];
    for (let j = 0; j < 3; j++) {
      const e = 3 * t + j;
      outTriangles[to + j] = triangles[e];
      const twin = halfedges[e];
      outHalfedges[to + j] = twin === -1 ? -1 : 3 * place[(twin / 3) | 0] + (twin % 3);
    }
  }
  return { triangles: outTriangles, halfedges: outHalfedges };
}
