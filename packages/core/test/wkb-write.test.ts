import { GeometryBuilder, GeometryType, readWkb, readWkt, writeWkb } from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import { hex } from './wkb-helpers.js';

/** Hex of each row of writeWkb's output (null for null rows). */
function rowsHex(wkt: (string | null)[]): (string | null)[] {
  const out = writeWkb(readWkt(wkt));
  return Array.from({ length: out.length }, (_, i) => {
    const bit = i + out.validityOffset;
    if (out.validity && !(out.validity[bit >> 3] & (1 << (bit & 7)))) return null;
    return hex(out.values.subarray(out.offsets[i] as number, out.offsets[i + 1] as number));
  });
}

// Expected bytes assembled by hand: 01 (little endian), uint32 type, counts, doubles.
const ONE = '000000000000F03F';
const TWO = '0000000000000040';
const THREE = '0000000000000840';
const ZERO = '0000000000000000';
const NAN = '000000000000F87F';

describe('writeWkb bytes', () => {
  test('2D types', () => {
    expect(rowsHex(['POINT (1 2)'])).toEqual([`0101000000${ONE}${TWO}`]);
    expect(rowsHex(['LINESTRING (0 0, 1 1)'])).toEqual([`010200000002000000${ZERO}${ZERO}${ONE}${ONE}`]);
    expect(rowsHex(['POLYGON ((0 0, 1 0, 0 1, 0 0))'])).toEqual([
      `01030000000100000004000000${ZERO}${ZERO}${ONE}${ZERO}${ZERO}${ONE}${ZERO}${ZERO}`,
    ]);
    expect(rowsHex(['MULTIPOINT ((1 2), (0 0))'])).toEqual([
      `0104000000020000000101000000${ONE}${TWO}0101000000${ZERO}${ZERO}`,
    ]);
    expect(rowsHex(['MULTILINESTRING ((0 0, 1 1), EMPTY)'])).toEqual([
      `010500000002000000010200000002000000${ZERO}${ZERO}${ONE}${ONE}010200000000000000`,
    ]);
    expect(rowsHex(['MULTIPOLYGON (((1 1, 1 1, 1 1, 1 1)), EMPTY)'])).toEqual([
      `01060000000200000001030000000100000004000000${ONE.repeat(8)}010300000000000000`,
    ]);
  });

  test('Z, M and ZM use the ISO codes 1000, 2000, 3000', () => {
    expect(rowsHex(['POINT Z (1 2 3)'])).toEqual([`01E9030000${ONE}${TWO}${THREE}`]);
    expect(rowsHex(['POINT M (1 2 3)'])).toEqual([`01D1070000${ONE}${TWO}${THREE}`]);
    expect(rowsHex(['POINT ZM (1 2 3 0)'])).toEqual([`01B90B0000${ONE}${TWO}${THREE}${ZERO}`]);
    expect(rowsHex(['LINESTRING Z EMPTY'])).toEqual(['01EA03000000000000']);
  });

  test('empties: POINT EMPTY is NaN coordinates (as GEOS writes it), others have zero counts', () => {
    expect(rowsHex(['POINT EMPTY', 'POINT (1 2)'])).toEqual([
      `0101000000${NAN}${NAN}`,
      `0101000000${ONE}${TWO}`,
    ]);
    // a mixed column stores an empty point without parts; it is still written as NaN coordinates
    expect(rowsHex(['POINT EMPTY', 'LINESTRING EMPTY', 'POLYGON EMPTY'])).toEqual([
      `0101000000${NAN}${NAN}`,
      '010200000000000000',
      '010300000000000000',
    ]);
    expect(rowsHex(['MULTIPOINT EMPTY', 'MULTIPOINT (EMPTY, 1 2)'])).toEqual([
      '010400000000000000',
      `0104000000020000000101000000${NAN}${NAN}0101000000${ONE}${TWO}`,
    ]);
    expect(rowsHex(['POLYGON ((0 0, 0 0, 0 0, 0 0), EMPTY)'])).toEqual([
      `01030000000200000004000000${ZERO.repeat(8)}00000000`,
    ]);
  });

  test('null rows are empty values marked null; offsets are exact', () => {
    const out = writeWkb(readWkt([null, 'POINT (1 2)', null, 'LINESTRING (0 0, 1 1)']));
    expect(Array.from(out.offsets as Int32Array)).toEqual([0, 0, 21, 21, 62]);
    expect(out.values.length).toBe(62);
    expect(rowsHex([null, 'POINT (1 2)', null])).toEqual([null, `0101000000${ONE}${TWO}`, null]);
  });

  test('0 rows', () => {
    const out = writeWkb(readWkt([]));
    expect(out.length).toBe(0);
    expect(Array.from(out.offsets as Int32Array)).toEqual([0]);
    expect(out.values.length).toBe(0);
  });

  test('a slice keeps its validity offset and decodes back to the same rows', () => {
    const array = readWkt(['POINT (1 2)', null, 'POINT (3 4)', null, 'POINT EMPTY', 'POINT (5 6)']);
    const slice = array.slice(1, 5);
    const back = readWkb(writeWkb(slice));
    expect(back.length).toBe(4);
    expect([0, 1, 2, 3].map((i) => back.isNull(i))).toEqual([true, false, true, false]);
    expect(Array.from(back.coords.subarray(2, 4))).toEqual([3, 4]);
    expect(back.isEmpty(3)).toBe(true);
  });

  test('exact doubles, including -0, subnormals and extremes', () => {
    const values = [-0, 5e-324, 2.2250738585072014e-308, 1e300, -1.7976931348623157e308, 0.1 + 0.2];
    const b = new GeometryBuilder(GeometryType.LineString, 'xyzm');
    b.beginGeometry(GeometryType.LineString);
    b.beginPart();
    b.beginRing();
    b.pushCoord(values[0], values[1], values[2], values[3]);
    b.pushCoord(values[4], values[5], Number.NaN, 0);
    b.endGeometry();
    const out = writeWkb(b.finish());
    const view = new DataView(out.values.buffer, out.values.byteOffset + 9);
    const read = Array.from({ length: 8 }, (_, k) => view.getFloat64(k * 8, true));
    expect(read).toEqual([...values, Number.NaN, 0]);
    expect(Object.is(read[0], -0)).toBe(true);
  });
});
