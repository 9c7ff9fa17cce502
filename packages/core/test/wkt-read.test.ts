import { GeometryType, InvalidGeometryError, readWkt, writeWkt } from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import { binaryColumn, modelOf, rng } from './wkb-helpers.js';

function errorOf(f: () => unknown): InvalidGeometryError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidGeometryError);
    return e as InvalidGeometryError;
  }
  throw new Error('expected an error');
}

/** The message readWkt gives for `text` at row 2. */
function messageOf(text: string): string {
  const e = errorOf(() => readWkt(['POINT (0 0)', null, text]));
  expect(e.row).toBe(2);
  return e.message;
}

describe('grammar', () => {
  test('keywords in any case, spacing optional or generous', () => {
    const a = readWkt(['point(1 2)', '  Point  (  3   4  )  ', 'POINT\t(\n5 6\r\n)']);
    expect(Array.from(a.coords)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('markers Z, M, ZM — separate or glued on — and implicit 3 and 4 numbers', () => {
    const a = readWkt(['POINT Z (1 2 3)', 'pointz (1 2 3)', 'POINT (1 2 3)']);
    expect(a.dimension).toBe('xyz');
    expect(Array.from(a.coords)).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3]);
    const m = readWkt(['POINT M (1 2 3)', 'POINTM(1 2 3)']);
    expect(m.dimension).toBe('xym');
    expect(Array.from(m.coords)).toEqual([1, 2, 3, 1, 2, 3]);
    const zm = readWkt(['POINT ZM (1 2 3 4)', 'POINT (1 2 3 4)', 'LINESTRINGZM (0 0 0 0, 1 1 1 1)']);
    expect(zm.type).toBe('mixed');
    expect(zm.dimension).toBe('xyzm');
    expect(writeWkt(zm)).toEqual([
      'POINT ZM (1 2 3 4)',
      'POINT ZM (1 2 3 4)',
      'LINESTRING ZM (0 0 0 0, 1 1 1 1)',
    ]);
  });

  test('EMPTY at every level', () => {
    const rows = [
      'POINT EMPTY',
      'LINESTRING EMPTY',
      'POLYGON EMPTY',
      'POLYGON ((0 0, 1 0, 0 1, 0 0), EMPTY)',
      'MULTIPOINT EMPTY',
      'MULTIPOINT (EMPTY, 1 2)',
      'MULTILINESTRING (EMPTY, (0 0, 1 1))',
      'MULTIPOLYGON (EMPTY, ((0 0, 1 0, 0 1, 0 0)), (EMPTY))',
      'POINT Z EMPTY',
      'multipolygon empty',
    ];
    const a = readWkt(rows);
    expect(a.type).toBe('mixed');
    expect(a.dimension).toBe('xyz');
    expect([0, 1, 2, 4, 8, 9].every((i) => a.isEmpty(i))).toBe(true);
    expect(writeWkt(a)).toEqual([
      'POINT Z EMPTY',
      'LINESTRING Z EMPTY',
      'POLYGON Z EMPTY',
      'POLYGON ((0 0, 1 0, 0 1, 0 0), EMPTY)',
      'MULTIPOINT Z EMPTY',
      'MULTIPOINT (EMPTY, (1 2))',
      'MULTILINESTRING (EMPTY, (0 0, 1 1))',
      'MULTIPOLYGON (EMPTY, ((0 0, 1 0, 0 1, 0 0)), (EMPTY))',
      'POINT Z EMPTY',
      'MULTIPOLYGON Z EMPTY',
    ]);
    expect(modelOf(a, 7)).toEqual({
      type: GeometryType.MultiPolygon,
      coords: [
        [],
        [
          [
            [0, 0, NaN],
            [1, 0, NaN],
            [0, 1, NaN],
            [0, 0, NaN],
          ],
        ],
        [[]],
      ],
    });
  });

  test('MULTIPOINT with and without inner parentheses', () => {
    const a = readWkt(['MULTIPOINT (0 0, 1 1)', 'MULTIPOINT ((0 0), (1 1))', 'MULTIPOINT ((0 0), 1 1)']);
    expect(a.type).toBe(GeometryType.MultiPoint);
    expect(writeWkt(a)).toEqual(Array(3).fill('MULTIPOINT ((0 0), (1 1))'));
  });

  test('numbers: signs, fractions, exponents', () => {
    const a = readWkt([
      'POINT (-1.5e3 +2E-2)',
      'POINT (.5 5.)',
      'POINT (-0 0.000)',
      'POINT (1e308 -4.9e-324)',
    ]);
    expect(Array.from(a.coords)).toEqual([-1500, 0.02, 0.5, 5, -0, 0, 1e308, -5e-324]);
    expect(Object.is(a.coords[4], -0)).toBe(true);
  });

  test('numbers read to the same double as Number() (seeded random decimal texts)', () => {
    const random = rng(42);
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
    const texts: string[] = [];
    for (let k = 0; k < 3000; k++) {
      let t = random() < 0.3 ? '-' : '';
      t += digits(1 + Math.floor(random() * 20));
      if (random() < 0.7) t += `.${digits(Math.floor(random() * 20))}`;
      if (random() < 0.4) t += `e${random() < 0.5 ? '-' : ''}${Math.floor(random() * 330)}`;
      texts.push(t);
    }
    // and every double's shortest text, through the fast and slow paths
    const bits = new DataView(new ArrayBuffer(8));
    for (let k = 0; k < 2000; k++) {
      bits.setUint32(0, Math.floor(random() * 2 ** 32));
      bits.setUint32(4, Math.floor(random() * 2 ** 32));
      const v = bits.getFloat64(0);
      if (Number.isFinite(v)) texts.push(String(v));
    }
    const finite = texts.filter((t) => Number.isFinite(Number(t)));
    const a = readWkt(finite.map((t) => `POINT (${t} 0)`));
    finite.forEach((t, i) => {
      if (!Object.is(a.coords[2 * i], Number(t)))
        throw new Error(`${t}: got ${a.coords[2 * i]}, want ${Number(t)}`);
    });
    expect(finite.length).toBeGreaterThan(4000);
  });

  test('an EWKT SRID prefix is skipped', () => {
    expect(writeWkt(readWkt(['SRID=4326;POINT (1 2)', 'srid=3857; LINESTRING (0 0, 1 1)']))).toEqual([
      'POINT (1 2)',
      'LINESTRING (0 0, 1 1)',
    ]);
  });

  test('nulls and undefined are null rows; the CRS is attached', () => {
    const a = readWkt([null, 'POINT (1 2)', undefined], { crs: 'EPSG:3857' });
    expect([0, 1, 2].map((i) => a.isNull(i))).toEqual([true, false, true]);
    expect(a.crs).toBe('EPSG:3857');
  });

  test('column types: a type and its Multi type stay themselves per row (mixed), all-null', () => {
    const kept = readWkt(['POINT (1 2)', 'MULTIPOINT ((3 4), (5 6))', 'POINT EMPTY']);
    expect(kept.type).toBe('mixed');
    expect(writeWkt(kept)).toEqual(['POINT (1 2)', 'MULTIPOINT ((3 4), (5 6))', 'POINT EMPTY']);
    const polygons = readWkt(['MULTIPOLYGON EMPTY', 'POLYGON ((0 0, 1 0, 0 1, 0 0))']);
    expect([polygons.type, polygons.typeOf(0), polygons.typeOf(1)]).toEqual([
      'mixed',
      GeometryType.MultiPolygon,
      GeometryType.Polygon,
    ]);
    expect(readWkt(['LINESTRING (0 0, 1 1)', 'MULTILINESTRING EMPTY']).type).toBe('mixed');
    const mixed = readWkt(['POINT (1 2)', 'LINESTRING (0 0, 1 1)']);
    expect(mixed.type).toBe('mixed');
    expect(readWkt([null, null]).type).toBe(GeometryType.Point);
    expect(readWkt([]).length).toBe(0);
  });

  test('mixed dimensions: widest wins, others NaN, each row written back as it was', () => {
    const rows = ['POINT (1 2)', 'POINT Z (1 2 3)', 'POINT M (1 2 4)', 'POINT EMPTY'];
    const a = readWkt(rows);
    expect(a.dimension).toBe('xyzm');
    expect(Array.from(a.coords.subarray(0, 12))).toEqual([1, 2, NaN, NaN, 1, 2, 3, NaN, 1, 2, NaN, 4]);
    expect(writeWkt(a)).toEqual(['POINT (1 2)', 'POINT Z (1 2 3)', 'POINT M (1 2 4)', 'POINT ZM EMPTY']);
  });

  test('a UTF-8 BinaryColumn, ASCII or not, with nulls and offsets', () => {
    const enc = new TextEncoder();
    const ascii = binaryColumn([enc.encode('POINT (1 2)'), null, enc.encode('POINT (3 4)')], 4, 5);
    expect(writeWkt(readWkt(ascii))).toEqual(['POINT (1 2)', null, 'POINT (3 4)']);
    // a non-ASCII character elsewhere forces per-row decoding; positions count characters
    const other = binaryColumn([enc.encode('POINT (1 2)'), enc.encode('POINT (é 2)')]);
    expect(errorOf(() => readWkt(other)).message).toBe(
      "row 1: expected a number at position 7 in 'POINT (é 2)'",
    );
    const fine = binaryColumn([enc.encode('POINT (1 2)'), enc.encode(' POINT (3 4)\u00a0'.trimEnd())]);
    expect(writeWkt(readWkt(fine))).toEqual(['POINT (1 2)', 'POINT (3 4)']);
  });
});

describe('errors name the row and the position', () => {
  test('a missing parenthesis', () => {
    expect(messageOf('POLYGON ((0 0, 1 0, 0 1, 0 0)')).toBe(
      "row 2: expected ',' or ')' at position 29 in 'POLYGON ((0 0, 1 0, 0 1, 0 0)'",
    );
    expect(messageOf('POINT (1 2')).toBe("row 2: expected ')' at position 10 in 'POINT (1 2'");
    expect(messageOf('LINESTRING 0 0, 1 1)')).toBe(
      "row 2: expected Z, M, ZM, '(' or EMPTY at position 11 in 'LINESTRING 0 0, 1 1)'",
    );
    expect(messageOf('POINT Z 1 2 3')).toBe("row 2: expected '(' or EMPTY at position 8 in 'POINT Z 1 2 3'");
  });

  test('NaN and infinity are refused with a clear message', () => {
    for (const token of ['NaN', 'nan', 'inf', '-inf', 'Infinity', '-Infinity', '+INF']) {
      expect(messageOf(`POINT (1 ${token})`)).toBe(
        `row 2: NaN and infinite coordinates are not supported at position 9 in 'POINT (1 ${token})'`,
      );
    }
    expect(messageOf('POINT (1 2 NaN)')).toMatch(
      /NaN and infinite coordinates are not supported at position 11/,
    );
  });

  test('numbers out of range or malformed', () => {
    expect(messageOf('POINT (1e400 0)')).toBe(
      "row 2: number out of the range of doubles at position 7 in 'POINT (1e400 0)'",
    );
    expect(messageOf('POINT (1.2.3 4)')).toBe("row 2: malformed number at position 7 in 'POINT (1.2.3 4)'");
    expect(messageOf('POINT (1e 4)')).toBe(
      "row 2: expected digits in the exponent at position 9 in 'POINT (1e 4)'",
    );
    expect(messageOf('POINT (--1 4)')).toBe("row 2: expected a number at position 7 in 'POINT (--1 4)'");
    expect(messageOf('POINT (1,2)')).toBe("row 2: expected a number at position 8 in 'POINT (1,2)'");
    expect(messageOf('POINT (0x10 1)')).toBe("row 2: malformed number at position 7 in 'POINT (0x10 1)'");
  });

  test('coordinate sizes', () => {
    expect(messageOf('LINESTRING (0 0, 1 1 1)')).toBe(
      "row 2: expected 2 numbers in each coordinate, got 3 at position 17 in 'LINESTRING (0 0, 1 1 1)'",
    );
    expect(messageOf('POINT Z (1 2)')).toBe(
      "row 2: expected 3 numbers in each coordinate, got 2 at position 9 in 'POINT Z (1 2)'",
    );
    expect(messageOf('POINT ZM (1 2 3)')).toMatch(/expected 4 numbers in each coordinate, got 3/);
    expect(messageOf('POINT (1 2 3 4 5)')).toBe(
      "row 2: a coordinate has at most 4 numbers at position 15 in 'POINT (1 2 3 4 5)'",
    );
    expect(messageOf('POINT (1)')).toBe("row 2: expected a number at position 8 in 'POINT (1)'");
  });

  test('keywords', () => {
    expect(messageOf('CIRCLE (1 2)')).toBe(
      "row 2: expected a geometry type such as POINT or POLYGON at position 0 in 'CIRCLE (1 2)'",
    );
    expect(messageOf('POINTS (1 2)')).toMatch(/expected a geometry type/);
    expect(messageOf('POINT ZZ (1 2)')).toMatch(/expected Z, M, ZM, '\(' or EMPTY at position 6/);
    expect(messageOf('GEOMETRYCOLLECTION (POINT (1 2))')).toBe(
      "row 2: GEOMETRYCOLLECTION is not supported yet at position 0 in 'GEOMETRYCOLLECTION (POINT (1 2))'",
    );
    expect(messageOf('geometrycollection empty')).toMatch(/GEOMETRYCOLLECTION is not supported yet/);
    expect(messageOf('SRID=4326 POINT (1 2)')).toMatch(/expected ';' after SRID=/);
  });

  test('empty text, trailing text, non-strings', () => {
    expect(messageOf('')).toBe("row 2: empty WKT at position 0 in ''");
    expect(messageOf('   ')).toBe("row 2: empty WKT at position 3 in '   '");
    expect(messageOf('POINT (1 2) POINT (3 4)')).toBe(
      "row 2: unexpected text after the geometry at position 12 in 'POINT (1 2) POINT (3 4)'",
    );
    expect(messageOf('POINT EMPTY (1 2)')).toMatch(/unexpected text after the geometry at position 12/);
    const e = errorOf(() => readWkt(['POINT (1 2)', 7 as unknown as string]));
    expect(e.message).toBe('row 1: expected a WKT string, got number');
  });

  test('long texts are shown around the position', () => {
    const ring = Array.from({ length: 30 }, (_, k) => `${k} ${k}`).join(', ');
    const text = `LINESTRING (${ring}, 7 x, ${ring})`;
    const at = text.indexOf('x');
    const message = messageOf(text);
    expect(message).toBe(`row 2: expected a number at position ${at} in '…${text.slice(at - 40, at + 20)}…'`);
  });
});
