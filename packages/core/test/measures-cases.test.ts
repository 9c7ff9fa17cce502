import {
  area,
  bounds,
  centroid,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  lengthOf,
  totalBounds,
} from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import { build, type Desc, jsts, type Row, randomRows, rng, TYPES } from './measures-helpers.js';

const { Point, LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon } = GeometryType;

const centroidXY = (c: GeometryArray, i: number) => [c.x(i), c.y(i)];

describe('hand-computed values (also checked against jsts)', () => {
  const square = [0, 0, 4, 0, 4, 4, 0, 4, 0, 0];
  const squareCW = [0, 0, 0, 4, 4, 4, 4, 0, 0, 0];
  const hole = [1, 1, 1, 2, 2, 2, 2, 1, 1, 1];
  const holeCCW = [1, 1, 2, 1, 2, 2, 1, 2, 1, 1];
  // [description, area, length, centroid]
  const cases: [Desc, number, number, [number, number]][] = [
    [{ type: Polygon, parts: [[square, hole]] }, 15, 20, [30.5 / 15, 30.5 / 15]],
    // orientation does not matter: absolute ring areas, holes subtract
    [{ type: Polygon, parts: [[squareCW, holeCCW]] }, 15, 20, [30.5 / 15, 30.5 / 15]],
    [{ type: Polygon, parts: [[square, holeCCW]] }, 15, 20, [30.5 / 15, 30.5 / 15]],
    // zero-area polygon: the length-weighted centroid of its boundary
    [{ type: Polygon, parts: [[[0, 0, 2, 2, 4, 4, 0, 0]]] }, 0, 4 * Math.SQRT2 + Math.sqrt(32), [2, 2]],
    [{ type: Polygon, parts: [[[0, 0, 3, 0, 3, 0, 0, 0]]] }, 0, 6, [1.5, 0]],
    // zero area and zero length: the ring's first point
    [{ type: Polygon, parts: [[[1, 1, 1, 1, 1, 1, 1, 1]]] }, 0, 0, [1, 1]],
    // a zero-area part adds nothing to a multipolygon's area centroid
    [
      {
        type: MultiPolygon,
        parts: [[[0, 0, 1, 1, 2, 2, 0, 0]], [[10, 10, 12, 10, 12, 12, 10, 12, 10, 10]]],
      },
      4,
      4 * Math.SQRT2 + 8,
      [11, 11],
    ],
    [{ type: LineString, parts: [[[0, 0, 0, 0, 1, 0, 1, 0]]] }, 0, 1, [0.5, 0]],
    [{ type: LineString, parts: [[[0, 0, 3, 4, 3, 0]]] }, 0, 9, [(5 * 1.5 + 4 * 3) / 9, (5 * 2 + 4 * 2) / 9]],
    // zero-length line: its first point
    [{ type: LineString, parts: [[[3, 3, 3, 3]]] }, 0, 0, [3, 3]],
    [{ type: MultiLineString, parts: [[[0, 0, 0, 0]], [[2, 4, 2, 4]]] }, 0, 0, [1, 2]],
    // a zero-length part is ignored when another has length
    [{ type: MultiLineString, parts: [[[0, 0, 0, 0]], [[2, 0, 4, 0]]] }, 0, 2, [3, 0]],
    [{ type: MultiPoint, parts: [[[0, 0]], [[0, 0]], [[3, 3]]] }, 0, 0, [1, 1]],
    [{ type: Point, parts: [[[-3.5, 4.25]]] }, 0, 0, [-3.5, 4.25]],
  ];
  for (const [desc, a, l, c] of cases) {
    test(`${GeometryType[desc.type]} ${JSON.stringify(desc.parts)}`, () => {
      const column = build([desc], 'mixed');
      expect(area(column)[0]).toBeCloseTo(a, 13);
      expect(lengthOf(column)[0]).toBeCloseTo(l, 13);
      const got = centroidXY(centroid(column), 0);
      expect(got[0]).toBeCloseTo(c[0], 13);
      expect(got[1]).toBeCloseTo(c[1], 13);
      const g = jsts(desc);
      expect(area(column)[0]).toBe(g.getArea());
      expect(lengthOf(column)[0]).toBe(g.getLength());
      expect(got[0]).toBeCloseTo(g.getCentroid().getX(), 13);
      expect(got[1]).toBeCloseTo(g.getCentroid().getY(), 13);
    });
  }
});

describe('nulls, empties and zero rows', () => {
  for (const type of TYPES) {
    test(`${GeometryType[type]} column: null → NaN/null, empty → 0 / NaN bounds / POINT EMPTY`, () => {
      const b = new GeometryBuilder(type);
      b.appendNull();
      b.appendEmpty(type);
      const column = b.finish('EPSG:3857');
      expect([...area(column)]).toEqual([NaN, 0]);
      expect([...lengthOf(column)]).toEqual([NaN, 0]);
      expect([...bounds(column)].every(Number.isNaN)).toBe(true);
      expect(totalBounds(column)).toEqual([NaN, NaN, NaN, NaN]);
      const c = centroid(column);
      expect([c.isNull(0), c.isNull(1), c.isEmpty(1)]).toEqual([true, false, true]);
      expect(centroidXY(c, 1)).toEqual([NaN, NaN]);
      expect(c.crs).toBe('EPSG:3857');
    });
  }

  test('mixed column of empties of every type', () => {
    const column = build(
      TYPES.map((type) => ({ type, parts: [] })),
      'mixed',
    );
    expect([...area(column)]).toEqual([0, 0, 0, 0, 0, 0]);
    expect([...lengthOf(column)]).toEqual([0, 0, 0, 0, 0, 0]);
    expect([...bounds(column)].every(Number.isNaN)).toBe(true);
    const c = centroid(column);
    for (let i = 0; i < 6; i++) expect(c.isEmpty(i)).toBe(true);
  });

  test('zero rows', () => {
    for (const type of [...TYPES, 'mixed' as const]) {
      const column = new GeometryBuilder(type).finish();
      expect(area(column).length).toBe(0);
      expect(lengthOf(column).length).toBe(0);
      expect(bounds(column).length).toBe(0);
      expect(centroid(column).length).toBe(0);
      expect(totalBounds(column)).toEqual([NaN, NaN, NaN, NaN]);
    }
  });

  test('empty parts inside multi geometries are skipped', () => {
    const b = new GeometryBuilder(MultiLineString);
    b.beginGeometry(MultiLineString);
    b.beginPart();
    b.beginRing();
    b.beginPart();
    b.beginRing();
    b.pushXY(2, 0);
    b.pushXY(4, 0);
    b.endGeometry();
    const column = b.finish();
    expect(lengthOf(column)[0]).toBe(2);
    expect([...bounds(column)]).toEqual([2, 0, 4, 0]);
    expect(centroidXY(centroid(column), 0)).toEqual([3, 0]);
  });
});

describe('totalBounds', () => {
  test('is the NaN-skipping min/max of the row bounds, and the jsts envelope of all rows', () => {
    for (const type of [...TYPES, 'mixed' as const]) {
      const rows = randomRows(rng(7), type, 50, 500, -20);
      const column = build(rows, type);
      const b = bounds(column);
      const expected = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = 0; i < column.length; i++) {
        if (Number.isNaN(b[4 * i])) continue;
        expected[0] = Math.min(expected[0], b[4 * i]);
        expected[1] = Math.min(expected[1], b[4 * i + 1]);
        expected[2] = Math.max(expected[2], b[4 * i + 2]);
        expected[3] = Math.max(expected[3], b[4 * i + 3]);
      }
      expect(totalBounds(column)).toEqual(expected);
      const env = jsts(rows.find((r) => r !== null && r.parts.length > 0)!).getEnvelopeInternal();
      for (const row of rows) if (row !== null) env.expandToInclude(jsts(row).getEnvelopeInternal());
      expect(totalBounds(column)).toEqual([env.getMinX(), env.getMinY(), env.getMaxX(), env.getMaxY()]);
    }
  });

  test('all-null column gives NaN', () => {
    const b = new GeometryBuilder('mixed');
    b.appendNull();
    b.appendNull();
    expect(totalBounds(b.finish())).toEqual([NaN, NaN, NaN, NaN]);
  });
});

describe('slices and taken rows measure like the original rows', () => {
  const rowsOf = (column: GeometryArray, indices: number[]) => ({
    area: indices.map((i) => area(column)[i]),
    length: indices.map((i) => lengthOf(column)[i]),
    bounds: indices.flatMap((i) => [...bounds(column).subarray(4 * i, 4 * i + 4)]),
    centroid: indices.flatMap((i) => (centroid(column).isNull(i) ? [null] : centroidXY(centroid(column), i))),
  });
  const all = (column: GeometryArray) => rowsOf(column, [...Array(column.length).keys()]);
  const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);

  for (const type of [...TYPES, 'mixed' as const]) {
    test(`${type === 'mixed' ? 'mixed' : GeometryType[type]} column`, () => {
      const column = build(randomRows(rng(31), type, 60), type);
      expect(column.nullCount()).toBeGreaterThan(0);
      const slice = column.slice(7, 53);
      expect(all(slice)).toEqual(rowsOf(column, range(7, 53)));
      expect(all(slice.slice(3, 20))).toEqual(rowsOf(column, range(10, 27)));
      const indices = [5, 0, 5, 59, 12, 12, 33, 1, 2, 3, 4, 40];
      expect(all(column.take(indices))).toEqual(rowsOf(column, indices));
      expect(all(slice.take([0, 45, 3]))).toEqual(rowsOf(column, [7, 52, 10]));
      const c = centroid(slice);
      for (let i = 0; i < slice.length; i++) expect(c.isNull(i)).toBe(slice.isNull(i));
    });
  }
});

describe('precision far from the origin', () => {
  // dyadic coordinates (multiples of 1/256): shifting by 1e7 is exact, and so are the differences
  // the algorithms take, so a translated geometry must measure the same
  const snap = (rows: Row[], dx: number, dy: number): Row[] =>
    rows.map((r) =>
      r === null
        ? null
        : {
            type: r.type,
            parts: r.parts.map((p) =>
              p.map((ring) => ring.map((v, k) => Math.round(v * 256) / 256 + (k % 2 === 0 ? dx : dy))),
            ),
          },
    );

  for (const type of [...TYPES, 'mixed' as const]) {
    test(`${type === 'mixed' ? 'mixed' : GeometryType[type]}: translation by (1e7, -5e6) keeps every digit`, () => {
      const rows = randomRows(rng(2024), type, 80);
      const near = build(snap(rows, 0, 0), type);
      const far = build(snap(rows, 1e7, -5e6), type);
      expect(area(far)).toEqual(area(near));
      expect(lengthOf(far)).toEqual(lengthOf(near));
      const cn = centroid(near);
      const cf = centroid(far);
      for (let i = 0; i < near.length; i++) {
        if (near.isNull(i) || near.isEmpty(i)) continue;
        // only the final rounding to a coordinate near 1e7 (half an ulp, ~1e-9) may differ
        expect(Math.abs(cf.x(i) - 1e7 - cn.x(i))).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(cf.y(i) + 5e6 - cn.y(i))).toBeLessThanOrEqual(1e-9);
      }
    });
  }

  test('a 1 m² square at (1e7, 1e7) has area exactly 1 and centroid at its middle', () => {
    const x = 1e7 + 0.25;
    const column = build(
      [{ type: Polygon, parts: [[[x, x, x + 1, x, x + 1, x + 1, x, x + 1, x, x]]] }],
      Polygon,
    );
    expect(area(column)[0]).toBe(1);
    expect(lengthOf(column)[0]).toBe(4);
    expect(centroidXY(centroid(column), 0)).toEqual([x + 0.5, x + 0.5]);
  });
});
