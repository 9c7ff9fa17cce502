// Preparing clip regions (union, flat arrays, point-in-region) and the box ring clipper.
import { GeometryBuilder, GeometryType, InvalidGeometryError } from '@geoframe/core';
import { type ClipRegion, prepareClipRegion } from '@geoframe/cpu';
import { SeededRandom } from '@geoframe/testing';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import { describe, expect, test } from 'vitest';
import { BoxRingClipper } from '../src/clip/box-clip-ring.js';
import { regionContains } from '../src/clip/clip-region.js';
import {
  circle,
  jstsBox,
  jstsPolygon,
  jstsUnion,
  multiPolygonColumn,
  type Poly,
  square,
  star,
} from './clip-helpers.js';

const factory = new GeometryFactory();

function ringArea(region: ClipRegion, r: number): number {
  const c = region.coords;
  const lo = region.ringOffsets[r];
  let s = 0;
  for (let k = lo; k + 1 < region.ringOffsets[r + 1]; k++) {
    s +=
      (c[2 * k] - c[2 * lo]) * (c[2 * k + 3] - c[2 * lo + 1]) -
      (c[2 * k + 2] - c[2 * lo]) * (c[2 * k + 1] - c[2 * lo + 1]);
  }
  return s / 2;
}

function regionArea(region: ClipRegion): number {
  let s = 0;
  for (let r = 0; r + 1 < region.ringOffsets.length; r++) s += ringArea(region, r);
  return s;
}

describe('prepareClipRegion', () => {
  test('unions overlapping rows and normalizes orientation and closure', () => {
    // a clockwise square (wrong way round), open, overlapping a second one
    const cw: [number, number][] = [
      [0, 0],
      [0, 10],
      [10, 10],
      [10, 0],
    ];
    const region = prepareClipRegion(multiPolygonColumn([[[cw]], null, [[square(5, 5, 10)]]]));
    expect(region.polygonOffsets.length).toBe(2);
    expect(region.ringOffsets.length).toBe(2);
    expect(ringArea(region, 0)).toBe(175);
    const lo = region.ringOffsets[0];
    const hi = region.ringOffsets[1];
    expect([region.coords[2 * lo], region.coords[2 * lo + 1]]).toEqual([
      region.coords[2 * hi - 2],
      region.coords[2 * hi - 1],
    ]);
    expect([region.minX, region.minY, region.maxX, region.maxY]).toEqual([0, 0, 15, 15]);
  });

  test('holes come out clockwise, islands in holes as polygons of their own', () => {
    const rows: Poly[][] = [[[square(0, 0, 100), square(20, 20, 60)]], [[square(40, 40, 20)]]];
    const region = prepareClipRegion(multiPolygonColumn(rows));
    expect(region.polygonOffsets.length - 1).toBe(2);
    for (let p = 0; p + 1 < region.polygonOffsets.length; p++) {
      for (let r = region.polygonOffsets[p]; r < region.polygonOffsets[p + 1]; r++) {
        expect(region.ringPolygon[r]).toBe(p);
        expect(Math.sign(ringArea(region, r))).toBe(r === region.polygonOffsets[p] ? 1 : -1);
      }
    }
    expect(regionArea(region)).toBe(10000 - 3600 + 400);
  });

  test('the area equals the jsts union area for random overlapping rows', () => {
    const rng = new SeededRandom(9);
    const rows: Poly[][] = [];
    for (let i = 0; i < 20; i++) {
      const cx = rng.next() * 100;
      const cy = rng.next() * 100;
      rows.push([[i % 2 === 0 ? star(cx, cy, 20, 8, 5) : circle(cx, cy, 12, 24)]]);
    }
    const region = prepareClipRegion(multiPolygonColumn(rows));
    expect(regionArea(region)).toBeCloseTo(jstsUnion(rows).getArea(), 8);
    // every coordinate knows its ring, every ring its box
    for (let r = 0; r + 1 < region.ringOffsets.length; r++) {
      for (let k = region.ringOffsets[r]; k < region.ringOffsets[r + 1]; k++) {
        expect(region.coordRing[k]).toBe(r);
        const [x, y] = [region.coords[2 * k], region.coords[2 * k + 1]];
        expect(x >= region.ringBoxes[4 * r] && x <= region.ringBoxes[4 * r + 2]).toBe(true);
        expect(y >= region.ringBoxes[4 * r + 1] && y <= region.ringBoxes[4 * r + 3]).toBe(true);
      }
    }
  });

  test('0 rows, all-null rows, empty rows and degenerate rings give an empty region', () => {
    for (const rows of [[], [null, null], [[]], [[[[[0, 0] as [number, number], [1, 1]]]]]]) {
      const region = prepareClipRegion(multiPolygonColumn(rows as (Poly[] | null)[]));
      expect(region.polygonOffsets.length).toBe(1);
      expect(region.minX > region.maxX).toBe(true);
      expect(regionContains(region, 0, 0)).toBe(false);
    }
  });

  test('a slice reads only its rows', () => {
    const column = multiPolygonColumn([[[square(0, 0, 1)]], [[square(10, 10, 2)]], [[square(20, 20, 3)]]]);
    const region = prepareClipRegion(column.slice(1, 2));
    expect(regionArea(region)).toBe(4);
    expect([region.minX, region.maxX]).toEqual([10, 12]);
  });

  test('a Polygon column and a mixed column of polygons are accepted', () => {
    const b = new GeometryBuilder(GeometryType.Polygon);
    b.beginGeometry(GeometryType.Polygon);
    b.beginPart();
    b.beginRing();
    for (const [x, y] of [...square(0, 0, 3), [0, 0]]) b.pushXY(x, y);
    b.endGeometry();
    expect(regionArea(prepareClipRegion(b.finish()))).toBe(9);
    const m = new GeometryBuilder('mixed');
    m.beginGeometry(GeometryType.Polygon);
    m.beginPart();
    m.beginRing();
    for (const [x, y] of [...square(0, 0, 2), [0, 0]]) m.pushXY(x, y);
    m.endGeometry();
    m.appendNull();
    expect(regionArea(prepareClipRegion(m.finish()))).toBe(4);
  });

  test('errors: a non-polygonal column, a non-polygonal mixed row, a non-finite coordinate', () => {
    const points = new GeometryBuilder(GeometryType.Point);
    points.appendPoint(1, 2);
    expect(() => prepareClipRegion(points.finish())).toThrow(TypeError);
    const m = new GeometryBuilder('mixed');
    m.beginGeometry(GeometryType.Polygon);
    m.beginPart();
    m.beginRing();
    for (const [x, y] of [...square(0, 0, 2), [0, 0]]) m.pushXY(x, y);
    m.endGeometry();
    m.appendPoint(5, 5);
    const error = (() => {
      try {
        prepareClipRegion(m.finish());
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidGeometryError);
    expect((error as InvalidGeometryError).row).toBe(1);
    expect((error as Error).message).toMatch(/^row 1: /);
    const bad = multiPolygonColumn([
      [[square(0, 0, 1)]],
      [
        [
          [
            [0, 0],
            [Number.NaN, 1],
            [1, 1],
          ],
        ],
      ],
    ]);
    expect(() => prepareClipRegion(bad)).toThrow(/row 1: .*not finite/);
  });
});

describe('regionContains', () => {
  test('agrees with jsts on random points for a concave region with a hole and an island', () => {
    const rows: Poly[][] = [
      [[star(50, 50, 48, 15, 9), circle(50, 50, 10, 40, true)]],
      [[circle(50, 50, 4, 16)]],
      [[square(120, 0, 30)]],
    ];
    const region = prepareClipRegion(multiPolygonColumn(rows));
    const reference = jstsUnion(rows);
    const rng = new SeededRandom(2);
    let inside = 0;
    for (let i = 0; i < 3000; i++) {
      const x = -10 + 170 * rng.next();
      const y = -10 + 120 * rng.next();
      const want = reference.contains(factory.createPoint(new Coordinate(x, y)));
      expect(regionContains(region, x, y)).toBe(want);
      if (want) inside++;
    }
    expect(inside).toBeGreaterThan(300);
  });
});

describe('BoxRingClipper', () => {
  const shoelace = (ring: [number, number][]) => {
    let s = 0;
    for (let i = 0; i < ring.length; i++) {
      const [x1, y1] = ring[i];
      const [x2, y2] = ring[(i + 1) % ring.length];
      s += x1 * y2 - x2 * y1;
    }
    return s / 2;
  };
  const flat = (ring: [number, number][]) => new Float64Array([...ring, ring[0]].flat());

  test('the clipped ring has the area of ring ∩ box (jsts), for stars and circles crossing boxes', () => {
    const clipper = new BoxRingClipper();
    const rng = new SeededRandom(4);
    for (let t = 0; t < 200; t++) {
      const ring = t % 2 === 0 ? star(50, 50, 45, 10, 3 + (t % 7)) : circle(50, 50, 40, 5 + t);
      const x0 = 100 * rng.next() - 10;
      const y0 = 100 * rng.next() - 10;
      const [x1, y1] = [x0 + 60 * rng.next(), y0 + 60 * rng.next()];
      const coords = flat(ring);
      const out = clipper.clip(coords, 0, coords.length / 2, x0, y0, x1, y1);
      const want = jstsPolygon([ring])
        .intersection(jstsBox(x0, y0, x1, y1))
        .getArea();
      expect(out.length === 0 ? 0 : shoelace(out)).toBeCloseTo(want, 8);
      for (const [x, y] of out) expect(x >= x0 && x <= x1 && y >= y0 && y <= y1).toBe(true);
    }
  });

  test('a ring around the box becomes the box; a ring outside it becomes nothing', () => {
    const clipper = new BoxRingClipper();
    const around = flat(square(-10, -10, 30));
    expect(shoelace(clipper.clip(around, 0, 5, 0, 0, 1, 1))).toBe(1);
    expect(clipper.clip(around, 0, 5, 0, 0, 1, 1).length).toBe(4);
    expect(clipper.clip(flat(square(5, 5, 1)), 0, 5, 0, 0, 1, 1).length).toBeLessThan(3);
  });
});
