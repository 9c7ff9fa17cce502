// Issue 19's CPU rows: any finite magnitude gives the right cells (or a named error), and cells
// never overlap at a large offset. Checked exactly with the property suite's checks.
import { clipBox, GeoframeError, uniqueSites } from '@geoframe/core';
import { delaunay, voronoiCells, voronoiEdges } from '@geoframe/cpu';
import { GeoSeries } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { checkLines, checkRings, InvalidOutputError } from '../src/voronoi/output-check.js';
import {
  delaunayProblems,
  overlappingPairs,
  pointInRing,
  ringArea,
  ringProblem,
  ringsOf,
  unitScale,
} from './property-checks.js';

const FIVE = [1, 1, 3, 1.2, 2, 3, 2.5, 2, 0.7, 2.2];

function series(xy: ArrayLike<number>): GeoSeries {
  const n = xy.length / 2;
  return GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );
}

/** Valid rings, each site strictly inside its cell, areas summing to the box, no overlap. */
async function expectTiling(xy: Float64Array): Promise<void> {
  const cells = await series(xy).voronoiPolygons({ device: 'cpu' });
  const sites = uniqueSites(xy).xy;
  const box = clipBox(sites);
  const scale = unitScale(sites, [box.minX, box.minY, box.maxX, box.maxY]);
  const rings = ringsOf(cells, scale);
  let area = 0;
  rings.forEach((r, i) => {
    expect(ringProblem(r as Float64Array), `cell ${i}`).toBeNull();
    expect(pointInRing(r as Float64Array, sites[2 * i] * scale, sites[2 * i + 1] * scale)).toBe(1);
    area += ringArea(r as Float64Array);
  });
  const boxArea = (box.maxX - box.minX) * scale * (box.maxY - box.minY) * scale;
  expect(Math.abs(area - boxArea) / boxArea).toBeLessThan(1e-12);
  expect(overlappingPairs(rings)).toEqual([]);
}

describe('the CPU path at any finite magnitude', () => {
  it.each([1e-300, 1e-200, 1e-20, 1e20, 1e200, 1e300])(
    'five sites scaled by %s give valid cells',
    async (s) => {
      await expectTiling(Float64Array.from(FIVE, (v) => v * s));
    },
  );

  it.each([0, 1, 2, 3])('%i sites at 1, 1e-300 and 1e300: GEOS counts, valid cells', async (n) => {
    for (const s of [1, 1e-300, 1e300]) {
      const xy = Float64Array.from(FIVE.slice(0, 2 * n), (v) => v * s);
      const cells = await series(xy).voronoiPolygons({ device: 'cpu' });
      expect(cells.length).toBe(n < 2 ? 0 : n);
      if (n >= 2) await expectTiling(xy);
    }
  });

  it('scaling by a power of two scales the cells and edges bit for bit (the same triangles), from 2^-990 to 2^990', () => {
    const rnd = mulberry32(19);
    const xy = Float64Array.from({ length: 400 }, () => 1 + rnd() * 100);
    const box = clipBox(xy);
    const base = voronoiCells(xy, box);
    const baseEdges = voronoiEdges(xy, box);
    const baseTriangles = delaunay(xy).triangles;
    for (const k of [-990, -600, -100, 0, 100, 600, 990]) {
      const s = 2 ** k;
      const scaled = voronoiCells(
        Float64Array.from(xy, (v) => v * s),
        {
          minX: box.minX * s,
          minY: box.minY * s,
          maxX: box.maxX * s,
          maxY: box.maxY * s,
        },
      );
      expect(scaled.ringOffsets).toEqual(base.ringOffsets);
      expect(Array.from(scaled.coords, (v) => v / s)).toEqual(Array.from(base.coords));
      const edges = voronoiEdges(
        Float64Array.from(xy, (v) => v * s),
        {
          minX: box.minX * s,
          minY: box.minY * s,
          maxX: box.maxX * s,
          maxY: box.maxY * s,
        },
      );
      expect(Array.from(edges.coords, (v) => v / s)).toEqual(Array.from(baseEdges.coords));
      expect(delaunay(Float64Array.from(xy, (v) => v * s)).triangles).toEqual(baseTriangles);
    }
  });

  it('Delaunay triangles at 1e-300 and 1e300 have 2n − 2 − h triangles and empty circles', async () => {
    const rnd = mulberry32(7);
    for (const s of [1e-300, 1e300]) {
      const xy = Float64Array.from({ length: 200 }, () => rnd() * s);
      const triangles = await series(xy).delaunayTriangles({ device: 'cpu' });
      const scale = unitScale(xy);
      expect(
        delaunayProblems(
          Float64Array.from(xy, (v) => v * scale),
          ringsOf(triangles, scale),
        ),
      ).toEqual([]);
    }
  });

  it('coordinates too far apart in magnitude for exact predicates are a named error, not NaN', async () => {
    const xy = [0, 0, 1e-300, 2e-300, 1e300, 0, 0, 1e300];
    for (const op of ['voronoiPolygons', 'delaunayTriangles'] as const) {
      await expect(series(xy)[op]({ device: 'cpu' })).rejects.toSatisfy(
        (e) =>
          e instanceof GeoframeError &&
          e.code === 'COORDINATE_RANGE' &&
          /orders of magnitude/.test(e.message),
      );
    }
  });
});

describe('tiles never overlap', () => {
  it('6 sites spread ~100 at a 1e15 offset tile the box on 300 seeds', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = mulberry32(seed);
      const xy = Float64Array.from({ length: 12 }, () => 1e15 + rnd() * 100);
      await expectTiling(xy);
    }
  });

  it('uniform sites at offsets 1e6 … 1e15 tile the box', async () => {
    for (const offset of [1e6, 1e9, 1e12, 1e15]) {
      const rnd = mulberry32(offset % 97);
      await expectTiling(Float64Array.from({ length: 400 }, () => offset + rnd() * 1000));
    }
  });
});

describe('the output check', () => {
  const what = (r: number) => `the cell of site ${r} (row ${r + 10})`;
  it('passes closed finite rings of 4 or more points', () => {
    expect(() =>
      checkRings(Float64Array.of(0, 0, 1, 0, 0, 1, 0, 0), Int32Array.of(0, 4), what),
    ).not.toThrow();
  });
  it.each([
    [
      'a NaN coordinate',
      Float64Array.of(0, 0, 1, 0, 0, Number.NaN, 0, 0),
      4,
      /site 0 \(row 10\).*non-finite/,
    ],
    [
      'an infinite coordinate',
      Float64Array.of(0, 0, Number.POSITIVE_INFINITY, 0, 0, 1, 0, 0),
      4,
      /non-finite/,
    ],
    ['a ring of 3 points', Float64Array.of(0, 0, 1, 0, 0, 0), 3, /ring of 3 points/],
    ['an open ring', Float64Array.of(0, 0, 1, 0, 0, 1, 0, 2), 4, /not closed/],
  ])('names the site and row of %s', (_, coords, k, message) => {
    expect(() => checkRings(coords, Int32Array.of(0, k), what)).toThrow(InvalidOutputError);
    expect(() => checkRings(coords, Int32Array.of(0, k), what)).toThrow(message);
  });
  it('allows empty rings only when asked, and checks line parts', () => {
    expect(() => checkRings(new Float64Array(0), Int32Array.of(0, 0), what)).toThrow(/0 points/);
    expect(() => checkRings(new Float64Array(0), Int32Array.of(0, 0), what, true)).not.toThrow();
    expect(() => checkLines(Float64Array.of(0, 0, Number.NaN, 1), Int32Array.of(0, 2), 'edges')).toThrow(
      /edges: part 0 has a non-finite/,
    );
    expect(() => checkLines(Float64Array.of(0, 0), Int32Array.of(0, 1), 'edges')).toThrow(/1 points/);
  });
});
