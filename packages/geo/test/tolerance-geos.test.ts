import { GeoSeries } from '@geoframe/geo';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { python, runPython, usePython } from './python-reference.js';

interface GeosRuns {
  geos: string;
  runs: { tolerance: number; cells: string[]; triangles: string[] }[];
}

interface Shape {
  area: number;
  cx: number;
  cy: number;
  vertices: number[][];
}

/**
 * Each polygon as its area, vertex mean and vertices. Vertices within `eps` of the line
 * through their neighbours are left out: our cells drop collinear vertices (they are convex),
 * GEOS keeps the ones its triangulation makes (a neighbour's near-duplicate pair splits an edge).
 */
function shapes(series: GeoSeries, eps: number): Shape[] {
  const a = series.array;
  const areas = series.area();
  const out: Shape[] = [];
  for (let i = 0; i < a.length; i++) {
    const [s, e] = a.coordRange(i);
    const ring: number[][] = [];
    for (let k = s; k < e - 1; k++) ring.push([a.x(k), a.y(k)]);
    const vertices = ring.filter((p, k) => {
      const q = ring[(k + ring.length - 1) % ring.length];
      const r = ring[(k + 1) % ring.length];
      const cross = (r[0] - q[0]) * (p[1] - q[1]) - (r[1] - q[1]) * (p[0] - q[0]);
      return Math.abs(cross) > eps * Math.hypot(r[0] - q[0], r[1] - q[1]);
    });
    const cx = vertices.reduce((sum, p) => sum + p[0], 0) / vertices.length;
    const cy = vertices.reduce((sum, p) => sum + p[1], 0) / vertices.length;
    out.push({ area: areas[i], cx, cy, vertices });
  }
  return out;
}

/** The same polygons up to ring start, collinear vertices and rounding, matched by vertex mean. */
function expectSamePolygons(ours: GeoSeries, theirs: string[], scale: number, where: string) {
  const eps = 1e-9 * scale;
  const mine = shapes(ours, eps);
  const geos = shapes(GeoSeries.fromWKT(theirs), eps);
  expect(mine.length, `${where}: count`).toBe(geos.length);
  const used = new Uint8Array(geos.length);
  for (let i = 0; i < mine.length; i++) {
    let j = -1;
    for (let k = 0; k < geos.length; k++) {
      const d = Math.hypot(geos[k].cx - mine[i].cx, geos[k].cy - mine[i].cy);
      if (!used[k] && (j < 0 || d < Math.hypot(geos[j].cx - mine[i].cx, geos[j].cy - mine[i].cy))) j = k;
    }
    used[j] = 1;
    expect(Math.abs(mine[i].area - geos[j].area), `${where}: area of ${i}`).toBeLessThan(eps * scale);
    expect(mine[i].vertices.length, `${where}: vertices of ${i}`).toBe(geos[j].vertices.length);
    for (const [x, y] of mine[i].vertices) {
      const nearest = Math.min(...geos[j].vertices.map(([gx, gy]) => Math.hypot(x - gx, y - gy)));
      expect(nearest, `${where}: cell ${i} vertex (${x}, ${y})`).toBeLessThan(eps);
    }
  }
}

/** Point sets where tolerance matters: uniform, clustered, near-duplicate pairs, a jittered lattice. */
function sets(seed: number): { name: string; xy: Float64Array }[] {
  const rng = new SeededRandom(seed);
  const lattice = new Float64Array(2 * 400);
  for (let i = 0; i < 400; i++) {
    lattice[2 * i] = (i % 20) * 10 + (rng.next() - 0.5) * 3;
    lattice[2 * i + 1] = Math.floor(i / 20) * 10 + (rng.next() - 0.5) * 3;
  }
  return [
    { name: 'uniform', xy: generatePoints('uniform', 400, seed) },
    { name: 'clusters', xy: generatePoints('clusters', 400, seed) },
    { name: 'near-duplicates', xy: generatePoints('near-duplicates', 300, seed) },
    { name: 'jittered lattice', xy: lattice },
  ];
}

function seriesOf(xy: Float64Array): GeoSeries {
  const n = xy.length >> 1;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

describe.runIf(usePython)('tolerance merges the sites GEOS 3.13 merges', () => {
  it('shapely is available (required in CI)', () => {
    expect(python, 'CI needs python with shapely (.ci/run installs it)').not.toBeNull();
  });

  for (const seed of [3, 17]) {
    it(`voronoi cells and delaunay triangles equal shapely's at several tolerances (seed ${seed})`, async () => {
      for (const { name, xy } of sets(seed)) {
        const series = seriesOf(xy);
        const [minx, miny, maxx, maxy] = series.totalBounds;
        const scale = Math.max(maxx - minx, maxy - miny);
        const tolerances = [0.002, 0.02, 0.1].map((f) => f * scale);
        const geos = runPython<GeosRuns>('shapely_tolerance.py', { xy: [...xy], tolerances });
        for (const run of geos.runs) {
          const where = `${name}, seed ${seed}, tolerance ${run.tolerance}`;
          const cells = await series.voronoiPolygons({ tolerance: run.tolerance, device: 'cpu' });
          expectSamePolygons(cells, run.cells, 3 * scale, `${where}, voronoi`);
          const triangles = await series.delaunayTriangles({ tolerance: run.tolerance, device: 'cpu' });
          expectSamePolygons(triangles, run.triangles, scale, `${where}, delaunay`);
        }
      }
    });
  }

  it('ordered: a merged row gets the cell of the kept site it merged into (within tolerance of it)', async () => {
    const xy = generatePoints('clusters', 400, 23);
    const series = seriesOf(xy);
    const tolerance = 15;
    const cells = await series.voronoiPolygons({ tolerance, device: 'cpu' });
    const ordered = await series.voronoiPolygons({ tolerance, ordered: true, device: 'cpu' });
    expect(ordered.length).toBe(400);
    expect(cells.length).toBeLessThan(400);
    const wkt = ordered.toWKT();
    expect(new Set(wkt).size).toBe(cells.length);
    expect(new Set(cells.toWKT())).toEqual(new Set(wkt));
    const a = ordered.array;
    for (let i = 0; i < 400; i++) {
      const [s, e] = a.coordRange(i);
      const [x, y] = [xy[2 * i], xy[2 * i + 1]];
      // distance from the row's point to its cell: 0 inside, else to the nearest edge
      let inside = false;
      let d = Number.POSITIVE_INFINITY;
      for (let k = s; k < e - 1; k++) {
        const [ax, ay, bx, by] = [a.x(k), a.y(k), a.x(k + 1), a.y(k + 1)];
        if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
        const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
        const r = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2));
        d = Math.min(d, Math.hypot(x - ax - r * (bx - ax), y - ay - r * (by - ay)));
      }
      expect(inside ? 0 : d, `row ${i}`).toBeLessThan(tolerance);
    }
  });

  it('0 to 3 sites, repeats and collinear runs: the cells and triangles shapely gives', async () => {
    const cases: number[][] = [
      [],
      [1, 1],
      [1, 1, 1, 1],
      [0, 0, 0.5, 0],
      [0, 0, 0.5, 0, 10, 0],
      [0, 0, 0.5, 0.2, 10, 0],
      [0, 0, 1, 1, 2, 2, 3, 3, 3.5, 3.5, 9, 9],
    ];
    for (const xy of cases) {
      const series = seriesOf(Float64Array.from(xy));
      const geos = runPython<GeosRuns>('shapely_tolerance.py', { xy, tolerances: [1, 0.3] });
      for (const run of geos.runs) {
        const where = `[${xy.join(', ')}], tolerance ${run.tolerance}`;
        const cells = await series.voronoiPolygons({ tolerance: run.tolerance, device: 'cpu' });
        expectSamePolygons(cells, run.cells, 30, `${where}, voronoi`);
        const triangles = await series.delaunayTriangles({ tolerance: run.tolerance, device: 'cpu' });
        expectSamePolygons(triangles, run.triangles, 30, `${where}, delaunay`);
      }
    }
  });

  it('tolerances near and beyond the extent of the data: one cell, or none, as GEOS', async () => {
    const xy = [0, 0, 10, 0, 3, 7, 8, 9, 5, 5];
    const series = seriesOf(Float64Array.from(xy));
    const geos = runPython<GeosRuns>('shapely_tolerance.py', { xy, tolerances: [10, 50, 150, 1000] });
    for (const run of geos.runs) {
      const where = `tolerance ${run.tolerance}`;
      const cells = await series.voronoiPolygons({ tolerance: run.tolerance, device: 'cpu' });
      expectSamePolygons(cells, run.cells, 30, `${where}, voronoi`);
      const triangles = await series.delaunayTriangles({ tolerance: run.tolerance, device: 'cpu' });
      expectSamePolygons(triangles, run.triangles, 30, `${where}, delaunay`);
      const ordered = await series.voronoiPolygons({
        tolerance: run.tolerance,
        ordered: true,
        device: 'cpu',
      });
      expect(ordered.length).toBe(5);
      if (run.cells.length === 0) expect([...ordered.isNull]).toEqual([1, 1, 1, 1, 1]);
    }
  });

  it('extendTo enlarges the frame GEOS merges in, as in shapely', async () => {
    const xy = generatePoints('clusters', 300, 5);
    const series = seriesOf(xy);
    const extend: [number, number, number, number] = [-5000, -3000, 9000, 4000];
    const tolerances = [5, 40];
    const geos = runPython<GeosRuns>('shapely_tolerance.py', { xy: [...xy], tolerances, extend_to: extend });
    for (const run of geos.runs) {
      const cells = await series.voronoiPolygons({
        tolerance: run.tolerance,
        extendTo: extend,
        device: 'cpu',
      });
      expectSamePolygons(cells, run.cells, 14000, `extendTo, tolerance ${run.tolerance}`);
    }
  });
});
