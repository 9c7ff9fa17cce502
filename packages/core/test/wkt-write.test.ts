import { readFileSync } from 'node:fs';
import {
  formatWkt,
  GeometryBuilder,
  GeometryType,
  readWkb,
  readWkt,
  writeWkb,
  writeWkt,
} from '@geoframe/core';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import WKTReader from 'jsts/org/locationtech/jts/io/WKTReader.js';
import WKTWriter from 'jsts/org/locationtech/jts/io/WKTWriter.js';
import { describe, expect, test, vi } from 'vitest';

const fixtures = JSON.parse(
  readFileSync(new URL('../../geo/test/fixtures/geopandas/expected.json', import.meta.url), 'utf8'),
) as Record<string, { wkt: (string | null)[] }>;

const FIXTURE_TYPES: Record<string, GeometryType> = {
  point: GeometryType.Point,
  linestring: GeometryType.LineString,
  polygon: GeometryType.Polygon,
  multipoint: GeometryType.MultiPoint,
  multilinestring: GeometryType.MultiLineString,
  multipolygon: GeometryType.MultiPolygon,
};

describe('GeoPandas fixtures (expected.json written by shapely)', () => {
  test.each(Object.keys(FIXTURE_TYPES))('%s: parses and re-formats to exactly the same strings', (name) => {
    const wkt = fixtures[name].wkt;
    const array = readWkt(wkt);
    expect(array.type).toBe(FIXTURE_TYPES[name]);
    expect(array.dimension).toBe('xy');
    expect(writeWkt(array)).toEqual(wkt);
    // through WKB as well
    expect(writeWkt(readWkb(writeWkb(array)))).toEqual(wkt);
    // and jsts writes the same text for the same geometries
    const reader = new WKTReader(new GeometryFactory());
    const writer = new WKTWriter(new GeometryFactory());
    wkt.forEach((text, i) => {
      if (text !== null) expect(writer.write(reader.read(formatWkt(array, i)!))).toBe(text);
    });
  });
});

function point(x: number, y: number): ReturnType<GeometryBuilder['finish']> {
  const b = new GeometryBuilder(GeometryType.Point);
  b.appendPoint(x, y);
  return b.finish();
}

describe('numbers', () => {
  test('shortest text that reads back to the same double', () => {
    const cases: [number, string][] = [
      [0.1, '0.1'],
      [0.1 + 0.2, '0.30000000000000004'],
      [1e21, '1e+21'],
      [1e20, '100000000000000000000'],
      [1e-7, '1e-7'],
      [5e-324, '5e-324'],
      [-0, '-0'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [-123.456, '-123.456'],
    ];
    for (const [x, text] of cases) {
      expect(formatWkt(point(x, 1), 0)).toBe(`POINT (${text} 1)`);
      expect(Object.is(readWkt([`POINT (${text} 1)`]).coords[0], x)).toBe(true);
    }
  });

  test('fixed precision with trailing zeros trimmed', () => {
    const cases: [number, number, string][] = [
      [1.23456, 2, '1.23'],
      [1.5, 3, '1.5'],
      [2, 3, '2'],
      [2.5, 0, '3'],
      [-0.0001, 2, '0'],
      [-0, 2, '-0'],
      [-1.005, 1, '-1'],
      [1e21, 3, '1e+21'],
      [123456.789, 1, '123456.8'],
    ];
    for (const [x, precision, text] of cases) {
      expect(formatWkt(point(x, 0.25), 0, { precision })).toBe(
        `POINT (${text} ${precision >= 2 ? '0.25' : precision === 1 ? '0.3' : '0'})`,
      );
    }
    expect(writeWkt(readWkt(['LINESTRING (0.123456 1, 2 3.999999)', null]), { precision: 4 })).toEqual([
      'LINESTRING (0.1235 1, 2 4)',
      null,
    ]);
  });

  test('bad precision and row indices are RangeErrors', () => {
    const a = point(1, 2);
    expect(() => formatWkt(a, 0, { precision: -1 })).toThrow(RangeError);
    expect(() => formatWkt(a, 0, { precision: 1.5 })).toThrow(RangeError);
    expect(() => writeWkt(a, { precision: 101 })).toThrow(RangeError);
    expect(() => formatWkt(a, 1)).toThrow(RangeError);
    expect(() => formatWkt(a, -1)).toThrow(RangeError);
  });
});

describe('formatWkt', () => {
  test('null rows are null; the row layout of every type', () => {
    const a = readWkt([
      null,
      'MULTIPOLYGON (((0 0, 3 0, 3 3, 0 0), (1 1, 1 2, 2 2, 1 1)), ((5 5, 6 5, 6 6, 5 5)))',
      'MULTIPOLYGON EMPTY',
    ]);
    expect(formatWkt(a, 0)).toBeNull();
    expect(formatWkt(a, 1)).toBe(
      'MULTIPOLYGON (((0 0, 3 0, 3 3, 0 0), (1 1, 1 2, 2 2, 1 1)), ((5 5, 6 5, 6 6, 5 5)))',
    );
    expect(formatWkt(a, 2)).toBe('MULTIPOLYGON EMPTY');
  });

  test('is cheap for one row: no column-wide offsets are built', () => {
    const b = new GeometryBuilder(GeometryType.Point);
    for (let i = 0; i < 100_000; i++) b.appendPoint(i, -i);
    const a = b.finish();
    const spy = vi.spyOn(a, 'nestedOffsets');
    expect(formatWkt(a, 99_999)).toBe('POINT (99999 -99999)');
    expect(formatWkt(a, 0, { precision: 2 })).toBe('POINT (0 -0)');
    expect(spy).not.toHaveBeenCalled();
  });

  test('rows of a wider column whose z/m are all NaN are written without the marker', () => {
    const b = new GeometryBuilder(GeometryType.LineString, 'xyz');
    b.beginGeometry(GeometryType.LineString);
    b.beginPart();
    b.beginRing();
    b.pushCoord(0, 0);
    b.pushCoord(1, 1);
    b.endGeometry();
    b.beginGeometry(GeometryType.LineString);
    b.beginPart();
    b.beginRing();
    b.pushCoord(0, 0, 5);
    b.pushCoord(1, 1);
    b.endGeometry();
    b.appendEmpty(GeometryType.LineString);
    expect(writeWkt(b.finish())).toEqual([
      'LINESTRING (0 0, 1 1)',
      'LINESTRING Z (0 0 5, 1 1 NaN)',
      'LINESTRING Z EMPTY',
    ]);
  });

  test('sliced arrays format their own rows', () => {
    const a = readWkt(['POINT (1 2)', 'POINT (3 4)', null, 'POINT (5 6)']);
    const s = a.slice(1);
    expect(writeWkt(s)).toEqual(['POINT (3 4)', null, 'POINT (5 6)']);
    const lines = readWkt(['LINESTRING (0 0, 1 1)', 'LINESTRING (2 2, 3 3)', 'LINESTRING EMPTY']).slice(1, 3);
    expect(writeWkt(lines)).toEqual(['LINESTRING (2 2, 3 3)', 'LINESTRING EMPTY']);
  });
});
