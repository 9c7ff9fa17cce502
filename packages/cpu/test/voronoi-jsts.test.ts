// The engine against jsts (JTS, the Java original of GEOS) on seeded random inputs.
import { boxArea, clipBox, uniqueSites } from '@geoframe/core';
import {
  delaunay,
  delaunayEdgeLines,
  delaunayTriangleRings,
  voronoiCells,
  voronoiEdges,
} from '@geoframe/cpu';
import { generatePoints } from '@geoframe/testing';
import { incircle } from 'robust-predicates';
import { describe, expect, test } from 'vitest';
import {
  jstsDelaunay,
  jstsVoronoi,
  ringArea,
  ringContains,
  ringProblem,
  totalLength,
} from './voronoi-helpers.js';

const cases = (['uniform', 'clusters'] as const).flatMap((kind) =>
  [10, 100, 2000].map((size) => ({ kind, size, xy: uniqueSites(generatePoints(kind, size, 7 + size)).xy })),
);

describe.each(cases)('$kind, $size sites', ({ xy }) => {
  const n = xy.length / 2;
  const box = clipBox(xy);

  test('each cell has the area of the jsts cell of the same site, and the cells tile the box', () => {
    const cells = voronoiCells(xy, box);
    expect(cells.ringOffsets.length).toBe(n + 1);
    const reference = jstsVoronoi(xy, box);
    expect(reference.length).toBe(n);
    const bySite = new Map(reference.map((c) => [`${c.siteX},${c.siteY}`, c]));
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      const ref = bySite.get(`${x},${y}`)!;
      expect(ref.contains(x, y)).toBe(true);
      expect(ringContains(cells, i, x, y)).toBe(true);
      expect(ringProblem(cells, i)).toBeNull();
      const area = ringArea(cells, i);
      expect(Math.abs(area - ref.area) / ref.area).toBeLessThan(1e-9);
      sum += area;
    }
    expect(Math.abs(sum - boxArea(box)) / boxArea(box)).toBeLessThan(1e-9);
  });

  test('the Voronoi edges have the total length of the jsts cell boundaries inside the box', () => {
    const reference = jstsVoronoi(xy, box);
    const perimeter = 2 * (box.maxX - box.minX + box.maxY - box.minY);
    const expected = (reference.reduce((s, c) => s + c.perimeter, 0) - perimeter) / 2;
    const edges = voronoiEdges(xy, box);
    expect(Math.abs(totalLength(edges) - expected) / expected).toBeLessThan(1e-9);
    // every part is one segment of positive length
    const o = edges.partOffsets;
    for (let k = 0; k + 1 < o.length; k++) expect(o[k + 1] - o[k]).toBe(2);
  });

  test('the Delaunay triangles contain every jsts triangle, cover the convex hull, and have empty circumcircles', () => {
    const ref = jstsDelaunay(xy);
    const tri = delaunay(xy);
    const { triangles, halfedges } = tri;
    const count = triangles.length / 3;
    // Euler: 2n − 2 − h triangles for n sites with h on the hull (general position)
    expect(count).toBe(2 * n - 2 - ref.hullVertices);
    expect(tri.hull.length).toBe(ref.hullVertices);
    const ours = new Set<string>();
    for (let t = 0; t < count; t++) {
      ours.add(
        [triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]].sort((a, b) => a - b).join(','),
      );
    }
    for (const key of ref.triangleKeys) expect(ours.has(key)).toBe(true);

    const rings = delaunayTriangleRings(xy, tri);
    expect(rings.ringOffsets.length - 1).toBe(count);
    let area = 0;
    for (let t = 0; t < count; t++) {
      expect(ringProblem(rings, t)).toBeNull(); // closed, CCW, simple
      area += ringArea(rings, t);
    }
    expect(Math.abs(area - ref.hullArea) / ref.hullArea).toBeLessThan(1e-9);
    const edges = delaunayEdgeLines(xy, tri);
    expect(edges.partOffsets.length - 1).toBe(3 * n - 3 - ref.hullVertices);

    let checked = 0;
    const p = (i: number) => [xy[2 * i], xy[2 * i + 1]] as const;
    for (let e = 0; e < triangles.length; e++) {
      const f = halfedges[e];
      if (f < e) continue;
      const base = e - (e % 3);
      const [u, v, w] = [triangles[e], triangles[base + ((e + 1) % 3)], triangles[base + ((e + 2) % 3)]];
      const z = triangles[f - (f % 3) + ((f + 2) % 3)];
      // delaunator's triangles are counter-clockwise for robust-predicates: > 0 means outside
      expect(incircle(...p(u), ...p(v), ...p(w), ...p(z))).toBeGreaterThan(0);
      checked++;
    }
    expect(checked).toBe(3 * n - 3 - 2 * ref.hullVertices); // every interior edge
  });
});
