import {
  area,
  bounds,
  defaultClipBox,
  GeometryArray,
  GeometryType,
  totalBounds,
  uniqueSites,
} from '@geoframe/core';
import { voronoiCells } from '@geoframe/cpu';
import {
  DevicePolygons,
  GpuContext,
  GpuDeviceLostError,
  GpuResultReleasedError,
  residentArea,
  residentBounds,
  residentTake,
  residentTotalBounds,
} from '@geoframe/gpu';
import { adversarialSet, generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { exactRingArea } from './exact-ring-area.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

interface Rings {
  coords: Float64Array;
  ringOffsets: Int32Array;
}

/** The CPU's Voronoi cells of the unique points of `xy` (closed rings, one a site). */
function cellsOf(xy: Float64Array): Rings {
  const unique = uniqueSites(xy).xy;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < unique.length; k += 2) {
    minX = Math.min(minX, unique[k]);
    maxX = Math.max(maxX, unique[k]);
    minY = Math.min(minY, unique[k + 1]);
    maxY = Math.max(maxY, unique[k + 1]);
  }
  return voronoiCells(unique, defaultClipBox({ minX, minY, maxX, maxY }));
}

/** Rings made by hand: empty, 1–2 points, collinear, clockwise, far offset, magnitudes the kernel declines. */
function handRings(): { rings: Rings; declined: Set<number> } {
  const rows: number[][] = [
    [],
    [3, 4],
    [1, 1, 2, 2],
    [0, 0, 1, 1, 2, 2, 0, 0], // collinear: area 0
    [0, 0, 0, 1, 1, 1, 1, 0, 0, 0], // clockwise unit square
    [1e7 + 0.1, 1e7, 1e7 + 0.3, 1e7, 1e7 + 0.3, 1e7 + 0.7, 1e7 + 0.1, 1e7], // at a 1e7 offset
    [-0, 0, 1e-3, 0, 0, 1e3, -0, 0], // magnitudes 2^20 apart: still within 61 bits? no (declined)
    [0, 0, 1e-160, 0, 0, 1e-160, 0, 0], // subnormal area: declined
    [0, 0, 1e200, 0, 0, 1e200, 0, 0], // overflowing area: declined
    [0.5, 0.25, 0.75, 0.25, 0.75, 0.5, 0.5, 0.25],
  ];
  const offsets = [0];
  const coords: number[] = [];
  for (const row of rows) {
    coords.push(...row);
    offsets.push(coords.length / 2);
  }
  return {
    rings: { coords: Float64Array.from(coords), ringOffsets: Int32Array.from(offsets) },
    declined: new Set([6, 7, 8]),
  };
}

function polygonArray(rings: Rings): GeometryArray {
  const n = rings.ringOffsets.length - 1;
  return new GeometryArray({
    type: GeometryType.Polygon,
    dimension: 'xy',
    coords: rings.coords,
    offsets: [Int32Array.from({ length: n + 1 }, (_, i) => i), rings.ringOffsets],
    length: n,
  });
}

function expectBitEqual(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string) {
  expect(actual.length, what).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) {
      throw new Error(`${what}: entry ${i} is ${actual[i]}, expected ${expected[i]}`);
    }
  }
}

async function checkMeasures(rings: Rings, what: string) {
  const ctx = await requireGpu();
  const device = await DevicePolygons.fromHost(ctx, rings.coords, rings.ringOffsets);
  try {
    const host = polygonArray(rings);
    const areas = await residentArea(device);
    expect(areas, `${what}: area declined`).not.toBeNull();
    const n = rings.ringOffsets.length - 1;
    const exact = Array.from({ length: n }, (_, r) =>
      exactRingArea(rings.coords, rings.ringOffsets[r], rings.ringOffsets[r + 1]),
    );
    expectBitEqual(areas!, exact as number[], `${what}: area`);
    // the host sums the same rings in f64 (GEOS's arithmetic): equal up to its rounding
    const hostArea = area(host);
    for (let r = 0; r < n; r++) {
      expect(Math.abs(areas![r] - hostArea[r]), `${what}: row ${r}`).toBeLessThanOrEqual(1e-9 * hostArea[r]);
    }
    expectBitEqual((await residentBounds(device))!, bounds(host), `${what}: bounds`);
    expectBitEqual(await residentTotalBounds(device), totalBounds(host), `${what}: total bounds`);
  } finally {
    device.destroy();
  }
}

describe('device-resident polygons: measures on the GPU', () => {
  for (const [kind, seed] of [
    ['uniform', 11],
    ['clusters', 12],
    ['lattice', 13],
    ['lattice-offset', 14],
    ['circle', 15],
  ] as const) {
    test(`area (exact, rounded once), bounds and total bounds of ${kind} cells`, async () => {
      await checkMeasures(cellsOf(generatePoints(kind, 300, seed)), kind);
    }, 600_000);
  }

  for (const [kind, seed] of [
    ['magnitude', 21],
    ['offset', 22],
    ['near-duplicates', 23],
    ['cocircular', 24],
  ] as const) {
    test(`${kind} cells`, async () => {
      const { xy, params } = adversarialSet(kind, 200, seed);
      await checkMeasures(cellsOf(xy), `${kind} (${params})`);
    }, 600_000);
  }

  test('hand-made rings: degenerate rows exact, out-of-range magnitudes declined (never a wrong area)', async () => {
    const ctx = await requireGpu();
    const { rings, declined } = handRings();
    const keep = Array.from({ length: rings.ringOffsets.length - 1 }, (_, r) => r).filter(
      (r) => !declined.has(r),
    );
    // without the declined rows every row is answered exactly
    const kept = polygonArray(rings).take(keep);
    await checkMeasures({ coords: kept.coords, ringOffsets: kept.offsets[1] }, 'hand-made');
    // with any of them the whole measure declines (the caller answers on the host)
    for (const r of declined) {
      const one = polygonArray(rings).take([4, r]);
      const device = await DevicePolygons.fromHost(ctx, one.coords, one.offsets[1]);
      expect(await residentArea(device), `row ${r}`).toBeNull();
      device.destroy();
    }
  }, 600_000);
});

describe('device-resident polygons: take, copy to the host, lifetime', () => {
  test('take with repeats and an empty pick equals the host take', async () => {
    const ctx = await requireGpu();
    const rings = cellsOf(generatePoints('uniform', 500, 31));
    const device = await DevicePolygons.fromHost(ctx, rings.coords, rings.ringOffsets);
    const random = new SeededRandom(32);
    const n = rings.ringOffsets.length - 1;
    const picks = Uint32Array.from({ length: 700 }, () => Math.floor(random.next() * n));
    const taken = await residentTake(device, picks);
    const expected = polygonArray(rings).take(picks);
    const back = await taken.toHost();
    expectBitEqual(back.ringOffsets, expected.offsets[1], 'ring offsets');
    expectBitEqual(back.coords, expected.coords, 'coordinates');
    const none = await residentTake(device, new Uint32Array(0));
    expect(none.rows).toBe(0);
    expect((await none.toHost()).ringOffsets).toEqual(Int32Array.of(0));
    for (const d of [device, taken, none]) d.destroy();
  }, 600_000);

  test('destroy(): every later use is a GpuResultReleasedError; a destroy during work waits for it', async () => {
    const ctx = await requireGpu();
    const rings = cellsOf(generatePoints('uniform', 100, 41));
    const device = await DevicePolygons.fromHost(ctx, rings.coords, rings.ringOffsets);
    const running = residentArea(device);
    device.destroy();
    device.destroy(); // idempotent
    expect(await running).not.toBeNull();
    await expect(residentArea(device)).rejects.toBeInstanceOf(GpuResultReleasedError);
    await expect(device.toHost()).rejects.toBeInstanceOf(GpuResultReleasedError);
    await expect(residentTake(device, Uint32Array.of(0))).rejects.toBeInstanceOf(GpuResultReleasedError);
  }, 600_000);

  test('a lost device: a GpuDeviceLostError, never its garbage', async () => {
    const ctx = await GpuContext.create();
    const rings = cellsOf(generatePoints('uniform', 50, 51));
    const device = await DevicePolygons.fromHost(ctx, rings.coords, rings.ringOffsets);
    expect((await device.toHost()).coords).toEqual(rings.coords.subarray(0, 2 * device.points));
    await ctx.release();
    await expect(residentArea(device)).rejects.toBeInstanceOf(GpuDeviceLostError);
    await expect(device.toHost()).rejects.toBeInstanceOf(GpuDeviceLostError);
    device.destroy();
  }, 600_000);
});
