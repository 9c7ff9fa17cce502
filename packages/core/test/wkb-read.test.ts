import { type BinaryColumn, GeometryType, InvalidGeometryError, readWkb, writeWkt } from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import {
  Bytes,
  binaryColumn,
  encodeWkb,
  type Model,
  modelOf,
  randomDouble,
  rng,
  unhex,
  widen,
} from './wkb-helpers.js';

// Hand-assembled from the WKB layout: byte order, uint32 type, then doubles.
const POINT_1_2_LE = '0101000000000000000000F03F0000000000000040';
const POINT_1_2_BE = '00000000013FF00000000000004000000000000000';
// EWKB as PostGIS prints `SRID=4326;POINT(1 2)`: type 0x20000001, SRID 0x10E6.
const EWKB_POINT_SRID_LE = '0101000020E6100000000000000000F03F0000000000000040';
// ISO POINT Z (1 2 3): type 1001 = 0x03E9.
const POINT_Z_LE = '01E9030000000000000000F03F00000000000000400000000000000840';
// LINESTRING (0 0, 1 1), big endian.
const LINE_BE = '000000000200000002000000000000000000000000000000003FF00000000000003FF0000000000000';

function column(...hexes: (string | null)[]): BinaryColumn {
  return binaryColumn(hexes.map((h) => (h === null ? null : unhex(h))));
}

/** The error thrown by `f`, which must be an InvalidGeometryError. */
function errorOf(f: () => unknown): InvalidGeometryError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidGeometryError);
    return e as InvalidGeometryError;
  }
  throw new Error('expected an error');
}

describe('readWkb on hand-assembled bytes', () => {
  test('points in both byte orders, EWKB with SRID, ISO Z', () => {
    const a = readWkb(column(POINT_1_2_LE, POINT_1_2_BE, EWKB_POINT_SRID_LE));
    expect(a.type).toBe(GeometryType.Point);
    expect(a.dimension).toBe('xy');
    expect(Array.from(a.coords)).toEqual([1, 2, 1, 2, 1, 2]);
    const z = readWkb(column(POINT_Z_LE));
    expect(z.dimension).toBe('xyz');
    expect(Array.from(z.coords)).toEqual([1, 2, 3]);
  });

  test('a big-endian linestring', () => {
    const a = readWkb(column(LINE_BE));
    expect(a.type).toBe(GeometryType.LineString);
    expect(writeWkt(a)).toEqual(['LINESTRING (0 0, 1 1)']);
  });

  test('EWKB flags combine with ISO codes; an M-only EWKB point', () => {
    const m = new Bytes().header(true, 0x40000001).f64(1, true).f64(2, true).f64(7, true).finish();
    const zm = new Bytes()
      .header(false, 0xe0000001, 31370)
      .f64(1, false)
      .f64(2, false)
      .f64(3, false)
      .f64(4, false);
    const a = readWkb(binaryColumn([m, zm.finish()]));
    expect(a.dimension).toBe('xyzm');
    expect(Array.from(a.coords)).toEqual([1, 2, Number.NaN, 7, 1, 2, 3, 4]);
    expect(writeWkt(a)).toEqual(['POINT M (1 2 7)', 'POINT ZM (1 2 3 4)']);
  });

  test('a NaN point is POINT EMPTY, also beside MultiPoint rows', () => {
    const nanPoint = encodeWkb({ type: GeometryType.Point, coords: null }, 'xy');
    const points = readWkb(binaryColumn([nanPoint, unhex(POINT_1_2_LE)]));
    expect(points.type).toBe(GeometryType.Point);
    expect(points.isEmpty(0)).toBe(true);
    expect(writeWkt(points)).toEqual(['POINT EMPTY', 'POINT (1 2)']);
    const multi = encodeWkb({ type: GeometryType.MultiPoint, coords: [[3, 4]] }, 'xy');
    const beside = readWkb(binaryColumn([nanPoint, multi, unhex(POINT_1_2_LE)]));
    expect(beside.type).toBe('mixed');
    expect(beside.isEmpty(0)).toBe(true);
    expect(writeWkt(beside)).toEqual(['POINT EMPTY', 'MULTIPOINT ((3 4))', 'POINT (1 2)']);
  });
});

test('long coordinate runs decode the same in every byte order and dimension mix', () => {
  const random = rng(5);
  const line = (width: number, n: number) =>
    Array.from({ length: n }, () => Array.from({ length: width }, () => randomDouble(random)));
  const xyz: Model = { type: GeometryType.LineString, coords: line(3, 50) };
  const xy: Model = { type: GeometryType.LineString, coords: line(2, 9) };
  const ring = line(4, 33);
  const zm: Model = { type: GeometryType.MultiPolygon, coords: [[ring, line(4, 8)], [line(4, 7)]] };
  for (const littleEndian of [true, false]) {
    const same = readWkb(binaryColumn([encodeWkb(xyz, 'xyz', { littleEndian }), null]));
    expect(modelOf(same, 0)).toEqual(xyz);
    // an xy row in an xyzm column is read value by value and padded with NaN
    const wide = readWkb(
      binaryColumn([encodeWkb(xy, 'xy', { littleEndian }), encodeWkb(zm, 'xyzm', { littleEndian })]),
    );
    expect(wide.dimension).toBe('xyzm');
    expect(modelOf(wide, 0)).toEqual(widen(xy, 'xy', 'xyzm'));
    expect(modelOf(wide, 1)).toEqual(zm);
  }
});

describe('column type and dimension', () => {
  const P = (x: number, y: number) => encodeWkb({ type: GeometryType.Point, coords: [x, y] }, 'xy');
  const L = encodeWkb(
    {
      type: GeometryType.LineString,
      coords: [
        [0, 0],
        [1, 1],
      ],
    },
    'xy',
  );
  const ML = encodeWkb(
    {
      type: GeometryType.MultiLineString,
      coords: [
        [
          [2, 2],
          [3, 3],
        ],
        [],
      ],
    },
    'xy',
  );
  const A = encodeWkb(
    {
      type: GeometryType.Polygon,
      coords: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    },
    'xy',
  );
  const MA = encodeWkb(
    {
      type: GeometryType.MultiPolygon,
      coords: [
        [
          [
            [5, 5],
            [6, 5],
            [5, 6],
            [5, 5],
          ],
        ],
      ],
    },
    'xy',
  );

  test('T and Multi-T rows keep their own types (a mixed column, as GeoPandas keeps them)', () => {
    const lines = readWkb(binaryColumn([L, null, ML]));
    expect(lines.type).toBe('mixed');
    expect(writeWkt(lines)).toEqual(['LINESTRING (0 0, 1 1)', null, 'MULTILINESTRING ((2 2, 3 3), EMPTY)']);
    const polygons = readWkb(binaryColumn([MA, A]));
    expect(polygons.type).toBe('mixed');
    expect(modelOf(polygons, 1)).toEqual({
      type: GeometryType.Polygon,
      coords: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    });
  });

  test('other combinations are mixed, keeping each row type', () => {
    const a = readWkb(binaryColumn([P(1, 2), L, A, null, MA]));
    expect(a.type).toBe('mixed');
    expect([0, 1, 2, 3, 4].map((i) => a.typeOf(i))).toEqual([
      GeometryType.Point,
      GeometryType.LineString,
      GeometryType.Polygon,
      null,
      GeometryType.MultiPolygon,
    ]);
    expect(writeWkt(a)).toEqual([
      'POINT (1 2)',
      'LINESTRING (0 0, 1 1)',
      'POLYGON ((0 0, 1 0, 0 1, 0 0))',
      null,
      'MULTIPOLYGON (((5 5, 6 5, 5 6, 5 5)))',
    ]);
    // a Point and a MultiLineString are not a single/multi pair
    expect(readWkb(binaryColumn([P(0, 0), ML])).type).toBe('mixed');
  });

  test('the widest dimension wins; missing values are NaN (xyz with xym gives xyzm)', () => {
    const z = encodeWkb({ type: GeometryType.Point, coords: [1, 2, 3] }, 'xyz');
    const m = encodeWkb({ type: GeometryType.Point, coords: [4, 5, 6] }, 'xym');
    const a = readWkb(binaryColumn([P(7, 8), z, m]));
    expect(a.dimension).toBe('xyzm');
    expect(Array.from(a.coords)).toEqual([7, 8, NaN, NaN, 1, 2, 3, NaN, 4, 5, NaN, 6]);
    expect(writeWkt(a)).toEqual(['POINT (7 8)', 'POINT Z (1 2 3)', 'POINT M (4 5 6)']);
  });

  test('nested members wider than their parent widen the column', () => {
    const bytes = new Bytes()
      .header(true, 4)
      .u32(1, true)
      .header(true, 1001)
      .f64(1, true)
      .f64(2, true)
      .f64(3, true);
    const a = readWkb(binaryColumn([bytes.finish()]));
    expect(a.dimension).toBe('xyz');
    expect(Array.from(a.coords)).toEqual([1, 2, 3]);
  });

  test('no rows, or only nulls: a Point column', () => {
    const empty = readWkb(binaryColumn([]));
    expect(empty.length).toBe(0);
    expect(empty.type).toBe(GeometryType.Point);
    const nulls = readWkb(binaryColumn([null, null]));
    expect(nulls.length).toBe(2);
    expect(nulls.nullCount()).toBe(2);
  });
});

describe('validity and offsets', () => {
  test('the validity bit offset and a non-zero first offset are respected', () => {
    const p = unhex(POINT_1_2_LE);
    const col = binaryColumn([p, null, p, null], 5, 6);
    const a = readWkb(col);
    expect([0, 1, 2, 3].map((i) => a.isNull(i))).toEqual([false, true, false, true]);
  });

  test('64-bit (LargeBinary) offsets', () => {
    const col = column(POINT_1_2_LE, POINT_1_2_BE);
    const large: BinaryColumn = {
      ...col,
      offsets: BigInt64Array.from(col.offsets as Int32Array, (v) => BigInt(v)),
    };
    expect(writeWkt(readWkb(large))).toEqual(['POINT (1 2)', 'POINT (1 2)']);
  });

  test('a null row may hold bytes (ignored)', () => {
    const col = column(POINT_1_2_LE, POINT_1_2_LE);
    col.validity = Uint8Array.of(0b01);
    col.validityOffset = 0;
    expect(writeWkt(readWkb(col))).toEqual(['POINT (1 2)', null]);
  });
});

describe('errors name the row', () => {
  const good = POINT_1_2_LE;

  test('truncated values report how many bytes were there and were needed', () => {
    const e = errorOf(() => readWkb(column(good, null, good, good.slice(0, 34))));
    expect(e.row).toBe(3);
    expect(e.message).toBe('row 3: WKB ends after 17 of 21 bytes');
    expect(errorOf(() => readWkb(column('010100'))).message).toBe('row 0: WKB ends after 3 of 5 bytes');
    // linestring of 2 points cut inside its coordinates
    expect(errorOf(() => readWkb(column(good, LINE_BE.slice(0, 60)))).message).toBe(
      'row 1: WKB ends after 30 of 41 bytes',
    );
    // a multipolygon cut inside a member's ring count
    const mp = encodeWkb(
      {
        type: GeometryType.MultiPolygon,
        coords: [
          [
            [
              [0, 0],
              [1, 0],
              [0, 0],
            ],
          ],
        ],
      },
      'xy',
    );
    expect(errorOf(() => readWkb(binaryColumn([mp.subarray(0, 20)]))).message).toBe(
      'row 0: WKB ends after 20 of 22 bytes',
    );
    // an SRID flag without the SRID
    expect(errorOf(() => readWkb(column('0101000020E610'))).message).toBe(
      'row 0: WKB ends after 7 of 9 bytes',
    );
  });

  test('a huge count does not allocate: it is a truncation', () => {
    const bytes = new Bytes().header(true, 2).u32(0xffffffff, true).finish();
    expect(errorOf(() => readWkb(binaryColumn([bytes]))).message).toBe(
      `row 0: WKB ends after 9 of ${9 + 0xffffffff * 16} bytes`,
    );
  });

  test('trailing bytes', () => {
    expect(errorOf(() => readWkb(column(good, `${good}00`))).message).toBe(
      'row 1: WKB has 1 trailing byte after a geometry of 21 bytes',
    );
  });

  test('GeometryCollection in ISO and EWKB form', () => {
    for (const code of [7, 1007, 3007, 0x80000007]) {
      const bytes = new Bytes().header(true, code).u32(0, true).finish();
      const e = errorOf(() => readWkb(binaryColumn([unhex(good), bytes])));
      expect(e.row).toBe(1);
      expect(e.message).toMatch(/^row 1: GeometryCollection \(WKB type \d+ at byte 0\) is not supported$/);
    }
  });

  test('unknown type codes', () => {
    for (const code of [0, 8, 17, 4001, 1999]) {
      const bytes = new Bytes().header(false, code).finish();
      expect(errorOf(() => readWkb(binaryColumn([bytes]))).message).toBe(
        `row 0: unknown WKB geometry type ${code} at byte 0`,
      );
    }
  });

  test('bad byte order', () => {
    expect(errorOf(() => readWkb(column(good, `02${good.slice(2)}`))).message).toBe(
      'row 1: unknown WKB byte order 2 at byte 0',
    );
  });

  test('a Multi geometry holding the wrong member type', () => {
    const bytes = new Bytes().header(true, 4).u32(1, true).header(true, 2).u32(0, true).finish();
    expect(errorOf(() => readWkb(binaryColumn([null, bytes]))).message).toBe(
      'row 1: a MultiPoint holds a LineString at byte 9',
    );
  });

  test('a zero-length value in a non-null row', () => {
    const e = errorOf(() => readWkb(binaryColumn([unhex(good), new Uint8Array(0)])));
    expect(e.message).toBe('row 1: empty WKB value (0 bytes) in a non-null row');
  });

  test('offsets outside the values are a RangeError', () => {
    const col = column(good);
    col.offsets = Int32Array.of(0, 99);
    expect(() => readWkb(col)).toThrow(RangeError);
  });
});
