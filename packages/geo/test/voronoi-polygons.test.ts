import { type DispatchEvent, onDispatch } from '@geoframe/core';
import { GeoDataFrame, GeoSeries, probeGpu } from '@geoframe/geo';
import { generatePoints } from '@geoframe/testing';
import { makeVector, Utf8, vectorFromArray } from 'apache-arrow';
import { orient2d } from 'robust-predicates';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';
import { HostLaps } from '../src/voronoi/host-laps.js';
import { computeVoronoi } from '../src/voronoi/voronoi-polygons.js';

const sum = (a: Float64Array) => a.reduce((s, v) => s + (Number.isNaN(v) ? 0 : v), 0);

/** Whether (x, y) is inside or on the convex CCW ring of row `i` (exact orientation tests). */
function cellContains(cells: GeoSeries, i: number, x: number, y: number): boolean {
  const a = cells.array;
  const [s, e] = a.coordRange(i);
  for (let k = s; k < e - 1; k++) {
    if (orient2d(a.x(k), a.y(k), a.x(k + 1), a.y(k + 1), x, y) > 0) return false; // > 0: right of the edge
  }
  return e - s >= 4;
}

function sitesSeries(xy: Float64Array, crs: string | null = 'EPSG:32633'): GeoSeries {
  const n = xy.length / 2;
  const x = Float64Array.from({ length: n }, (_, i) => xy[2 * i]);
  const y = Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]);
  return GeoSeries.fromXY(x, y, { crs });
}

let events: DispatchEvent[] = [];
const stop = onDispatch((e) => events.push(e));
afterEach(() => {
  events = [];
});
afterAll(stop);

describe('voronoiPolygons (default, GeoPandas-compatible)', () => {
  it('gives one cell per unique site, in order of first appearance, tiling the GEOS box', async () => {
    const xy = generatePoints('uniform', 300, 7);
    const series = sitesSeries(xy);
    const cells = await series.voronoiPolygons();
    expect(cells.length).toBe(300);
    expect(cells.geomType.every((t) => t === 'Polygon')).toBe(true);
    expect(cells.crs).toBe('EPSG:32633');
    for (let i = 0; i < 300; i++)
      expect(cellContains(cells, i, xy[2 * i], xy[2 * i + 1]), `cell ${i}`).toBe(true);
    const [x0, y0, x1, y1] = series.totalBounds;
    const grow = Math.max(x1 - x0, y1 - y0);
    const boxArea = (x1 - x0 + 2 * grow) * (y1 - y0 + 2 * grow);
    expect(sum(cells.area()) / boxArea).toBeCloseTo(1, 9);
    expect(events).toEqual([
      expect.objectContaining({ type: 'dispatch', kernel: 'voronoiPolygons', rows: 300, path: 'cpu' }),
    ]);
    expect(events[0].reason).toMatch(/300 < crossover/);
  });

  it('takes every vertex of non-point geometries and skips null and empty rows', async () => {
    const series = GeoSeries.fromWKT([
      'LINESTRING (0 0, 10 0)',
      null,
      'POLYGON ((0 10, 10 10, 5 15, 0 10))',
      'POINT EMPTY',
      'MULTIPOINT ((0 0), (20 20))',
    ]);
    const cells = await series.voronoiPolygons();
    // unique vertices: (0 0) (10 0) (0 10) (10 10) (5 15) (20 20)
    expect(cells.length).toBe(6);
    const order = [
      [0, 0],
      [10, 0],
      [0, 10],
      [10, 10],
      [5, 15],
      [20, 20],
    ];
    for (const [i, [x, y]] of order.entries()) expect(cellContains(cells, i, x, y)).toBe(true);
  });

  it('merges a site within tolerance of a kept one that GEOS merges (here: the second of a close pair)', async () => {
    const series = GeoSeries.fromXY([0, 10, 0.05, 10, 5], [0, 0, 0.05, 10, 5]);
    expect((await series.voronoiPolygons()).length).toBe(5);
    expect((await series.voronoiPolygons({ tolerance: 0.1 })).length).toBe(4);
    await expect(series.voronoiPolygons({ tolerance: -1 })).rejects.toThrow(/tolerance/);
  });

  it('extendTo enlarges the box and never shrinks it', async () => {
    const series = GeoSeries.fromXY([0, 1, 0], [0, 0, 1]);
    const base = sum((await series.voronoiPolygons()).area());
    expect(base).toBeCloseTo(9, 12); // box [-1, 2]²
    const bigger = await series.voronoiPolygons({ extendTo: [-10, -10, 10, 10] });
    expect(sum(bigger.area())).toBeCloseTo(400, 9);
    const smaller = await series.voronoiPolygons({ extendTo: [0.2, 0.2, 0.4, 0.4] });
    expect(sum(smaller.area())).toBeCloseTo(9, 12);
    const asSeries = await series.voronoiPolygons({
      extendTo: GeoSeries.fromWKT(['LINESTRING (-5 -5, 5 5)']),
    });
    expect(sum(asSeries.area())).toBeCloseTo(100, 9);
  });

  it('onlyEdges gives one MultiLineString whose length is the shared cell boundaries', async () => {
    const xy = generatePoints('clusters', 200, 3);
    const series = sitesSeries(xy);
    const cells = await series.voronoiPolygons();
    const edges = await series.voronoiPolygons({ onlyEdges: true });
    expect(edges.length).toBe(1);
    expect(edges.geomType).toEqual(['MultiLineString']);
    const [x0, y0, x1, y1] = cells.totalBounds;
    const boxPerimeter = 2 * (x1 - x0 + (y1 - y0));
    expect(edges.lengthOf()[0] / ((sum(cells.lengthOf()) - boxPerimeter) / 2)).toBeCloseTo(1, 9);
  });

  it('handles 0, 1, 2 and collinear sites as GEOS does', async () => {
    expect((await GeoSeries.fromXY([], []).voronoiPolygons()).length).toBe(0);
    expect((await GeoSeries.fromXY([3], [4]).voronoiPolygons()).length).toBe(0);
    const one = await GeoSeries.fromXY([3], [4]).voronoiPolygons({ extendTo: [0, 0, 10, 10] });
    expect([...one.area()]).toEqual([100]);
    const two = await GeoSeries.fromXY([0, 2], [0, 0]).voronoiPolygons();
    expect([...two.area()]).toEqual([12, 12]); // box [-2, 4] × [-2, 2], split at x = 1
    const line = await GeoSeries.fromXY([0, 1, 3], [0, 1, 3]).voronoiPolygons();
    expect(line.length).toBe(3);
    expect(sum(line.area())).toBeCloseTo(81, 9);
  });

  it('names the row of a coordinate that is not finite, and never mutates the input', async () => {
    const bad = GeoSeries.fromWKT(['POINT (0 0)', 'POINT (1 1)', 'LINESTRING (0 0, 1 1)'], {
      validate: false,
    });
    const coords = bad.array.coords;
    coords[coords.length - 1] = Number.POSITIVE_INFINITY;
    await expect(bad.voronoiPolygons()).rejects.toThrow(/row 2/);
    const xy = generatePoints('lattice', 100, 1);
    const series = sitesSeries(xy);
    const before = Float64Array.from(series.array.coords);
    await series.voronoiPolygons();
    expect(series.array.coords).toEqual(before);
  });

  it("device 'cpu' runs on the CPU and says so", async () => {
    const series = GeoSeries.fromXY([0, 1, 0], [0, 0, 1]);
    await series.voronoiPolygons({ device: 'cpu' });
    expect(events.at(-1)).toMatchObject({ path: 'cpu', reason: "device 'cpu' requested" });
  });

  gpuTest(
    "device 'gpu' runs the GPU pipeline: the CPU's cells, edges and ordered rows",
    async () => {
      await requireGpu();
      const xy = generatePoints('clusters', 2000, 12);
      const series = sitesSeries(xy);
      const gpu = await series.voronoiPolygons({ device: 'gpu' });
      expect(events.at(-1)).toMatchObject({
        path: 'gpu',
        reason: expect.stringMatching(/^device 'gpu' requested/),
      });
      const cpu = await series.voronoiPolygons({ device: 'cpu' });
      expect(gpu.length).toBe(cpu.length);
      const [ga, ca] = [gpu.area(), cpu.area()];
      for (let i = 0; i < ca.length; i++)
        expect(Math.abs(ga[i] - ca[i]), `cell ${i}`).toBeLessThanOrEqual(1e-9 * ca[i]);
      const edges = await series.voronoiPolygons({ device: 'gpu', onlyEdges: true });
      const cpuEdges = await series.voronoiPolygons({ device: 'cpu', onlyEdges: true });
      expect(edges.length).toBe(1);
      expect(Math.abs(edges.lengthOf()[0] - cpuEdges.lengthOf()[0])).toBeLessThan(
        1e-9 * cpuEdges.lengthOf()[0],
      );
      const ordered = await GeoSeries.fromWKT([
        'POINT (0 0)',
        null,
        'POINT (4 0)',
        'POINT (0 0)',
        'POINT (1 3)',
      ]).voronoiPolygons({ device: 'gpu', ordered: true });
      expect(Array.from(ordered.isNull)).toEqual([0, 1, 0, 0, 0]);
      expect(ordered.array.coords.length).toBeGreaterThan(0);
    },
    180_000,
  ); // the file's first GPU test compiles the pipeline's kernels: ~20 s on lavapipe, more under load

  gpuTest(
    "device 'gpu' with ordered rows, duplicates, nulls and clipTo: the CPU's rows and areas",
    async () => {
      await requireGpu();
      // 3000 clustered points, every 7th a duplicate of an earlier one, every 11th row null
      const xy = generatePoints('clusters', 3000, 31);
      const wkt = Array.from({ length: 3000 }, (_, i) => {
        if (i % 11 === 10) return null;
        const k = i % 7 === 6 ? i - 3 : i;
        return `POINT (${xy[2 * k]} ${xy[2 * k + 1]})`;
      });
      const series = GeoSeries.fromWKT(wkt);
      const [x0, y0, x1, y1] = series.totalBounds;
      const clipTo = GeoSeries.fromWKT([
        `POLYGON ((${x0} ${y0}, ${x1} ${y0}, ${(x0 + x1) / 2} ${y1}, ${x0} ${y0}))`,
      ]).array;
      for (const options of [{ ordered: true }, { ordered: true, clipTo }, { clipTo }]) {
        const gpu = await series.voronoiPolygons({ ...options, device: 'gpu' });
        const cpu = await series.voronoiPolygons({ ...options, device: 'cpu' });
        expect(gpu.length).toBe(cpu.length);
        expect(Array.from(gpu.isNull)).toEqual(Array.from(cpu.isNull));
        const [ga, ca] = [gpu.area(), cpu.area()];
        for (let i = 0; i < ca.length; i++) {
          if (Number.isNaN(ca[i])) expect(ga[i]).toBeNaN();
          else expect(Math.abs(ga[i] - ca[i]), `row ${i}`).toBeLessThanOrEqual(1e-9 * Math.max(ca[i], 1e-6));
        }
      }
    },
  );

  gpuTest(
    "delaunayTriangles with device 'gpu': the CPU's triangles (count, total area; the same set where unique)",
    async () => {
      await requireGpu();
      const key = (s: GeoSeries) => {
        const out: string[] = [];
        for (let i = 0; i < s.length; i++) {
          const [a, e] = s.array.coordRange(i);
          const pts: string[] = [];
          for (let k = a; k < e - 1; k++) pts.push(`${s.array.x(k)},${s.array.y(k)}`);
          out.push(pts.sort().join(' '));
        }
        return out.sort();
      };
      for (const [kind, n, unique] of [
        ['uniform', 600, true],
        ['lattice', 225, false],
      ] as const) {
        const series = sitesSeries(generatePoints(kind, n, 17));
        const gpu = await series.delaunayTriangles({ device: 'gpu' });
        expect(events.at(-1)).toMatchObject({ kernel: 'delaunayTriangles', path: 'gpu' });
        const cpu = await series.delaunayTriangles({ device: 'cpu' });
        expect(gpu.length, kind).toBe(cpu.length);
        expect(sum(gpu.area()) / sum(cpu.area()), kind).toBeCloseTo(1, 12);
        if (unique) expect(key(gpu), kind).toEqual(key(cpu));
        const edges = await series.delaunayTriangles({ device: 'gpu', onlyEdges: true });
        expect(edges.length, kind).toBe(
          (await series.delaunayTriangles({ device: 'cpu', onlyEdges: true })).length,
        );
      }
    },
    // the star kernel takes a while to compile on a software GPU
    300_000,
  );

  gpuTest(
    "'auto' takes the GPU from the crossover on (here overridden by environment), never a software adapter",
    async () => {
      await requireGpu();
      const adapter = await probeGpu();
      vi.stubEnv('GEOFRAME_CROSSOVER_VORONOIPOLYGONS', '100');
      try {
        await sitesSeries(generatePoints('uniform', 99, 3)).voronoiPolygons();
        expect(events.at(-1)).toMatchObject({ path: 'cpu' });
        await sitesSeries(generatePoints('uniform', 100, 3)).voronoiPolygons();
        if (adapter?.class === 'software') {
          // lavapipe, SwiftShader…: a CPU emulating a GPU is never auto's choice, whatever the crossover
          expect(events.at(-1)).toMatchObject({ path: 'cpu' });
          expect(events.at(-1)?.reason).toContain(`${adapter.description} (software)`);
        } else {
          expect(events.at(-1)).toMatchObject({ path: 'gpu' });
          expect(events.at(-1)?.reason).toContain('GEOFRAME_CROSSOVER_VORONOIPOLYGONS');
        }
      } finally {
        vi.unstubAllEnvs();
      }
    },
  );
});

describe('voronoiPolygons({ordered}) and attributes', () => {
  const wkt = ['POINT (0 0)', 'POINT (10 0)', null, 'POINT (0 0)', 'POINT EMPTY', 'POINT (5 8)'];

  it('gives one row per input row: duplicates share the identical cell, null and empty rows are null', async () => {
    const series = GeoSeries.fromWKT(wkt, { crs: 'EPSG:3857' });
    const cells = await series.voronoiPolygons({ ordered: true });
    expect(cells.length).toBe(6);
    expect([...cells.isNull]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(cells.toWKT()[3]).toBe(cells.toWKT()[0]);
    expect(cellContains(cells, 5, 5, 8)).toBe(true);
    expect(cells.crs).toBe('EPSG:3857');
  });

  it('refuses non-point rows, naming the row', async () => {
    const series = GeoSeries.fromWKT(['POINT (0 0)', 'POINT (1 0)', 'LINESTRING (0 1, 1 1)']);
    await expect(series.voronoiPolygons({ ordered: true })).rejects.toThrow(/row 2: .*LineString/);
  });

  it('a GeoDataFrame keeps every column with the cells', async () => {
    const geometry = GeoSeries.fromWKT(wkt, { crs: 'EPSG:3857' });
    const gdf = GeoDataFrame.fromSeries(geometry, {
      id: makeVector(Int32Array.from([10, 11, 12, 13, 14, 15])),
      name: vectorFromArray(['a', 'b', 'c', 'd', 'e', 'f'], new Utf8()),
    });
    const ordered = await gdf.voronoiPolygons({ ordered: true });
    expect(ordered.columns).toEqual(['id', 'name', 'geometry']);
    expect([...(ordered.get('id') as Iterable<number>)]).toEqual([10, 11, 12, 13, 14, 15]);
    expect([...ordered.geometry.isNull]).toEqual([0, 0, 1, 0, 1, 0]);

    const unique = await gdf.voronoiPolygons();
    // sites (0 0), (10 0), (5 8): attributes of the row where each first appears
    expect(unique.length).toBe(3);
    expect([...(unique.get('id') as Iterable<number>)]).toEqual([10, 11, 15]);
    expect([...(unique.get('name') as Iterable<string>)]).toEqual(['a', 'b', 'f']);
  });
});

describe('voronoiPolygons({clipTo})', () => {
  it('intersects cells with any polygon: areas add up to the region, a cell may split or vanish', async () => {
    const xy = generatePoints('uniform', 400, 11);
    const series = sitesSeries(xy, null);
    const [x0, y0, x1, y1] = series.totalBounds;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    const r = (x1 - x0) / 3;
    // a concave region with a hole, inside the box
    const region = GeoSeries.fromWKT([
      `POLYGON ((${cx - r} ${cy - r}, ${cx + r} ${cy - r}, ${cx + r} ${cy + r}, ${cx} ${cy}, ${cx - r} ${cy + r}, ${cx - r} ${cy - r}), (${cx - r / 2} ${cy - r / 2}, ${cx - r / 4} ${cy - r / 2}, ${cx - r / 4} ${cy - r / 4}, ${cx - r / 2} ${cy - r / 2}))`,
    ]);
    const cells = await series.voronoiPolygons({ clipTo: region });
    // cells clipped away entirely are dropped, as geopandas.clip drops them (clip-semantics.test.ts)
    expect(cells.length).toBeLessThan(400);
    expect(sum(cells.area()) / region.area()[0]).toBeCloseTo(1, 9);
    expect(cells.isEmpty.every((v) => v === 0)).toBe(true);
    const ordered = await series.voronoiPolygons({ clipTo: region, ordered: true });
    expect(ordered.length).toBe(400);
    expect(ordered.isNull.filter((v) => v === 0).length).toBe(cells.length);
    expect(sum(ordered.area().filter((a) => !Number.isNaN(a)))).toBeCloseTo(sum(cells.area()), 9);
  });
});

describe('delaunayTriangles', () => {
  it('gives 2n − 2 − h counter-clockwise triangles and 3n − 3 − h edges', async () => {
    // a 5 × 4 lattice: h = 14 hull vertices (collinear boundary points count), n = 20
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 4; j++) {
        x.push(i);
        y.push(j);
      }
    }
    const series = GeoSeries.fromXY(x, y);
    const triangles = await series.delaunayTriangles();
    expect(triangles.length).toBe(2 * 20 - 2 - 14);
    expect(sum(triangles.area())).toBeCloseTo(12, 12);
    expect(triangles.area().every((a) => a === 0.5)).toBe(true);
    const edges = await series.delaunayTriangles({ onlyEdges: true });
    expect(edges.length).toBe(3 * 20 - 3 - 14);
    expect(edges.geomType.every((t) => t === 'LineString')).toBe(true);
  });

  it('is empty for fewer than 3 or collinear sites', async () => {
    expect((await GeoSeries.fromXY([0, 1], [0, 1]).delaunayTriangles()).length).toBe(0);
    expect((await GeoSeries.fromXY([0, 1, 2], [0, 1, 2]).delaunayTriangles()).length).toBe(0);
  });
});

describe('voronoiPolygons on the GPU, sites checked distinct there (adr/0015)', () => {
  gpuTest(
    "a large input's duplicates, found by the GPU's check or absent: the CPU's rows and areas",
    async () => {
      await requireGpu();
      // past the size where the duplicates' host pass is skipped; repeats anywhere (−0 for 0 too)
      const n = 33_000;
      const base = generatePoints('uniform', n, 61);
      base[2 * 5] = 0;
      const xy = new Float64Array(2 * (n + 300));
      xy.set(base);
      for (let i = n; i < n + 300; i++) {
        const from = (i * 7919) % n;
        xy[2 * i] = base[2 * from];
        xy[2 * i + 1] = base[2 * from + 1];
      }
      xy[2 * (n + 299)] = -0;
      xy[2 * (n + 299) + 1] = base[2 * 5 + 1];
      // null rows between them: the sites' rows are not 0, 1, …
      const withNulls = GeoSeries.fromWKT(
        Array.from({ length: n + 300 }, (_, i) =>
          i % 1000 === 999 ? null : `POINT (${xy[2 * i]} ${xy[2 * i + 1]})`,
        ),
      );
      for (const [name, series] of [
        ['with duplicates', sitesSeries(xy)],
        ['distinct', sitesSeries(base)],
        ['with duplicates and null rows', withNulls],
      ] as const) {
        // the duplicates were left to the GPU, whose check passed (distinct) or sent the run back
        // to the host's pass (the second run's laps have no check)
        const laps = new HostLaps();
        await computeVoronoi(series.array, { device: 'gpu' }, laps);
        const steps = laps.laps.map((l) => l.stage.trim());
        expect(steps, name).toContain('box (duplicates left to the GPU check)');
        expect(steps.includes('sites checked distinct'), name).toBe(name === 'distinct');
        for (const ordered of [false, true]) {
          const gpu = await series.voronoiPolygons({ device: 'gpu', ordered });
          expect(events.at(-1), name).toMatchObject({ kernel: 'voronoiPolygons', path: 'gpu' });
          const cpu = await series.voronoiPolygons({ device: 'cpu', ordered });
          expect(gpu.length, name).toBe(cpu.length);
          const [ga, ca] = [gpu.area(), cpu.area()];
          for (let i = 0; i < ca.length; i++) {
            if (Number.isNaN(ca[i]))
              expect(ga[i], `${name} row ${i}`).toBeNaN(); // a null row
            else expect(Math.abs(ga[i] - ca[i]), `${name} row ${i}`).toBeLessThanOrEqual(1e-9 * ca[i]);
          }
        }
      }
    },
    240_000,
  );
});
