import {
  crsLabel,
  formatWkt,
  GeometryType,
  geometryArrayToArrow,
  UnsupportedInputError,
} from '@geoframe/core';
import { DataType, Field, Float64, Int64, makeData } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { tableFromColumns } from '../src/io/geo-table.js';
import { FEATURE_ID_KEY, JSON_COLUMN_KEY, readGeoJson, writeGeoJson } from '../src/io/index.js';
import { ALL_TYPES, expectSameGeometries, geometryOf, geoTableOf, randomColumn } from './io-support.js';

const point = (x: number, y: number) => ({ type: 'Point', coordinates: [x, y] });
const feature = (geometry: unknown, properties: Record<string, unknown> | null = {}, id?: unknown) => ({
  type: 'Feature',
  ...(id === undefined ? {} : { id }),
  properties,
  geometry,
});
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });
const column = (t: ReturnType<typeof readGeoJson>, name: string) => t.table.getChild(name)!;
const values = (t: ReturnType<typeof readGeoJson>, name: string) => {
  const c = column(t, name);
  return Array.from({ length: c.length }, (_, i) => c.get(i));
};

describe('readGeoJson inputs', () => {
  it('reads a FeatureCollection, a Feature, a bare geometry, an array, as text or object', () => {
    const fc = collection(feature(point(1, 2), { a: 1 }), feature(point(3, 4), { a: 2 }));
    for (const input of [fc, JSON.stringify(fc)]) {
      const t = readGeoJson(input);
      expect(t.primary).toBe('geometry');
      expect(t.table.numRows).toBe(2);
      expect(t.table.schema.fields.map((f) => f.name)).toEqual(['a', 'geometry']);
      const g = geometryOf(t.table);
      expect(g.type).toBe(GeometryType.Point);
      expect([formatWkt(g, 0), formatWkt(g, 1)]).toEqual(['POINT (1 2)', 'POINT (3 4)']);
    }
    expect(geometryOf(readGeoJson(feature(point(5, 6))).table).x(0)).toBe(5);
    const bare = readGeoJson({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
    expect(formatWkt(geometryOf(bare.table), 0)).toBe('LINESTRING (0 0, 1 1)');
    expect(bare.table.schema.fields.map((f) => f.name)).toEqual(['geometry']);
    const array = readGeoJson([point(0, 1), null, feature(point(2, 3), { k: 'v' })]);
    expect(array.table.numRows).toBe(3);
    expect(geometryOf(array.table).isNull(1)).toBe(true);
    expect(values(array, 'k')).toEqual([null, null, 'v']);
  });

  it('labels GeoJSON EPSG:4326 as GeoPandas does', () => {
    const t = readGeoJson(collection(feature(point(1, 2))));
    expect(crsLabel(geometryOf(t.table).crs)).toBe('EPSG:4326');
    expect(JSON.parse(t.table.schema.fields[0].metadata.get('ARROW:extension:metadata')!).crs).toBe(
      'EPSG:4326',
    );
  });

  it('reads and writes the legacy crs member for data not in WGS 84', () => {
    const named = (name: string) => ({
      ...collection(feature(point(1, 2))),
      crs: { type: 'name', properties: { name } },
    });
    expect(crsLabel(geometryOf(readGeoJson(named('urn:ogc:def:crs:EPSG::3857')).table).crs)).toBe(
      'EPSG:3857',
    );
    expect(crsLabel(geometryOf(readGeoJson(named('urn:ogc:def:crs:OGC:1.3:CRS84')).table).crs)).toBe(
      'OGC:CRS84',
    );
    const utm = randomColumn(GeometryType.Point, 'xy', 3, 11, 'EPSG:32633');
    const text = writeGeoJson(geoTableOf(utm));
    expect(JSON.parse(text).crs).toEqual({
      type: 'name',
      properties: { name: 'urn:ogc:def:crs:EPSG::32633' },
    });
    expect(crsLabel(geometryOf(readGeoJson(text).table).crs)).toBe('EPSG:32633');
    for (const wgs84 of ['EPSG:4326', 'OGC:CRS84', null]) {
      const written = JSON.parse(
        writeGeoJson(geoTableOf(randomColumn(GeometryType.Point, 'xy', 2, 3, wgs84))),
      );
      expect(written.crs).toBeUndefined();
    }
  });

  it('keeps the type of each row where a type and its Multi type mix (as GeoPandas), and mixes to WKB', () => {
    const poly = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    const multi = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [5, 5],
            [6, 5],
            [5, 6],
            [5, 5],
          ],
        ],
      ],
    };
    const t = readGeoJson([poly, multi]);
    const g = geometryOf(t.table);
    expect(g.type).toBe('mixed');
    expect([g.typeOf(0), g.typeOf(1)]).toEqual([GeometryType.Polygon, GeometryType.MultiPolygon]);
    expect(formatWkt(g, 0)).toBe('POLYGON ((0 0, 1 0, 0 1, 0 0))');
    const mixed = readGeoJson([poly, point(1, 1)]);
    expect(mixed.table.schema.fields[0].metadata.get('ARROW:extension:name')).toBe('geoarrow.wkb');
    const m = geometryOf(mixed.table);
    expect(m.type).toBe('mixed');
    expect([formatWkt(m, 0), formatWkt(m, 1)]).toEqual(['POLYGON ((0 0, 1 0, 0 1, 0 0))', 'POINT (1 1)']);
  });

  it('reads z, empties and nulls', () => {
    const t = readGeoJson([
      {
        type: 'LineString',
        coordinates: [
          [0, 0, 1],
          [1, 1],
        ],
      },
      { type: 'LineString', coordinates: [] },
      null,
    ]);
    const g = geometryOf(t.table);
    expect(g.dimension).toBe('xyz');
    expect(Array.from(g.coords)).toEqual([0, 0, 1, 1, 1, Number.NaN]);
    expect(g.isEmpty(1)).toBe(true);
    expect(g.isNull(2)).toBe(true);
    const empty = geometryOf(readGeoJson([{ type: 'Point', coordinates: [] }, point(1, 2)]).table);
    expect(empty.isEmpty(0)).toBe(true);
    expect(empty.isEmpty(1)).toBe(false);
  });

  it('gives a WKB column when there is no geometry at all, and handles 0 features', () => {
    const t = readGeoJson(collection(feature(null, { a: 1 })));
    expect(geometryOf(t.table).isNull(0)).toBe(true);
    const none = readGeoJson(collection());
    expect(none.table.numRows).toBe(0);
    expect(none.primary).toBe('geometry');
    expect(JSON.parse(writeGeoJson(none))).toEqual({ type: 'FeatureCollection', features: [] });
  });
});

describe('readGeoJson properties', () => {
  it('types columns from their values', () => {
    const t = readGeoJson(
      collection(
        feature(point(0, 0), {
          int: 1,
          float: 1.5,
          str: 'a',
          bool: true,
          nested: { x: [1, 2] },
          mix: 1,
          none: null,
        }),
        feature(point(0, 0), { int: 2 ** 53 - 1, float: 2, str: null, bool: false, nested: [3], mix: 'b' }),
        feature(point(0, 0), { int: null, extra: 'late' }),
      ),
    );
    const type = (name: string) => column(t, name).type;
    expect(DataType.isInt(type('int')) && (type('int') as { bitWidth: number }).bitWidth === 64).toBe(true);
    expect(values(t, 'int')).toEqual([1n, BigInt(2 ** 53 - 1), null]);
    expect(DataType.isFloat(type('float'))).toBe(true);
    expect(values(t, 'float')).toEqual([1.5, 2, null]);
    expect(DataType.isUtf8(type('str'))).toBe(true);
    expect(values(t, 'str')).toEqual(['a', null, null]);
    expect(DataType.isBool(type('bool'))).toBe(true);
    expect(values(t, 'bool')).toEqual([true, false, null]);
    expect(values(t, 'nested')).toEqual(['{"x":[1,2]}', '[3]', null]);
    expect(t.table.schema.fields.find((f) => f.name === 'nested')!.metadata.get(JSON_COLUMN_KEY)).toBe(
      'true',
    );
    expect(values(t, 'mix')).toEqual(['1', '"b"', null]);
    expect(DataType.isNull(type('none'))).toBe(true);
    expect(values(t, 'extra')).toEqual([null, null, 'late']);
    expect(t.table.schema.fields.map((f) => f.name)).toEqual([
      'int',
      'float',
      'str',
      'bool',
      'nested',
      'mix',
      'none',
      'extra',
      'geometry',
    ]);
  });

  it('a number beyond 2^53 makes the column Float64', () => {
    const t = readGeoJson(collection(feature(point(0, 0), { n: 1 }), feature(point(0, 0), { n: 2 ** 60 })));
    expect(DataType.isFloat(column(t, 'n').type)).toBe(true);
  });

  it('keeps feature ids, renamed when a property is called id', () => {
    const t = readGeoJson(collection(feature(point(0, 0), { a: 1 }, 'f1'), feature(point(0, 0), { a: 2 })));
    expect(values(t, 'id')).toEqual(['f1', null]);
    expect(t.table.schema.fields[0].metadata.get(FEATURE_ID_KEY)).toBe('true');
    const clash = readGeoJson(collection(feature(point(0, 0), { id: 'prop' }, 7)));
    expect(values(clash, 'id')).toEqual(['prop']);
    expect(values(clash, 'feature_id')).toEqual([7n]);
    const geometryClash = readGeoJson(collection(feature(point(0, 0), { geometry: 'x' })));
    expect(geometryClash.primary).toBe('geometry_1');
    expect(values(geometryClash, 'geometry')).toEqual(['x']);
  });
});

describe('readGeoJson errors', () => {
  it('names the feature of a GeometryCollection', () => {
    const gc = { type: 'GeometryCollection', geometries: [point(0, 0)] };
    expect(() => readGeoJson(collection(feature(point(0, 0)), feature(point(1, 1)), feature(gc)))).toThrow(
      /feature 2: GeometryCollection is not supported/,
    );
    expect(() => readGeoJson(gc)).toThrow(UnsupportedInputError);
  });

  it('refuses malformed input', () => {
    expect(() => readGeoJson('{not json')).toThrow(/not valid JSON/);
    expect(() => readGeoJson(collection(feature({ type: 'Point', coordinates: ['a', 1] })))).toThrow(
      /feature 0/,
    );
    expect(() => readGeoJson([point(0, 0), { type: 'Polygon', coordinates: [[0, 0]] }])).toThrow(/feature 1/);
    expect(() => readGeoJson([feature({ type: 'Circle', coordinates: [0, 0] })])).toThrow(
      /unknown geometry type/,
    );
    expect(() => readGeoJson([{ type: 'Circle', coordinates: [0, 0] }])).toThrow(/feature 0: unknown type/);
    expect(() => readGeoJson({ type: 'FeatureCollection' })).toThrow(/no features array/);
    expect(() => readGeoJson(42 as unknown as object)).toThrow(UnsupportedInputError);
  });
});

describe('writeGeoJson', () => {
  it('writes numbers exactly, Int64 as integers, NaN as null, z as a third number', () => {
    const t = readGeoJson(
      collection(
        feature(
          {
            type: 'LineString',
            coordinates: [
              [0.1, -0, 7],
              [1e-300, 123456789.12345679],
            ],
          },
          { big: 1, f: 0.30000000000000004 },
          3,
        ),
      ),
    );
    const text = writeGeoJson(t);
    expect(text).toContain('"coordinates":[[0.1,-0,7],[1e-300,123456789.12345679]]');
    expect(text).toContain('"id":3,');
    const back = JSON.parse(text);
    expect(back.features[0].properties).toEqual({ big: 1, f: 0.30000000000000004 });
    expect(writeGeoJson(t, { precision: 2 })).toContain('"coordinates":[[0.1,0,7],[0,123456789.12]]');
  });

  it('writes Int64 beyond 2^53 with all digits, NaN and nulls as null', () => {
    const big = makeData({
      type: new Int64(),
      length: 2,
      nullCount: 0,
      data: new BigInt64Array([2n ** 62n + 1n, -5n]),
    });
    const f = makeData({
      type: new Float64(),
      length: 2,
      nullCount: 0,
      data: new Float64Array([Number.NaN, 2.5]),
    });
    const table = tableFromColumns([new Field('big', big.type), new Field('f', f.type)], [big, f], 2);
    const text = writeGeoJson({ table, primary: null });
    expect(text).toContain('"properties":{"big":4611686018427387905,"f":null},"geometry":null');
    expect(text).toContain('"properties":{"big":-5,"f":2.5},"geometry":null');
  });

  it('writes nested properties back as JSON and empties as []', () => {
    const input = collection(
      feature({ type: 'Polygon', coordinates: [] }, { nested: { a: [1, { b: null }] }, s: 'x' }, 'a'),
      feature(null, { nested: null, s: null }, 'b'),
    );
    expect(JSON.parse(writeGeoJson(readGeoJson(input)))).toEqual(input);
  });

  it.each(ALL_TYPES)('round-trips type %i bit-exactly, xy and xyz', (type) => {
    for (const dimension of ['xy', 'xyz'] as const) {
      const array = randomColumn(type, dimension, 9, type * 31 + dimension.length, 'OGC:CRS84');
      const t = geoTableOf(array);
      const back = readGeoJson(writeGeoJson(t));
      expectSameGeometries(geometryOf(back.table), array);
      expect(crsLabel(geometryOf(back.table).crs)).toBe('EPSG:4326'); // WGS 84 writes no crs member
      expect(values(back, 'id')).toEqual(Array.from({ length: 9 }, (_, i) => BigInt(i * 1000 - 7)));
      expect(values(back, 'label')).toEqual(
        Array.from({ length: 9 }, (_, i) => (i % 3 === 2 ? null : `row ${i} é`)),
      );
    }
  });

  it('writes other geometry columns as geometry objects in properties', () => {
    const main = randomColumn(GeometryType.Point, 'xy', 3, 5, 'OGC:CRS84');
    const other = randomColumn(GeometryType.Polygon, 'xy', 3, 6, 'OGC:CRS84');
    const a = geometryArrayToArrow(main, { name: 'geometry' });
    const b = geometryArrayToArrow(other, { name: 'other' });
    const table = tableFromColumns([b.field, a.field], [b.data, a.data], 3);
    const back = JSON.parse(writeGeoJson({ table, primary: 'geometry' }));
    const first = back.features[0];
    expect(first.geometry.type).toBe('Point');
    expect(first.properties.other.type).toBe('Polygon');
    expect(first.properties.other.coordinates[0][0]).toEqual([other.x(0), other.y(0)]);
    expect(back.features[1].properties.other).toBeNull();
    expect(() => writeGeoJson({ table, primary: 'missing' })).toThrow(/not in the table/);
  });
});
