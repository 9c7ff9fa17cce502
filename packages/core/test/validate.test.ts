import {
  GeometryArray,
  GeometryBuilder,
  GeometryType,
  InvalidGeometryError,
  validateGeometryArray,
} from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import { ALL_DIMENSIONS, ALL_TYPES, randomArray } from './arrow-test-support.js';

type Ring = [number, number][];

/** The error validateGeometryArray throws (fails the test when it throws none). */
function problemOf(array: GeometryArray, rowOffset?: number): InvalidGeometryError {
  try {
    validateGeometryArray(array, { rowOffset });
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidGeometryError);
    return e as InvalidGeometryError;
  }
  throw new Error('expected an InvalidGeometryError');
}

const square = (x: number, y: number, size = 1): Ring => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];

function multiPolygons(rows: (Ring[][] | null)[]): GeometryArray {
  const b = new GeometryBuilder(GeometryType.MultiPolygon);
  for (const row of rows) {
    if (row === null) {
      b.appendNull();
      continue;
    }
    b.beginGeometry(GeometryType.MultiPolygon);
    for (const polygon of row) {
      b.beginPart();
      for (const ring of polygon) {
        b.beginRing();
        for (const [x, y] of ring) b.pushXY(x, y);
      }
    }
    b.endGeometry();
  }
  return b.finish();
}

function lineStrings(rows: ([number, number][] | null)[], type = GeometryType.LineString): GeometryArray {
  const b = new GeometryBuilder(type);
  for (const row of rows) {
    if (row === null) {
      b.appendNull();
      continue;
    }
    b.beginGeometry(type);
    b.beginPart();
    b.beginRing();
    for (const [x, y] of row) b.pushXY(x, y);
    b.endGeometry();
  }
  return b.finish();
}

describe('valid arrays pass', () => {
  test.each(ALL_TYPES.flatMap((t) => ALL_DIMENSIONS.map((d) => [t, d] as const)))(
    'type %i %s',
    (type, dimension) => {
      const a = randomArray(type, dimension, 80, 31 * type + dimension.length);
      expect(() => validateGeometryArray(a)).not.toThrow();
      expect(() => validateGeometryArray(a.slice(13, 57))).not.toThrow();
      expect(() => validateGeometryArray(a.slice(5, 5))).not.toThrow();
    },
  );

  test('empty points (all NaN) and NaN z/m are fine', () => {
    const b = new GeometryBuilder(GeometryType.Point, 'xyzm');
    b.appendPoint(1, 2, Number.NaN, Number.NaN);
    b.appendEmpty(GeometryType.Point);
    b.appendNull();
    expect(() => validateGeometryArray(b.finish())).not.toThrow();
  });

  test('null rows are not inspected', () => {
    expect(() =>
      validateGeometryArray(
        lineStrings([
          [
            [0, 0],
            [1, 1],
          ],
          null,
        ]),
      ),
    ).not.toThrow();
    // a null row pointing at a single NaN coordinate
    const a = new GeometryArray({
      type: GeometryType.LineString,
      dimension: 'xy',
      coords: new Float64Array([0, 0, 1, 1, Number.NaN, 3]),
      offsets: [new Int32Array([0, 2, 3])],
      length: 2,
      validity: new Uint8Array([0b01]),
    });
    expect(() => validateGeometryArray(a)).not.toThrow();
  });
});

describe('rings', () => {
  test('an unclosed ring names row, ring and polygon', () => {
    const rows: (Ring[][] | null)[] = Array.from({ length: 7 }, (_, i) => [[square(i, 0)]]);
    const open: Ring = [
      [0, 0],
      [1, 1],
      [2, 0],
      [1, 0],
    ];
    rows.push([[square(0, 0)], [square(0, 0, 10), square(1, 1), open]]);
    const e = problemOf(multiPolygons(rows));
    expect(e.row).toBe(7);
    expect(e.message).toBe('row 7: ring 2 of polygon 1 is not closed (first (0, 0), last (1, 0))');
  });

  test('a ring with fewer than 4 coordinates', () => {
    const e = problemOf(
      multiPolygons([
        [[square(0, 0)]],
        null,
        [
          [
            [
              [0, 0],
              [1, 0],
              [0, 0],
            ],
          ],
        ],
      ]),
    );
    expect(e.message).toBe('row 2: ring 0 of polygon 0 has 3 coordinates; a ring needs at least 4');
  });

  test('polygon rings are named without a polygon index', () => {
    const b = new GeometryBuilder(GeometryType.Polygon);
    b.beginGeometry(GeometryType.Polygon);
    b.beginPart();
    for (const ring of [square(0, 0, 4), [...square(1, 1).slice(0, 4), [1, 1.5]]]) {
      b.beginRing();
      for (const [x, y] of ring) b.pushXY(x, y);
    }
    b.endGeometry();
    expect(problemOf(b.finish()).message).toBe('row 0: ring 1 is not closed (first (1, 1), last (1, 1.5))');
  });

  test('closure compares y as well as x', () => {
    const ring: Ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0.5],
    ];
    expect(problemOf(multiPolygons([[[ring]]])).message).toMatch(/is not closed/);
  });
});

describe('linestrings', () => {
  test('one coordinate is refused, zero is empty', () => {
    expect(() =>
      validateGeometryArray(
        lineStrings([
          [],
          [
            [0, 0],
            [1, 1],
          ],
        ]),
      ),
    ).not.toThrow();
    expect(
      problemOf(
        lineStrings([
          [
            [0, 0],
            [1, 1],
          ],
          [],
          [[5, 5]],
        ]),
      ).message,
    ).toBe('row 2: the linestring has 1 coordinate; a linestring needs 0 or at least 2');
  });

  test('in a multilinestring the line is named', () => {
    const b = new GeometryBuilder(GeometryType.MultiLineString);
    b.beginGeometry(GeometryType.MultiLineString);
    b.beginPart();
    b.beginRing();
    b.pushXY(0, 0);
    b.pushXY(1, 0);
    b.beginPart();
    b.beginRing();
    b.pushXY(3, 3);
    b.endGeometry();
    expect(problemOf(b.finish()).message).toBe(
      'row 0: linestring 1 has 1 coordinate; a linestring needs 0 or at least 2',
    );
  });
});

describe('coordinate values', () => {
  test('NaN and infinities in x or y', () => {
    expect(
      problemOf(
        lineStrings([
          [
            [0, 0],
            [1, 1],
          ],
          [
            [0, 0],
            [Number.NaN, 1],
          ],
        ]),
      ).message,
    ).toBe('row 1: coordinate 1 of the linestring is not finite (NaN, 1)');
    const rings = multiPolygons([[[square(0, 0)]], [[square(0, 0), square(0, Number.POSITIVE_INFINITY)]]]);
    expect(problemOf(rings).message).toBe(
      'row 1: coordinate 0 of ring 1 of polygon 0 is not finite (0, Infinity)',
    );
  });

  test('a point with one NaN is not an empty point', () => {
    const b = new GeometryBuilder(GeometryType.Point);
    b.appendEmpty(GeometryType.Point);
    b.appendPoint(Number.NaN, 3);
    expect(problemOf(b.finish()).message).toBe('row 1: the point is not finite (NaN, 3)');
  });

  test('multipoint members must be finite', () => {
    const b = new GeometryBuilder(GeometryType.MultiPoint);
    b.beginGeometry(GeometryType.MultiPoint);
    b.beginPart();
    b.pushXY(1, 2);
    b.beginPart();
    b.pushXY(Number.NEGATIVE_INFINITY, 2);
    b.endGeometry();
    expect(problemOf(b.finish()).message).toBe('row 0: point 1 is not finite (-Infinity, 2)');
  });
});

describe('offsets', () => {
  const coords = new Float64Array([0, 0, 1, 1, 2, 2, 3, 3]);
  const lines = (offsets: number[]) =>
    new GeometryArray({
      type: GeometryType.LineString,
      dimension: 'xy',
      coords,
      offsets: [new Int32Array(offsets)],
      length: offsets.length - 1,
    });

  test('decreasing row offsets', () => {
    expect(problemOf(lines([0, 2, 1, 4])).message).toBe('row 1: coordinate offsets decrease (2 then 1)');
  });

  test('offsets past the coordinates', () => {
    expect(problemOf(lines([0, 2, 9])).message).toBe(
      'row 1: coordinate offset 9 is past the end (4 coordinates)',
    );
  });

  test('negative offsets', () => {
    expect(problemOf(lines([-2, 2])).message).toBe('row 0: coordinate offset -2 is negative');
  });

  test('inner levels: ring offsets that decrease or overrun', () => {
    const polygon = (ringOffsets: number[]) =>
      new GeometryArray({
        type: GeometryType.Polygon,
        dimension: 'xy',
        coords: new Float64Array(20),
        offsets: [new Int32Array([0, 1, 2]), new Int32Array(ringOffsets)],
        length: 2,
      });
    expect(() => validateGeometryArray(polygon([0, 4, 8]))).not.toThrow();
    expect(problemOf(polygon([0, 4, 2])).message).toBe('row 1: coordinate offsets decrease (4 then 2)');
    expect(problemOf(polygon([0, 4, 11])).message).toBe(
      'row 1: coordinate offset 11 is past the end (10 coordinates)',
    );
    const tooFewRings = new GeometryArray({
      type: GeometryType.Polygon,
      dimension: 'xy',
      coords: new Float64Array(20),
      offsets: [new Int32Array([0, 1, 3]), new Int32Array([0, 4, 8])],
      length: 2,
    });
    expect(problemOf(tooFewRings).message).toBe('row 1: ring offset 3 is past the end (2 rings)');
  });

  test('null rows still need ordered offsets', () => {
    const a = new GeometryArray({
      type: GeometryType.LineString,
      dimension: 'xy',
      coords,
      offsets: [new Int32Array([0, 2, 1])],
      length: 2,
      validity: new Uint8Array([0b01]),
    });
    expect(problemOf(a).row).toBe(1);
  });

  test('a point buffer too short for its rows', () => {
    const a = new GeometryArray({
      type: GeometryType.Point,
      dimension: 'xy',
      coords: new Float64Array(4),
      offsets: [],
      length: 3,
    });
    expect(problemOf(a).message).toMatch(/holds 2 points for 3 rows/);
  });
});

describe('mixed columns', () => {
  function mixed(): GeometryBuilder {
    const b = new GeometryBuilder('mixed');
    b.appendPoint(0, 0);
    b.beginGeometry(GeometryType.Polygon);
    b.beginPart();
    b.beginRing();
    for (const [x, y] of square(0, 0)) b.pushXY(x, y);
    b.endGeometry();
    b.appendEmpty(GeometryType.LineString);
    b.appendNull();
    b.beginGeometry(GeometryType.MultiPoint);
    b.beginPart();
    b.pushXY(1, 1);
    b.beginPart();
    b.pushXY(2, 2);
    b.endGeometry();
    return b;
  }

  test('a well-formed mixed column passes', () => {
    expect(() => validateGeometryArray(mixed().finish())).not.toThrow();
  });

  test('unknown type ids', () => {
    const a = mixed().finish();
    const typeIds = a.typeIds!.slice();
    typeIds[2] = 9;
    const e = problemOf(new GeometryArray({ ...a.parts(), typeIds }));
    expect(e.message).toBe('row 2: type id 9 is not a geometry type (1 to 6)');
    // a null row's type id is not looked at
    typeIds[2] = GeometryType.LineString;
    typeIds[3] = 0;
    expect(() => validateGeometryArray(new GeometryArray({ ...a.parts(), typeIds }))).not.toThrow();
  });

  test('a row whose parts do not fit its type', () => {
    const a = mixed().finish();
    const typeIds = a.typeIds!.slice();
    typeIds[4] = GeometryType.Point; // two parts
    expect(problemOf(new GeometryArray({ ...a.parts(), typeIds })).message).toBe(
      'row 4: a Point has 2 parts; it can have at most 1',
    );
    typeIds[4] = GeometryType.MultiLineString; // each part a one-coordinate line
    expect(problemOf(new GeometryArray({ ...a.parts(), typeIds })).message).toBe(
      'row 4: linestring 0 has 1 coordinate; a linestring needs 0 or at least 2',
    );
  });

  test('an unclosed polygon in a mixed column', () => {
    const b = mixed();
    b.beginGeometry(GeometryType.MultiPolygon);
    b.beginPart();
    b.beginRing();
    for (const [x, y] of square(0, 0)
      .slice(0, 4)
      .concat([[0, 0.5]]))
      b.pushXY(x, y);
    b.endGeometry();
    expect(problemOf(b.finish()).message).toBe(
      'row 5: ring 0 of polygon 0 is not closed (first (0, 0), last (0, 0.5))',
    );
  });
});

test('rowOffset shifts the reported row', () => {
  const a = lineStrings([
    [
      [0, 0],
      [1, 1],
    ],
    [[0, 0]],
  ]);
  const e = problemOf(a, 100);
  expect(e.row).toBe(101);
  expect(e.message).toMatch(/^row 101: /);
  // rows of a slice are counted from the slice start
  expect(problemOf(a.slice(1)).row).toBe(0);
});
