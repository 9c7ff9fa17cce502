// Exact insertion of sites delaunator skips: inside a triangle, on an interior edge, on the hull.
import { clipBox, uniqueSites } from '@geoframe/core';
import { triangulate, voronoiCells } from '@geoframe/cpu';
import { generatePoints } from '@geoframe/testing';
import { incircle, orient2d } from 'robust-predicates';
import { expect, test } from 'vitest';
import { insertSkipped } from '../src/delaunay/insert-skipped.js';
import { ringContains, ringProblem } from './voronoi-helpers.js';

test('inserts points inside a triangle, on an interior edge and on hull edges, staying Delaunay', () => {
  // A(0,0) B(4,0) C(0,4) as one clockwise triangle; then P(1,1) inside, S(0.5,0.5) on the
  // interior edge A–P, Q(2,0) on the hull edge A–B, R(2,2) on the hull edge B–C
  const xy = new Float64Array([0, 0, 4, 0, 0, 4, 1, 1, 0.5, 0.5, 2, 0, 2, 2]);
  const grown = insertSkipped(
    xy,
    new Int32Array([3, 4, 5, 6]),
    new Uint32Array([0, 2, 1]),
    new Int32Array([-1, -1, -1]),
    new Uint32Array([0, 2, 1]),
    new Uint8Array(3),
  );
  const { triangles, halfedges, hull } = grown;
  expect(triangles.length / 3).toBe(2 * 7 - 2 - 5);
  expect(new Set(Array.from(triangles)).size).toBe(7);
  expect(Array.from(hull).sort()).toEqual([0, 1, 2, 5, 6]);
  const p = (i: number) => [xy[2 * i], xy[2 * i + 1]] as const;
  let hullEdges = 0;
  for (let e = 0; e < triangles.length; e++) {
    if (e % 3 === 0)
      expect(orient2d(...p(triangles[e]), ...p(triangles[e + 1]), ...p(triangles[e + 2]))).toBeGreaterThan(0);
    const f = halfedges[e];
    if (f === -1) {
      hullEdges++;
      continue;
    }
    expect(halfedges[f]).toBe(e);
    const next = (h: number) => (h % 3 === 2 ? h - 2 : h + 1);
    expect(triangles[next(f)]).toBe(triangles[e]);
    const base = e - (e % 3);
    const z = triangles[f - (f % 3) + ((f + 2) % 3)];
    expect(
      incircle(
        ...p(triangles[e]),
        ...p(triangles[base + ((e + 1) % 3)]),
        ...p(triangles[base + ((e + 2) % 3)]),
        ...p(z),
      ),
    ).toBeGreaterThanOrEqual(0);
  }
  expect(hullEdges).toBe(5);
});

test('near duplicates that delaunator skips get inserted, and their cells are valid', () => {
  const xy = uniqueSites(generatePoints('near-duplicates', 100_000, 5)).xy;
  const tri = triangulate(xy)!;
  expect(tri.inserted).toBeGreaterThan(0); // this input does exercise the insertion
  expect(new Set(Array.from(tri.triangles)).size).toBe(xy.length / 2);
  const cells = voronoiCells(xy, clipBox(xy));
  for (let i = 0; i < xy.length / 2; i++) {
    const problem = ringProblem(cells, i);
    if (problem !== null) expect(problem).toBeNull();
    if (!ringContains(cells, i, xy[2 * i], xy[2 * i + 1])) expect(i).toBe(-1);
  }
});
