import { InvalidGeometryError } from '@geoframe/core';
import { DeviceGeoSeries, GeoSeries } from '@geoframe/geo';
import { GpuResultReleasedError } from '@geoframe/gpu';
import { adversarialSet, generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { requireGpu, gpuTest as test } from '../../gpu/test/gpu-test-context.js';

function pointsOf(xy: Float64Array): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
    { crs: 'EPSG:32633', name: 'sites' },
  );
}

/** Same rows, same coordinates, bit for bit. */
function expectSameSeries(a: GeoSeries, b: GeoSeries, what: string) {
  expect(a.length, what).toBe(b.length);
  expect(a.array.offsets[1], what).toEqual(b.array.offsets[1]);
  expect(a.array.coords, what).toEqual(b.array.coords);
}

describe("voronoiPolygons({keep: 'device'})", () => {
  test('measures and gathers on the GPU equal the host series; the host copy is made once', async () => {
    await requireGpu();
    // duplicates, far offset, cocircular sites: the adversarial shapes meet the same contract
    const sets = [
      { name: 'uniform with repeats', xy: generatePoints('duplicates', 400, 81) },
      { name: 'offset', xy: adversarialSet('offset', 300, 82).xy },
      { name: 'cocircular', xy: adversarialSet('cocircular', 200, 83).xy },
    ];
    for (const { name, xy } of sets) {
      const series = pointsOf(xy);
      const host = await series.voronoiPolygons({ device: 'gpu' });
      const kept = await series.voronoiPolygons({ device: 'gpu', keep: 'device' });
      expect(kept).toBeInstanceOf(DeviceGeoSeries);
      expect(kept.length, name).toBe(host.length);
      expect(String(kept)).toContain('on the GPU');
      const area = await kept.area();
      const hostArea = host.area();
      for (let i = 0; i < host.length; i++) {
        expect(Math.abs(area[i] - hostArea[i]), `${name} row ${i}`).toBeLessThanOrEqual(1e-12 * hostArea[i]);
      }
      expect(await kept.bounds(), name).toEqual(host.bounds);
      expect(await kept.totalBounds(), name).toEqual(host.totalBounds);
      const random = new SeededRandom(84);
      const picks = Array.from({ length: 50 }, () => Math.floor(random.next() * host.length));
      expectSameSeries(await (await kept.take(picks)).toHost(), host.take(picks), `${name} take`);
      const mask = Array.from({ length: host.length }, (_, i) => i % 3 === 0);
      expectSameSeries(await (await kept.filter(mask)).toHost(), host.filter(mask), `${name} filter`);
      const copy = await kept.toHost();
      expectSameSeries(copy, host, name);
      expect(await kept.toHost()).toBe(copy);
      expect(copy.crs).toEqual(host.crs);
      expect((await kept.centroid()).array.coords).toEqual(host.centroid().array.coords);
      kept.destroy();
      // the host copy outlives the device buffers; device reads say what happened
      expect(copy.area()).toEqual(hostArea);
      await expect(kept.area()).rejects.toBeInstanceOf(GpuResultReleasedError);
      await expect(kept.take([0])).rejects.toBeInstanceOf(GpuResultReleasedError);
      expect(String(kept)).toContain('destroyed');
    }
  }, 600_000);

  test('ordered: one row per input row, gathered on the device; rows without a cell are refused', async () => {
    await requireGpu();
    const xy = generatePoints('duplicates', 200, 91);
    const series = pointsOf(xy);
    const host = await series.voronoiPolygons({ device: 'gpu', ordered: true });
    const kept = await series.voronoiPolygons({ device: 'gpu', keep: 'device', ordered: true });
    expectSameSeries(await kept.toHost(), host, 'ordered');
    kept.destroy();
    const withNull = GeoSeries.fromWKT(['POINT (0 0)', null, 'POINT (1 0)', 'POINT (0 1)']);
    await expect(withNull.voronoiPolygons({ device: 'gpu', keep: 'device', ordered: true })).rejects.toThrow(
      InvalidGeometryError,
    );
  }, 600_000);

  test('options that produce host data are refused with the reason', async () => {
    const series = pointsOf(generatePoints('uniform', 20, 95));
    await expect(series.voronoiPolygons({ device: 'cpu', keep: 'device' })).rejects.toThrow(/needs the GPU/);
    await expect(series.voronoiPolygons({ keep: 'device', onlyEdges: true })).rejects.toThrow(/onlyEdges/);
    await expect(series.voronoiPolygons({ keep: 'device', clipTo: series.buffer(1) })).rejects.toThrow(
      /clipTo/,
    );
  });

  test('a large input whose duplicates the GPU finds: the host series bit for bit, ordered too', async () => {
    await requireGpu();
    // past the size where the duplicates are left to the GPU's check (adr/0015)
    const base = generatePoints('uniform', 33_000, 91);
    const xy = new Float64Array(2 * 33_200);
    xy.set(base);
    for (let i = 33_000; i < 33_200; i++) {
      xy[2 * i] = base[2 * ((i * 104_729) % 33_000)];
      xy[2 * i + 1] = base[2 * ((i * 104_729) % 33_000) + 1];
    }
    const series = pointsOf(xy);
    for (const ordered of [false, true]) {
      const host = await series.voronoiPolygons({ device: 'gpu', ordered });
      const kept = await series.voronoiPolygons({ device: 'gpu', keep: 'device', ordered });
      expectSameSeries(await kept.toHost(), host, `ordered ${ordered}`);
      kept.destroy();
    }
  });
});
