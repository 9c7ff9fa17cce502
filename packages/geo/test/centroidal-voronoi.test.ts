// centroidalVoronoi and sampleBlueNoise through the public API: cells checked with shapely
// (inside the region, tiling it, centroids), raster against exact, frames, determinism, errors.
import { GeometryBuilder, GeometryType } from '@geoframe/core';
import { CvtError, type DispatchEvent, GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { SeededRandom } from '@geoframe/testing';
import { vectorFromArray } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { runPython, usePython } from './python-reference.js';

interface ShapelyCheck {
  centroids: ([number, number] | null)[];
  areas: number[];
  outside: number;
  overlap: number;
  union_area: number;
  region_area: number;
}

const L_WKT = 'POLYGON ((0 0, 2 0, 2 1, 1 1, 1 2, 0 2, 0 0), (0.2 0.2, 0.2 0.4, 0.4 0.4, 0.4 0.2, 0.2 0.2))';
const L_REGION = GeoSeries.fromWKT([L_WKT]);

function randomPoints(
  n: number,
  seed: number,
  inside: (x: number, y: number) => boolean,
  scale = 2,
): GeoSeries {
  const rnd = new SeededRandom(seed);
  const xs: number[] = [];
  const ys: number[] = [];
  while (xs.length < n) {
    const x = scale * rnd.next();
    const y = scale * rnd.next();
    if (!inside(x, y)) continue;
    xs.push(x);
    ys.push(y);
  }
  return GeoSeries.fromXY(xs, ys);
}

const inL = (x: number, y: number) =>
  x > 0.01 &&
  y > 0.01 &&
  x < 1.99 &&
  y < 1.99 &&
  !(x > 0.99 && y > 0.99) &&
  !(x > 0.19 && x < 0.41 && y > 0.19 && y < 0.41);
const gaussian = (x: number, y: number) => Math.exp(-3 * ((x - 0.5) ** 2 + (y - 1.2) ** 2)) + 0.05;
const xyOf = (s: GeoSeries) =>
  Array.from({ length: s.length }, (_, i) => s.array.coords.slice(2 * i, 2 * i + 2));

describe.runIf(usePython)('centroidalVoronoi against shapely', () => {
  for (const [name, density] of [
    ['uniform', undefined],
    ['a density function', gaussian],
  ] as const) {
    test(`holed L region, ${name}: cells inside, tiling it, sites at shapely's centroids`, async () => {
      const points = randomPoints(20, name.length, inL);
      const tolerance = 2e-4;
      const out = await points.centroidalVoronoi({
        region: L_REGION,
        density,
        tolerance,
        iterations: 400,
        device: 'cpu',
      });
      expect(out.sites.length).toBe(20);
      expect(out.cells.length).toBe(20);
      const check = runPython<ShapelyCheck>('shapely_cvt_cells.py', {
        cells: out.cells.toWKT(),
        region: L_WKT,
      });
      expect(check.outside).toBeLessThan(1e-9);
      expect(check.overlap).toBeLessThan(1e-9);
      expect(Math.abs(check.union_area - check.region_area)).toBeLessThan(1e-9);
      expect(check.areas.reduce((a, b) => a + b, 0)).toBeCloseTo(check.region_area, 9);
      if (density === undefined) {
        // shapely's centroid is the uniform one: at convergence each site is near it
        expect(out.converged).toBe(true);
        const sites = xyOf(out.sites);
        // the stopping rule ‖∇F‖₂ = 2·sqrt(Σ (mᵢ dᵢ)²) ≤ tolerance · 2 · M · D, with shapely's mᵢ and centroids
        let sum = 0;
        for (let i = 0; i < 20; i++) {
          const c = check.centroids[i] as [number, number];
          sum += (check.areas[i] * Math.hypot(sites[i][0] - c[0], sites[i][1] - c[1])) ** 2;
        }
        expect(Math.sqrt(sum)).toBeLessThanOrEqual(
          tolerance * check.region_area * Math.hypot(2, 2) * (1 + 1e-6),
        );
      }
    });
  }
});

describe('centroidalVoronoi', () => {
  test('raster mode ends within 1 % of the exact mode on the same start, through the API', async () => {
    const points = randomPoints(30, 4, () => true);
    const region = [0, 0, 2, 2] as const;
    const exact = await points.centroidalVoronoi({ region, iterations: 30, tolerance: 0 });
    const raster = await points.centroidalVoronoi({
      region,
      iterations: 30,
      tolerance: 0,
      mode: 'raster',
      resolution: 160,
    });
    const last = (a: Float64Array) => a[a.length - 1];
    expect(Math.abs(last(raster.energy) - last(exact.energy)) / last(exact.energy)).toBeLessThan(0.01);
    expect(raster.path).toBe('cpu');
  });

  test('frames keep their columns and nulls stay null; progress and dispatch are reported', async () => {
    const points = GeoSeries.fromWKT([
      'POINT (0.2 0.3)',
      null,
      'POINT (0.8 0.1)',
      'POINT (0.5 0.9)',
      'POINT EMPTY',
    ]);
    const frame = GeoDataFrame.fromSeries(points, { name: vectorFromArray(['a', 'b', 'c', 'd', 'e']) });
    const steps: number[] = [];
    const events: DispatchEvent[] = [];
    const out = await frame.centroidalVoronoi({
      region: [0, 0, 1, 1],
      method: 'lbfgs',
      onIteration: (s) => steps.push(s.iteration),
      onDispatch: (e) => events.push(e),
    });
    expect(out.cells.length).toBe(5);
    expect(out.cells.geometry.toWKT()[1]).toBeNull();
    expect(out.cells.geometry.toWKT()[4]).toBeNull();
    expect(out.sites.toWKT()[1]).toBeNull();
    expect(out.cells.columns).toEqual(frame.columns);
    expect(
      String(out.cells.get('name') && (out.cells.get('name') as { get(i: number): unknown }).get(2)),
    ).toBe('c');
    expect(steps.length).toBe(out.energy.length);
    for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeGreaterThan(steps[i - 1]);
    expect(events.length).toBeGreaterThan(0);
    expect(events[0].kernel).toBe('voronoiPolygons');
  });

  test('adversarial starts: duplicates, collinear, one site, huge offsets', async () => {
    const starts: [string, GeoSeries, readonly [number, number, number, number]][] = [
      ['duplicates', GeoSeries.fromXY([0.5, 0.5, 0.5, 0.2], [0.5, 0.5, 0.5, 0.2]), [0, 0, 1, 1]],
      ['collinear', GeoSeries.fromXY([0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5]), [0, 0, 1, 1]],
      ['one site', GeoSeries.fromXY([0.1], [0.1]), [0, 0, 1, 1]],
      [
        'huge offset',
        GeoSeries.fromXY([1e8 + 0.1, 1e8 + 0.7, 1e8 + 0.4], [1e8 + 0.2, 1e8 + 0.3, 1e8 + 0.9]),
        [1e8, 1e8, 1e8 + 1, 1e8 + 1],
      ],
    ];
    for (const [name, points, region] of starts) {
      const out = await points.centroidalVoronoi({ region, iterations: 100 });
      const sites = xyOf(out.sites);
      for (const [x, y] of sites) {
        expect(x >= region[0] && x <= region[2] && y >= region[1] && y <= region[3], name).toBe(true);
      }
      // distinct sites at the end (duplicates were pulled apart)
      expect(new Set(sites.map(([x, y]) => `${x},${y}`)).size, name).toBe(sites.length);
      expect(out.energy[out.energy.length - 1], name).toBeLessThanOrEqual(out.energy[0]);
    }
    const one = await GeoSeries.fromXY([0.1], [0.1]).centroidalVoronoi({ region: [0, 0, 1, 1] });
    expect(one.sites.array.coords[0]).toBeCloseTo(0.5, 12);
    expect(one.sites.array.coords[1]).toBeCloseTo(0.5, 12);
  });

  test('deterministic for a given start, and sampleBlueNoise for a given seed', async () => {
    const points = randomPoints(25, 8, () => true, 1);
    const a = await points.centroidalVoronoi({ region: [0, 0, 1, 1], method: 'lbfgs', iterations: 30 });
    const b = await points.centroidalVoronoi({ region: [0, 0, 1, 1], method: 'lbfgs', iterations: 30 });
    expect(a.sites.array.coords).toEqual(b.sites.array.coords);
    const density = (x: number) => (x < 0.5 ? 4 : 1);
    const s1 = await GeoSeries.sampleBlueNoise(60, {
      region: [0, 0, 1, 1],
      density,
      seed: 3,
      iterations: 20,
      mode: 'raster',
      resolution: 128,
    });
    const s2 = await GeoSeries.sampleBlueNoise(60, {
      region: [0, 0, 1, 1],
      density,
      seed: 3,
      iterations: 20,
      mode: 'raster',
      resolution: 128,
    });
    const s3 = await GeoSeries.sampleBlueNoise(60, {
      region: [0, 0, 1, 1],
      density,
      seed: 4,
      iterations: 20,
      mode: 'raster',
      resolution: 128,
    });
    expect(s1.array.coords).toEqual(s2.array.coords);
    expect(s1.array.coords).not.toEqual(s3.array.coords);
    const left = xyOf(s1).filter(([x]) => x < 0.5).length;
    // a 2D CVT's point density grows like ρ^(1/2): 4× the density, 2× the points (40 of 60)
    expect(left).toBeGreaterThan(36);
  });

  test('weights on polygons, given as a frame column, pull sites to the heavy half (both modes)', async () => {
    const halves = GeoDataFrame.fromSeries(
      GeoSeries.fromWKT([
        'POLYGON ((0 0, 0.5 0, 0.5 1, 0 1, 0 0))',
        'POLYGON ((0.5 0, 1 0, 1 1, 0.5 1, 0.5 0))',
      ]),
      { w: vectorFromArray([1, 9]) },
    );
    const start = randomPoints(12, 5, () => true, 1);
    for (const mode of ['exact', 'raster'] as const) {
      const out = await start.centroidalVoronoi({
        region: [0, 0, 1, 1],
        density: { polygons: halves, weights: 'w' },
        mode,
        resolution: 96,
        iterations: 60,
      });
      const right = xyOf(out.sites).filter(([x]) => x > 0.5).length;
      // ρ^(1/2): 3× the points on the right, 9 of 12
      expect(right, mode).toBeGreaterThanOrEqual(8);
    }
  });

  test('errors name the problem', async () => {
    const pts = GeoSeries.fromXY([0.2, 0.8], [0.2, 0.8]);
    await expect(pts.centroidalVoronoi({ region: [0, 0, 0, 1] })).rejects.toThrow(CvtError);
    await expect(pts.centroidalVoronoi({ region: GeoSeries.fromWKT(['POLYGON EMPTY']) })).rejects.toThrow(
      /region is empty/,
    );
    await expect(pts.centroidalVoronoi({ region: [0, 0, 0.5, 0.5] })).rejects.toThrow(
      /row 1: site \(0.8, 0.8\) lies outside/,
    );
    await expect(pts.centroidalVoronoi({ density: () => -1 })).rejects.toThrow(/density at .* is -1/);
    await expect(
      pts.centroidalVoronoi({ density: () => Number.NaN, mode: 'raster', resolution: 8 }),
    ).rejects.toThrow(/is NaN/);
    await expect(pts.centroidalVoronoi({ density: () => 0 })).rejects.toThrow(/zero mass/);
    await expect(pts.centroidalVoronoi({ density: () => 0, mode: 'raster', resolution: 8 })).rejects.toThrow(
      /zero mass/,
    );
    const raster = {
      values: Float32Array.of(1, Number.NaN, 1, 1),
      width: 2,
      height: 2,
      bounds: [0, 0, 1, 1] as [number, number, number, number],
    };
    await expect(pts.centroidalVoronoi({ density: raster })).rejects.toThrow(/col 1, row 0 is NaN/);
    await expect(GeoSeries.fromWKT([null]).centroidalVoronoi()).rejects.toThrow(/at least 1 site/);
    const nan = new GeometryBuilder(GeometryType.Point);
    nan.appendPoint(0, 0);
    nan.appendPoint(Number.NaN, 1);
    await expect(new GeoSeries(nan.finish()).centroidalVoronoi()).rejects.toThrow(/row 1: point \(NaN, 1\)/);
    await expect(GeoSeries.fromWKT(['LINESTRING (0 0, 1 1)']).centroidalVoronoi()).rejects.toThrow(
      /row 0: .*Points/,
    );
    await expect(pts.centroidalVoronoi({ method: 'newton' as 'lloyd' })).rejects.toThrow(/method/);
    await expect(pts.centroidalVoronoi({ iterations: 0 })).rejects.toThrow(/iterations/);
    await expect(pts.centroidalVoronoi({ tolerance: -1 })).rejects.toThrow(/tolerance/);
    await expect(pts.centroidalVoronoi({ resolution: 1.5, mode: 'raster' })).rejects.toThrow(/resolution/);
    await expect(pts.centroidalVoronoi({ sites: 3 } as never)).rejects.toThrow(/unknown option "sites"/);
    const polys = GeoSeries.fromWKT(['POLYGON ((0 0, 1 0, 1 1, 0 0))']);
    await expect(pts.centroidalVoronoi({ density: { polygons: polys, weights: [-2] } })).rejects.toThrow(
      /weight of row 0 is -2/,
    );
    await expect(GeoSeries.sampleBlueNoise(0, { region: [0, 0, 1, 1] })).rejects.toThrow(/n ≥ 1/);
  });

  test('explain answers for both modes', () => {
    const pts = GeoSeries.fromXY([0.2, 0.8], [0.2, 0.8]);
    expect(pts.explain('centroidalVoronoi', { device: 'cpu' }).kernel).toBe('voronoiPolygons');
    const raster = pts.explain('centroidalVoronoi', { mode: 'raster', resolution: 64, device: 'cpu' });
    expect(raster.kernel).toBe('centroidalVoronoi');
    expect(raster.rows).toBe(64 * 64);
  });
});
