// The exact CVT's moments of cells kept on the device: against exact BigInt moments of the same
// rings (the kernel snaps each ring to 2^-50 of its extent, then sums exactly and rounds once),
// the rows it leaves to the host, and the interior buckets' promise (a cell answered on the GPU
// lies wholly inside the region).
import {
  defaultClipBox,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  uniqueSites,
} from '@geoframe/core';
import { prepareClipRegion, voronoiCells } from '@geoframe/cpu';
import { cvtCellMomentsGpu, DevicePolygons } from '@geoframe/gpu';
import { adversarialSet, generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { cellMoments } from '../../cpu/src/cvt/cell-moments.js';
import { interiorBuckets } from '../../cpu/src/cvt/interior-buckets.js';
import { RegionCellMoments } from '../../cpu/src/cvt/region-cell-moments.js';
import { exactScaled, roundToF64 } from './exact-ring-area.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

interface Rings {
  coords: Float64Array;
  ringOffsets: Int32Array;
}

/** The CPU's Voronoi cells of the unique points of `xy`, and those points. */
function cellsOf(xy: Float64Array): { sites: Float64Array; cells: Rings } {
  const sites = uniqueSites(xy).xy;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k < sites.length; k += 2) {
    minX = Math.min(minX, sites[k]);
    maxX = Math.max(maxX, sites[k]);
    minY = Math.min(minY, sites[k + 1]);
    maxY = Math.max(maxY, sites[k + 1]);
  }
  return { sites, cells: voronoiCells(sites, defaultClipBox({ minX, minY, maxX, maxY })) };
}

/** Exact 2m, 6sₓ, 6s_y, 12e of ring `r` about site (x, y), each rounded once (null: not a normal f64). */
function exactMoments(c: Rings, r: number, x: number, y: number): (number | null)[] {
  const lo = c.ringOffsets[r];
  const hi = c.ringOffsets[r + 1];
  const sx = exactScaled(x);
  const sy = exactScaled(y);
  let [a2, mx, my, e] = [0n, 0n, 0n, 0n];
  for (let k = lo; k + 1 < hi; k++) {
    const ax = exactScaled(c.coords[2 * k]) - sx;
    const ay = exactScaled(c.coords[2 * k + 1]) - sy;
    const bx = exactScaled(c.coords[2 * k + 2]) - sx;
    const by = exactScaled(c.coords[2 * k + 3]) - sy;
    const cross = ax * by - bx * ay;
    a2 += cross;
    mx += (ax + bx) * cross;
    my += (ay + by) * cross;
    e += (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by) * cross;
  }
  const signed = (v: bigint, scale: number) => {
    const f = roundToF64(v < 0n ? -v : v, -1074 * scale);
    return f === null ? null : v < 0n ? -f : f;
  };
  return [signed(a2, 2), signed(mx, 3), signed(my, 3), signed(e, 4)];
}

/** The kernel's bound: one unit of 2^-49·R per coordinate, per edge, plus the final rounding. */
function tolerance(c: Rings, r: number, x: number, y: number, power: number, value: number): number {
  const lo = c.ringOffsets[r];
  const hi = c.ringOffsets[r + 1];
  let radius = 0;
  for (let k = lo; k < hi; k++) {
    radius = Math.max(radius, Math.abs(c.coords[2 * k] - x), Math.abs(c.coords[2 * k + 1] - y));
  }
  return (hi - lo) * radius ** power * 2 ** -42 + Math.abs(value) * 2 ** -52;
}

async function onDevice(cells: Rings): Promise<DevicePolygons> {
  return DevicePolygons.fromHost(await requireGpu(), cells.coords, cells.ringOffsets);
}

describe('CVT cell moments on the device', () => {
  test('equal the exact moments of the ring to 2^-42 of its extent, on uniform and adversarial cells', async () => {
    const sets = [
      { name: 'uniform', xy: generatePoints('uniform', 500, 1) },
      { name: 'clusters', xy: generatePoints('clusters', 400, 2) },
      { name: 'lattice', xy: adversarialSet('lattice', 300, 3).xy },
      { name: 'cocircular', xy: adversarialSet('cocircular', 200, 4).xy },
      { name: 'offset', xy: adversarialSet('offset', 300, 5).xy },
      { name: 'near-duplicates', xy: generatePoints('near-duplicates', 300, 6) },
      // scales 1e-50, 1e62 and 1e-38 (moments in f64's range), 1e116 and 1e-200 (out of it)
      { name: 'scaled 1e-50', xy: adversarialSet('magnitude', 300, 48).xy },
      { name: 'scaled 1e62', xy: adversarialSet('magnitude', 300, 21).xy },
      { name: 'scaled 1e-38', xy: adversarialSet('magnitude', 300, 36).xy },
      { name: 'magnitude 1e116', xy: adversarialSet('magnitude', 300, 7).xy },
      { name: 'magnitude 1e-200', xy: adversarialSet('magnitude', 300, 9).xy },
    ];
    for (const { name, xy } of sets) {
      const { sites, cells } = cellsOf(xy);
      const device = await onDevice(cells);
      const got = await cvtCellMomentsGpu(device, sites, null);
      device.destroy();
      const host = new Set(got.hostRows);
      const rows = sites.length >> 1;
      let checked = 0;
      for (let r = 0; r < rows; r++) {
        const exact = exactMoments(cells, r, sites[2 * r], sites[2 * r + 1]);
        if (host.has(r)) {
          // the kernel only leaves a row to the host when a sum is outside f64's normal range
          expect(
            exact.some((v) => v === null || (v !== 0 && Math.abs(v) < 2 ** -1000)),
            `${name} row ${r}`,
          ).toBe(true);
          continue;
        }
        for (let t = 0; t < 4; t++) {
          const want = exact[t];
          expect(want, `${name} row ${r} moment ${t}`).not.toBeNull();
          const tol = tolerance(cells, r, sites[2 * r], sites[2 * r + 1], [2, 3, 3, 4][t], want ?? 0);
          expect(
            Math.abs(got.raw[4 * r + t] - (want ?? 0)),
            `${name} row ${r} moment ${t}`,
          ).toBeLessThanOrEqual(tol);
        }
        checked++;
      }
      // at extreme magnitudes the moments leave f64's normal range (the host answers those rows)
      if (!name.startsWith('magnitude')) expect(checked, name).toBe(rows);
      // the rings of the host rows come back in order
      expect(got.hostCells.ringOffsets.length, name).toBe(got.hostRows.length + 1);
    }
  });

  test('hand-made rows: too short, NaN, zero, a site far from its ring', async () => {
    const rows = [
      [],
      [1, 1, 2, 2, 1, 1],
      [0, 0, 1, 0, Number.NaN, 1, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [1e9, 1e9, 1e9 + 1, 1e9, 1e9 + 1, 1e9 + 1, 1e9, 1e9],
      [0, 0, 2, 0, 2, 2, 0, 2, 0, 0],
    ];
    const sites = Float64Array.of(0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1);
    const ringOffsets = new Int32Array(rows.length + 1);
    rows.forEach((r, k) => {
      ringOffsets[k + 1] = ringOffsets[k] + r.length / 2;
    });
    const cells = { coords: Float64Array.from(rows.flat()), ringOffsets };
    const device = await onDevice(cells);
    const got = await cvtCellMomentsGpu(device, sites, null);
    device.destroy();
    expect(Array.from(got.hostRows)).toEqual([2]);
    expect(Array.from(got.raw.subarray(0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(got.raw.subarray(12, 16))).toEqual([0, 0, 0, 0]);
    // the unit square at 1e9 about the origin: the 2^-50 snap is relative to its distance
    const far = exactMoments(cells, 4, 0, 0);
    for (let t = 0; t < 4; t++) {
      const tol = tolerance(cells, 4, 0, 0, [2, 3, 3, 4][t], far[t] ?? 0);
      expect(Math.abs(got.raw[16 + t] - (far[t] ?? 0))).toBeLessThanOrEqual(tol);
    }
    // [0, 2]² about (1, 1): 2m = 8, first moments 0, 12e = 12 · 8/3
    expect(Array.from(got.raw.subarray(20, 24))).toEqual([8, 0, 0, 32]);
  });

  test('with interior buckets, every row answered on the GPU is a cell wholly inside the region', async () => {
    await requireGpu();
    const random = new SeededRandom(21);
    for (const [seed, holes] of [
      [31, false],
      [32, true],
    ] as const) {
      const region = prepareClipRegion(polygonColumn([starPolygon(random, holes)]));
      const xy = generatePoints('uniform', 1500, seed).map((v) => -1.1 + (2.2 * v) / 1000);
      const { sites, cells } = cellsOf(xy);
      const device = await onDevice(cells);
      const got = await cvtCellMomentsGpu(device, sites, interiorBuckets(region, 128));
      device.destroy();
      const rows = sites.length >> 1;
      const host = new Set(got.hostRows);
      const clipped = cellMoments(rows);
      const clip = new RegionCellMoments(region);
      for (let r = 0; r < rows; r++)
        clip.add(cells.coords, cells.ringOffsets, r, sites[2 * r], sites[2 * r + 1], clipped, r);
      let onGpu = 0;
      for (let r = 0; r < rows; r++) {
        if (host.has(r)) continue;
        onGpu++;
        // the cell's part in the region is the whole cell
        expect(Math.abs(got.raw[4 * r] / 2 - clipped.mass[r]), `row ${r}`).toBeLessThanOrEqual(
          1e-12 * clipped.mass[r],
        );
      }
      expect(onGpu).toBeGreaterThan(rows / 8);
      expect(got.hostRows.length).toBeGreaterThan(0);
    }
  });
});

/** A star-shaped polygon around the origin (radius 0.4–1), with a square hole when asked. */
function starPolygon(random: SeededRandom, hole: boolean): number[][][] {
  const k = 40;
  const outer: number[][] = [];
  for (let i = 0; i < k; i++) {
    const t = (2 * Math.PI * i) / k;
    const r = 0.4 + 0.6 * random.next();
    outer.push([r * Math.cos(t), r * Math.sin(t)]);
  }
  outer.push(outer[0]);
  const rings = [outer];
  if (hole)
    rings.push([
      [-0.1, -0.1],
      [-0.1, 0.1],
      [0.1, 0.1],
      [0.1, -0.1],
      [-0.1, -0.1],
    ]);
  return rings;
}

/** One polygon row of rings. */
function polygonColumn(rows: number[][][][]): GeometryArray {
  const b = new GeometryBuilder(GeometryType.Polygon);
  for (const rings of rows) {
    b.beginGeometry(GeometryType.Polygon);
    for (const ring of rings) {
      b.beginRing();
      for (const [x, y] of ring) b.pushXY(x, y);
    }
    b.endGeometry();
  }
  return b.finish();
}
