import { runRanges, toShared } from '../workers/worker-pool.js';
import { scatterTriangles } from './delaunay-kernels.js';

/**
 * Renumbers the triangles of a half-edge triangulation by their lowest site index (stable: ties
 * keep their order), returning new `triangles` and `halfedges` arrays; each triangle keeps its
 * vertex order, so it is the same triangle with another number. With sites numbered along a
 * space-filling curve, the triangles around a site then sit next to each other in memory, which
 * makes every later pass that goes from site to triangles (repair, cell walk) cache-friendly;
 * delaunator numbers triangles in insertion order, which spirals out from the centre.
 */
export function renumberTriangles(
  n: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
): { triangles: Uint32Array; halfedges: Int32Array } {
  const nt = triangles.length / 3;
  const place = trianglePlaces(n, triangles, false);
  const outTriangles = new Uint32Array(3 * nt);
  const outHalfedges = new Int32Array(3 * nt);
  scatterTriangles(0, nt, triangles, halfedges, place, outTriangles, outHalfedges);
  return { triangles: outTriangles, halfedges: outHalfedges };
}

/**
 * {@link renumberTriangles} with the scatter on `threads` threads (`scatterTriangles`); the same
 * arrays, on SharedArrayBuffers. The input is copied to shared memory first (workers would
 * otherwise each get a copy).
 */
export async function renumberTrianglesParallel(
  n: number,
  triangles: Uint32Array,
  halfedges: Int32Array,
  threads: number,
): Promise<{ triangles: Uint32Array; halfedges: Int32Array }> {
  const place = trianglePlaces(n, triangles, true);
  return scatterTrianglesParallel(toShared(triangles), toShared(halfedges), place, threads);
}

/**
 * The triangles (on SharedArrayBuffers) moved to their new numbers `place` on `threads` threads
 * (`scatterTriangles`), into new arrays on SharedArrayBuffers.
 */
export async function scatterTrianglesParallel(
  triangles: Uint32Array,
  halfedges: Int32Array,
  place: Int32Array,
  threads: number,
): Promise<{ triangles: Uint32Array; halfedges: Int32Array }> {
  const outTriangles = new Uint32Array(new SharedArrayBuffer(triangles.byteLength));
  const outHalfedges = new Int32Array(new SharedArrayBuffer(halfedges.byteLength));
  await runRanges('scatterTriangles', triangles.length / 3, threads, [
    triangles,
    halfedges,
    place,
    outTriangles,
    outHalfedges,
  ]);
  return { triangles: outTriangles, halfedges: outHalfedges };
}

/** `place[t]`: triangle t's new number, a counting sort by lowest vertex (stable). */
function trianglePlaces(n: number, triangles: Uint32Array, shared: boolean): Int32Array {
  const nt = triangles.length / 3;
  const place = shared ? new Int32Array(new SharedArrayBuffer(4 * nt)) : new Int32Array(nt);
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
  return place;
}
