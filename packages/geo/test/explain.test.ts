import {
  type DispatchEvent,
  GeometryArray,
  GeometryType,
  InvalidGeometryError,
  onDispatch,
} from '@geoframe/core';
import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import { generatePoints, pointSets } from '@geoframe/testing';
import { vectorFromArray } from 'apache-arrow';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';

function sitesSeries(xy: Float64Array): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

/** Brute force: the number of distinct coordinates (−0 equals 0). */
function bruteUniqueCount(xy: Float64Array): number {
  const seen = new Set<string>();
  for (let i = 0; i < xy.length; i += 2) seen.add(`${xy[i] + 0},${xy[i + 1] + 0}`);
  return seen.size;
}

let events: DispatchEvent[] = [];
const stop = onDispatch((e) => events.push(e));
afterEach(() => {
  events = [];
  vi.unstubAllEnvs();
});
afterAll(stop);

/** Runs the real operation and returns its event (on the CPU unless `path` says otherwise). */
async function emitted(call: () => Promise<unknown>, path: 'cpu' | 'gpu' = 'cpu'): Promise<DispatchEvent> {
  events = [];
  await call();
  const dispatched = events.filter((e) => e.type === 'dispatch');
  expect(dispatched).toHaveLength(1);
  expect(dispatched[0].path).toBe(path);
  return dispatched[0];
}

/** The fields of an explain answer that must equal the real call's event. */
const eventOf = (e: DispatchEvent) => ({
  type: e.type,
  kernel: e.kernel,
  rows: e.rows,
  path: e.path,
  reason: e.reason,
});

describe('explain agrees with the event the real call emits', () => {
  it('voronoiPolygons and delaunayTriangles: rows are the unique sites, on every standard point set', async () => {
    for (const { name, xy } of pointSets(60, 5)) {
      const series = sitesSeries(xy);
      const unique = bruteUniqueCount(xy);
      for (const device of ['auto', 'cpu'] as const) {
        const voronoi = series.explain('voronoiPolygons', { device });
        expect(voronoi.rows, name).toBe(unique);
        expect(eventOf(voronoi), name).toEqual(
          eventOf(await emitted(() => series.voronoiPolygons({ device }))),
        );
        const delaunay = series.explain('delaunayTriangles', { device });
        expect(delaunay.rows, name).toBe(unique);
        expect(eventOf(delaunay), name).toEqual(
          eventOf(await emitted(() => series.delaunayTriangles({ device }))),
        );
      }
    }
  });

  it('tolerance merges sites into rows exactly as the operation counts them', async () => {
    const base = generatePoints('uniform', 150, 11);
    // every third site gets a companion 0.3 away: merged at tolerance 0.5, kept at 0.1
    const extra: number[] = [];
    for (let i = 0; i < base.length; i += 6) extra.push(base[i] + 0.3, base[i + 1]);
    const xy = Float64Array.from([...base, ...extra]);
    const series = sitesSeries(xy);
    const counts: number[] = [];
    for (const tolerance of [0, 0.1, 0.5, 40]) {
      // one cell per kept site (which sites GEOS keeps: tolerance-geos.test.ts, against shapely)
      const expected = (await series.voronoiPolygons({ tolerance, device: 'cpu' })).length;
      counts.push(expected);
      const voronoi = series.explain('voronoiPolygons', { tolerance });
      expect(voronoi.rows).toBe(expected);
      expect(eventOf(voronoi)).toEqual(eventOf(await emitted(() => series.voronoiPolygons({ tolerance }))));
      const delaunay = series.explain('delaunayTriangles', { tolerance, device: 'cpu' });
      expect(eventOf(delaunay)).toEqual(
        eventOf(await emitted(() => series.delaunayTriangles({ tolerance, device: 'cpu' }))),
      );
    }
    expect(counts[0]).toBe(xy.length / 2);
    expect(counts[2]).toBeLessThan(counts[1]);
  });

  it("'auto' around a crossover moved by GEOFRAME_CROSSOVER_VORONOIPOLYGONS; duplicates and tolerance decide", async () => {
    vi.stubEnv('GEOFRAME_CROSSOVER_VORONOIPOLYGONS', '100');
    const xy = generatePoints('uniform', 100, 3);
    const atCrossover = sitesSeries(xy);
    const above = atCrossover.explain('voronoiPolygons');
    expect(above).toMatchObject({
      type: 'dispatch',
      kernel: 'voronoiPolygons',
      rows: 100,
      path: 'gpu',
      crossover: 100,
      measured: 'GEOFRAME_CROSSOVER_VORONOIPOLYGONS',
      gpuImplemented: true,
    });
    expect(above.reason).toContain('GEOFRAME_CROSSOVER_VORONOIPOLYGONS');
    // the size explained is the one the operation dispatches on (run on the CPU here)
    expect(above.rows).toBe((await emitted(() => atCrossover.voronoiPolygons({ device: 'cpu' }))).rows);

    // 100 rows, but the last repeats the first: 99 sites, below the crossover
    const withDuplicate = xy.slice();
    withDuplicate[198] = xy[0];
    withDuplicate[199] = xy[1];
    const duplicated = sitesSeries(withDuplicate);
    const below = duplicated.explain('voronoiPolygons');
    expect(below).toMatchObject({ rows: 99, path: 'cpu', crossover: 100 });
    expect(eventOf(below)).toEqual(eventOf(await emitted(() => duplicated.voronoiPolygons())));

    // a companion 0.5 away from site 0 is a site of its own at tolerance 0; at tolerance 30 GEOS
    // merges it and others (which ones: tolerance-geos.test.ts), and 'auto' follows the count
    const withCompanion = Float64Array.from([...xy.subarray(0, 198), xy[0] + 0.5, xy[1]]);
    const companion = sitesSeries(withCompanion);
    expect(companion.explain('voronoiPolygons').path).toBe('gpu');
    const merged = companion.explain('voronoiPolygons', { tolerance: 30 });
    const kept = (await companion.voronoiPolygons({ tolerance: 30, device: 'cpu' })).length;
    expect(kept).toBeLessThan(100);
    expect(merged).toMatchObject({ rows: kept, path: 'cpu' });
    expect(eventOf(merged)).toEqual(
      eventOf(await emitted(() => companion.voronoiPolygons({ tolerance: 30 }))),
    );
  });

  it("delaunayTriangles: 'auto' keeps the CPU below the crossover, as the real call does", async () => {
    const series = sitesSeries(generatePoints('uniform', 20, 9));
    const auto = series.explain('delaunayTriangles');
    expect(auto).toMatchObject({ kernel: 'delaunayTriangles', rows: 20, path: 'cpu', gpuImplemented: true });
    expect(auto.crossover).toBeGreaterThan(20);
    expect(auto.reason).toContain(`20 < crossover ${auto.crossover}`);
    expect(eventOf(auto)).toEqual(eventOf(await emitted(() => series.delaunayTriangles())));
  });

  gpuTest(
    "delaunayTriangles with device 'gpu': the answer is the real call's event",
    async () => {
      await requireGpu();
      const series = sitesSeries(generatePoints('uniform', 20, 9));
      const answer = series.explain('delaunayTriangles', { device: 'gpu' });
      expect(answer).toMatchObject({ kernel: 'delaunayTriangles', rows: 20, path: 'gpu' });
      expect(eventOf(answer)).toEqual(
        eventOf(await emitted(() => series.delaunayTriangles({ device: 'gpu' }), 'gpu')),
      );
    },
    240_000,
  );

  it('voronoiRaster: rows = width·height; voronoiVolume: rows = nx·ny·nz, as kernel voronoiRaster', async () => {
    const series = GeoSeries.fromWKT(['POINT (1 1)', null, 'POINT (9 2)', 'POINT EMPTY', 'POINT (4 8)']);
    for (const device of ['auto', 'cpu'] as const) {
      const raster = series.explain('voronoiRaster', { width: 40, height: 30, device });
      expect(raster).toMatchObject({ kernel: 'voronoiRaster', rows: 40 * 30, path: 'cpu' });
      expect(eventOf(raster)).toEqual(
        eventOf(await emitted(() => series.voronoiRaster({ width: 40, height: 30, device }))),
      );
      const volume = series.explain('voronoiVolume', { dims: [6, 5, 4], z: 0, device });
      expect(volume).toMatchObject({ kernel: 'voronoiRaster', rows: 6 * 5 * 4, path: 'cpu' });
      expect(eventOf(volume)).toEqual(
        eventOf(await emitted(() => series.voronoiVolume({ dims: [6, 5, 4], z: 0, device }))),
      );
    }
  });

  it("raster 'auto' around a crossover moved by GEOFRAME_CROSSOVER_VORONOIRASTER", async () => {
    vi.stubEnv('GEOFRAME_CROSSOVER_VORONOIRASTER', '1200');
    const series = GeoSeries.fromWKT(['POINT (0 0)', 'POINT (10 0)', 'POINT (5 8)']);
    expect(series.explain('voronoiRaster', { width: 40, height: 30 })).toMatchObject({
      rows: 1200,
      path: 'gpu',
      crossover: 1200,
      measured: 'GEOFRAME_CROSSOVER_VORONOIRASTER',
    });
    expect(series.explain('voronoiVolume', { dims: [10, 10, 12], z: 1 })).toMatchObject({
      rows: 1200,
      path: 'gpu',
    });
    const below = series.explain('voronoiRaster', { width: 40, height: 29 });
    expect(below).toMatchObject({ rows: 1160, path: 'cpu' });
    expect(eventOf(below)).toEqual(
      eventOf(await emitted(() => series.voronoiRaster({ width: 40, height: 29 }))),
    );
    const volume = series.explain('voronoiVolume', { dims: [10, 10, 11], z: 1 });
    expect(volume).toMatchObject({ rows: 1100, path: 'cpu' });
    expect(eventOf(volume)).toEqual(
      eventOf(await emitted(() => series.voronoiVolume({ dims: [10, 10, 11], z: 1 }))),
    );
  });

  it('GeoDataFrame.explain answers for the active geometry', async () => {
    const frame = GeoDataFrame.fromSeries(
      GeoSeries.fromWKT(['POINT (0 0)', 'POINT (4 0)', 'POINT (0 0)', null, 'POINT (1 3)']),
      { name: vectorFromArray(['a', 'b', 'c', 'd', 'e']) },
    );
    const voronoi = frame.explain('voronoiPolygons', { ordered: true });
    expect(voronoi.rows).toBe(3);
    expect(eventOf(voronoi)).toEqual(eventOf(await emitted(() => frame.voronoiPolygons({ ordered: true }))));
    const delaunay = frame.explain('delaunayTriangles', { device: 'cpu' });
    expect(eventOf(delaunay)).toEqual(
      eventOf(await emitted(() => frame.delaunayTriangles({ device: 'cpu' }))),
    );
  });
});

describe('explain runs nothing', () => {
  it('emits no dispatch event, whatever it answers', () => {
    vi.stubEnv('GEOFRAME_CROSSOVER_VORONOIPOLYGONS', '10');
    const series = sitesSeries(generatePoints('clusters', 50, 4));
    events = [];
    expect(series.explain('voronoiPolygons').path).toBe('gpu');
    series.explain('voronoiPolygons', { device: 'gpu', onlyEdges: true });
    series.explain('voronoiPolygons', { device: 'cpu' });
    series.explain('delaunayTriangles', { device: 'gpu' });
    series.explain('voronoiRaster', { width: 4000, height: 4000 });
    series.explain('voronoiVolume', { dims: [300, 300, 300], z: 0, device: 'gpu' });
    GeoDataFrame.fromSeries(series).explain('voronoiPolygons');
    expect(events).toEqual([]);
  });
});

describe('explain refuses what the operation refuses', () => {
  /** explain's error, which the real call must reject with too (same class, same message). */
  async function sameError(explain: () => unknown, call: () => Promise<unknown>): Promise<Error> {
    let thrown: unknown;
    try {
      explain();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as Error;
    const rejected = await call().then(
      () => null,
      (e: unknown) => e,
    );
    expect(rejected).toBeInstanceOf(error.constructor);
    expect((rejected as Error).message).toBe(error.message);
    return error;
  }

  const series = GeoSeries.fromWKT(['POINT (0 0)', 'POINT (4 0)', 'POINT (1 3)']);
  const bogus = 'tpu' as 'cpu';

  it('a bad device is a TypeError, for every operation', async () => {
    const cases: [() => unknown, () => Promise<unknown>][] = [
      [
        () => series.explain('voronoiPolygons', { device: bogus }),
        () => series.voronoiPolygons({ device: bogus }),
      ],
      [
        () => series.explain('delaunayTriangles', { device: bogus }),
        () => series.delaunayTriangles({ device: bogus }),
      ],
      [
        () => series.explain('voronoiRaster', { width: 4, height: 4, device: bogus }),
        () => series.voronoiRaster({ width: 4, height: 4, device: bogus }),
      ],
      [
        () => series.explain('voronoiVolume', { dims: [2, 2, 2], z: 0, device: bogus }),
        () => series.voronoiVolume({ dims: [2, 2, 2], z: 0, device: bogus }),
      ],
    ];
    for (const [explain, call] of cases) {
      expect(await sameError(explain, call)).toBeInstanceOf(TypeError);
    }
    expect(events).toEqual([]);
  });

  it('bad tolerance, extendTo, grid sizes, modes, bounds and input rows', async () => {
    const nan = new GeoSeries(
      new GeometryArray({
        type: GeometryType.Point,
        dimension: 'xy',
        coords: new Float64Array([0, 0, 1, Number.NaN, 2, 2]),
        offsets: [],
        length: 3,
      }),
    );
    const line = GeoSeries.fromWKT(['POINT (0 0)', 'LINESTRING (0 1, 1 1)']);
    const cases: [() => unknown, () => Promise<unknown>, ErrorConstructor][] = [
      [
        () => series.explain('voronoiPolygons', { tolerance: -1 }),
        () => series.voronoiPolygons({ tolerance: -1 }),
        RangeError,
      ],
      [
        () => series.explain('delaunayTriangles', { tolerance: Number.NaN }),
        () => series.delaunayTriangles({ tolerance: Number.NaN }),
        RangeError,
      ],
      [
        () => series.explain('voronoiPolygons', { extendTo: [0, 0, 1] as never }),
        () => series.voronoiPolygons({ extendTo: [0, 0, 1] as never }),
        TypeError,
      ],
      [
        () => series.explain('voronoiPolygons', { extendTo: [5, 0, 1, 1] }),
        () => series.voronoiPolygons({ extendTo: [5, 0, 1, 1] }),
        RangeError,
      ],
      [
        () => series.explain('voronoiRaster', { width: 0, height: 4 }),
        () => series.voronoiRaster({ width: 0, height: 4 }),
        RangeError,
      ],
      [
        () => series.explain('voronoiRaster', { width: 4, height: 4, mode: 'fast' as 'jfa' }),
        () => series.voronoiRaster({ width: 4, height: 4, mode: 'fast' as 'jfa' }),
        RangeError,
      ],
      [
        () => series.explain('voronoiRaster', { width: 4, height: 4, bounds: [0, 0, 0, 1] }),
        () => series.voronoiRaster({ width: 4, height: 4, bounds: [0, 0, 0, 1] }),
        RangeError,
      ],
      [
        () => series.explain('voronoiVolume', { dims: [2, 2, 1.5], z: 0 }),
        () => series.voronoiVolume({ dims: [2, 2, 1.5], z: 0 }),
        RangeError,
      ],
      [
        () => series.explain('voronoiVolume', { dims: [2, 2, 2] }),
        () => series.voronoiVolume({ dims: [2, 2, 2] }),
        InvalidGeometryError as unknown as ErrorConstructor,
      ],
      [
        () => nan.explain('voronoiPolygons'),
        () => nan.voronoiPolygons(),
        InvalidGeometryError as unknown as ErrorConstructor,
      ],
      [
        () => nan.explain('voronoiRaster', { width: 4, height: 4 }),
        () => nan.voronoiRaster({ width: 4, height: 4 }),
        InvalidGeometryError as unknown as ErrorConstructor,
      ],
      [
        () => line.explain('voronoiRaster', { width: 4, height: 4 }),
        () => line.voronoiRaster({ width: 4, height: 4 }),
        InvalidGeometryError as unknown as ErrorConstructor,
      ],
    ];
    for (const [explain, call, kind] of cases) {
      expect(await sameError(explain, call)).toBeInstanceOf(kind);
    }
  });

  it('an unknown operation is a TypeError listing the known ones', () => {
    expect(() => series.explain('buffer' as 'voronoiPolygons')).toThrow(
      new TypeError(
        'explain: unknown operation "buffer"; known: voronoiPolygons, delaunayTriangles, voronoiRaster, voronoiVolume, costAllocation, centroidalVoronoi',
      ),
    );
    // a frame has no voronoi raster methods, so it does not explain them
    const frame = GeoDataFrame.fromSeries(series);
    expect(() => frame.explain('voronoiRaster' as 'voronoiPolygons')).toThrow(
      new TypeError(
        'explain: unknown operation "voronoiRaster"; known: voronoiPolygons, delaunayTriangles, costAllocation, centroidalVoronoi',
      ),
    );
  });
});
