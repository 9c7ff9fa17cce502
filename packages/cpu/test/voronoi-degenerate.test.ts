// Validity of cells and triangles on degenerate inputs, and hand-computed small cases.
import { type Box, boxArea, clipBox, uniqueSites } from '@geoframe/core';
import {
  delaunay,
  delaunayEdgeLines,
  delaunayTriangleRings,
  type PolygonBuffers,
  voronoiCells,
  voronoiEdges,
} from '@geoframe/cpu';
import { generatePoints, pointSets } from '@geoframe/testing';
import { incircle } from 'robust-predicates';
import { describe, expect, test } from 'vitest';
import { ringArea, ringAreaLocal, ringContains, ringProblem, totalLength } from './voronoi-helpers.js';

function ringPerimeter(p: PolygonBuffers, r: number): number {
  let s = 0;
  for (let k = p.ringOffsets[r]; k + 1 < p.ringOffsets[r + 1]; k++) {
    s += Math.hypot(p.coords[2 * k + 2] - p.coords[2 * k], p.coords[2 * k + 3] - p.coords[2 * k + 1]);
  }
  return s;
}

/** Cells valid, each containing its site, tiling the box; edges consistent with the cells. */
function expectValidDiagram(xy: Float64Array, box: Box): PolygonBuffers {
  const n = xy.length / 2;
  const before = xy.slice();
  const cells = voronoiCells(xy, box);
  expect(xy).toEqual(before); // the caller's buffer is never modified
  expect(cells.ringOffsets.length - 1).toBe(n);
  let area = 0;
  let perimeter = 0;
  for (let i = 0; i < n; i++) {
    expect(ringProblem(cells, i)).toBeNull();
    expect(ringContains(cells, i, xy[2 * i], xy[2 * i + 1])).toBe(true);
    area += ringAreaLocal(cells, i);
    perimeter += ringPerimeter(cells, i);
  }
  expect(Math.abs(area - boxArea(box)) / boxArea(box)).toBeLessThan(1e-9);
  const boxPerimeter = 2 * (box.maxX - box.minX + box.maxY - box.minY);
  const edges = voronoiEdges(xy, box);
  const expected = (perimeter - boxPerimeter) / 2;
  expect(Math.abs(totalLength(edges) - expected)).toBeLessThan(1e-9 * boxPerimeter);
  return cells;
}

const sets = [...pointSets(100, 3), ...pointSets(500, 4).slice(0, 8)].filter((s) => s.xy.length >= 4);

describe.each(sets)('$name', ({ xy: raw }) => {
  const xy = uniqueSites(raw).xy;
  test('cells are valid, contain their sites and tile the box', () => {
    expectValidDiagram(xy, clipBox(xy));
  });
  test('cells stay valid in a larger box (extendTo)', () => {
    const b = clipBox(xy);
    const w = b.maxX - b.minX;
    expectValidDiagram(
      xy,
      clipBox(xy, { minX: b.minX - 3 * w, minY: b.minY, maxX: b.maxX, maxY: b.maxY + 7 * w }),
    );
  });
  test('Delaunay triangles are valid, cover the hull, and pass the empty-circle test', () => {
    const tri = delaunay(xy);
    const rings = delaunayTriangleRings(xy, tri);
    const count = rings.ringOffsets.length - 1;
    for (let t = 0; t < count; t++) expect(ringProblem(rings, t)).toBeNull();
    const { triangles, halfedges } = tri;
    const p = (i: number) => [xy[2 * i], xy[2 * i + 1]] as const;
    for (let e = 0; e < triangles.length; e++) {
      const f = halfedges[e];
      if (f < e) continue;
      const base = e - (e % 3);
      const z = triangles[f - (f % 3) + ((f + 2) % 3)];
      const s = incircle(
        ...p(triangles[e]),
        ...p(triangles[base + ((e + 1) % 3)]),
        ...p(triangles[base + ((e + 2) % 3)]),
        ...p(z),
      );
      expect(s).toBeGreaterThanOrEqual(0); // cocircular quads are fine
    }
    const unique = new Set(Array.from(triangles));
    if (count > 0) expect(unique.size).toBe(xy.length / 2); // every site is a vertex
    expect(delaunayEdgeLines(xy, tri).partOffsets.length - 1).toBe(
      count === 0 ? 0 : (3 * count + tri.hull.length) / 2,
    );
  });
});

describe('hand-computed cases', () => {
  test('0 sites: nothing; 1 site: nothing, or the box with extendTo', () => {
    expect(voronoiCells(new Float64Array(0), { minX: 0, minY: 0, maxX: 1, maxY: 1 }).ringOffsets).toEqual(
      new Int32Array(1),
    );
    const one = new Float64Array([3, 4]);
    expect(clipBox(one)).toEqual({ minX: 3, minY: 4, maxX: 3, maxY: 4 });
    expect(voronoiCells(one, clipBox(one)).ringOffsets.length).toBe(1);
    const box = clipBox(one, { minX: 0, minY: 0, maxX: 10, maxY: 2 });
    expect(box).toEqual({ minX: 0, minY: 0, maxX: 10, maxY: 4 }); // the union with the site
    const cells = voronoiCells(one, box);
    expect(Array.from(cells.coords)).toEqual([0, 0, 10, 0, 10, 4, 0, 4, 0, 0]);
    expect(voronoiEdges(one, box).partOffsets.length).toBe(1);
    expect(delaunay(one).triangles.length).toBe(0);
  });

  test('2 sites: two half-boxes split by the bisector 4x + 2y = 5', () => {
    const xy = new Float64Array([0, 0, 2, 1]);
    const box = clipBox(xy);
    expect(box).toEqual({ minX: -2, minY: -2, maxX: 4, maxY: 3 });
    const cells = expectValidDiagram(xy, box);
    expect(ringArea(cells, 0)).toBeCloseTo(15, 12);
    expect(ringArea(cells, 1)).toBeCloseTo(15, 12);
    const edges = voronoiEdges(xy, box);
    expect(Array.from(edges.coords)).toEqual([2.25, -2, -0.25, 3]);
    expect(delaunayTriangleRings(xy).ringOffsets.length).toBe(1);
  });

  test('3 collinear sites: strips between x + y = 1 and x + y = 3', () => {
    const xy = new Float64Array([0, 0, 2, 2, 1, 1]);
    const box = clipBox(xy);
    expect(box).toEqual({ minX: -2, minY: -2, maxX: 4, maxY: 4 });
    const cells = expectValidDiagram(xy, box);
    expect([0, 1, 2].map((i) => ringArea(cells, i))).toEqual([12.5, 12.5, 11]);
    expect(delaunayEdgeLines(xy).partOffsets.length).toBe(1);
    expect(Array.from(delaunay(xy).hull)).toEqual([0, 2, 1]);
  });

  test('vertical and horizontal collinear sites give horizontal and vertical strips', () => {
    const vertical = new Float64Array([5, 0, 5, 3, 5, 1]);
    const v = expectValidDiagram(vertical, clipBox(vertical));
    // box [2, 8] x [-3, 6]; bisectors y = 0.5 and y = 2
    expect([0, 1, 2].map((i) => ringArea(v, i))).toEqual([6 * 3.5, 6 * 4, 6 * 1.5]);
    const horizontal = new Float64Array([0, 7, 4, 7]);
    const h = expectValidDiagram(horizontal, clipBox(horizontal));
    expect([0, 1].map((i) => ringArea(h, i))).toEqual([48, 48]); // box [-4, 8] x [3, 11], split at x = 2
  });

  test('3 sites in general position: three cells meeting at the circumcentre, one triangle', () => {
    const xy = new Float64Array([0, 0, 4, 0, 0, 2]);
    const cells = expectValidDiagram(xy, clipBox(xy));
    const vertices = new Set<string>();
    for (let k = 0; k < cells.coords.length; k += 2)
      vertices.add(`${cells.coords[k]},${cells.coords[k + 1]}`);
    expect(vertices.has('2,1')).toBe(true);
    const rings = delaunayTriangleRings(xy);
    expect(Array.from(rings.coords)).toEqual([0, 0, 4, 0, 0, 2, 0, 0]);
  });

  test('a lattice at 1e7 gives exact unit squares around interior sites, sharing vertices', () => {
    const xy = generatePoints('lattice-offset', 36);
    const cells = expectValidDiagram(xy, clipBox(xy));
    for (const i of [7, 8, 14, 21, 28]) {
      expect(ringAreaLocal(cells, i)).toBe(1);
      expect(cells.ringOffsets[i + 1] - cells.ringOffsets[i]).toBe(5); // four corners, no doubled vertex
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      for (let k = cells.ringOffsets[i]; k < cells.ringOffsets[i + 1]; k++) {
        expect(Math.abs(cells.coords[2 * k] - x)).toBe(0.5);
        expect(Math.abs(cells.coords[2 * k + 1] - y)).toBe(0.5);
      }
    }
  });

  test('near duplicates 1e-12 apart stay two sites, split by their bisector', () => {
    const xy = new Float64Array([500, 500, 500 + 1e-12, 500, 0, 0, 1000, 0, 1000, 1000, 0, 1000]);
    expect(uniqueSites(xy).xy.length).toBe(12);
    const cells = expectValidDiagram(xy, clipBox(xy));
    const a = ringAreaLocal(cells, 0);
    const b = ringAreaLocal(cells, 1);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(Math.abs(a - b) / a).toBeLessThan(1e-9); // the pair's region split down the middle
  });

  test('edges share their end points bitwise with the cells', () => {
    const xy = uniqueSites(generatePoints('uniform', 300, 11)).xy;
    const box = clipBox(xy, { minX: 100, minY: 100, maxX: 200, maxY: 200 });
    // a box smaller than the default changes nothing: extendTo only enlarges
    expect(box).toEqual(clipBox(xy));
    const tight: Box = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 };
    const cells = expectValidDiagram(xy, tight);
    const vertices = new Set<string>();
    for (let k = 0; k < cells.coords.length; k += 2)
      vertices.add(`${cells.coords[k]},${cells.coords[k + 1]}`);
    const edges = voronoiEdges(xy, tight);
    for (let k = 0; k < edges.coords.length; k += 2) {
      expect(vertices.has(`${edges.coords[k]},${edges.coords[k + 1]}`)).toBe(true);
    }
  });

  test('a box without area is refused for two or more sites', () => {
    const xy = new Float64Array([0, 0, 1, 1]);
    expect(() => voronoiCells(xy, { minX: 0, minY: 0, maxX: 0, maxY: 5 })).toThrow(RangeError);
    expect(() => voronoiCells(xy, { minX: 0, minY: 0, maxX: Number.NaN, maxY: 5 })).toThrow(RangeError);
  });
});
