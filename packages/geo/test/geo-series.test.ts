import { crsLabel, GeometryType, InvalidGeometryError } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { describe, expect, it } from 'vitest';

const wkt = [
  'POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 1 2, 2 2, 2 1, 1 1))',
  null,
  'POINT EMPTY',
  'LINESTRING (0 0, 3 4)',
  'MULTIPOINT ((1 1), (3 3))',
];

describe('GeoSeries.fromXY', () => {
  it('builds points with the CRS and leaves the caller arrays alone', () => {
    const x = new Float64Array([1, 2.5, -3]);
    const y = new Float64Array([4, 5, 6e7]);
    const s = GeoSeries.fromXY(x, y, { crs: 'EPSG:32633', name: 'sites' });
    expect(s.length).toBe(3);
    expect([...s.x]).toEqual([1, 2.5, -3]);
    expect([...s.y]).toEqual([4, 5, 6e7]);
    expect(s.crs).toBe('EPSG:32633');
    expect(s.name).toBe('sites');
    expect(s.geomType).toEqual(['Point', 'Point', 'Point']);
    s.array.coords[0] = 99;
    expect(x[0]).toBe(1);
  });

  it('names the row of a coordinate that is not finite', () => {
    const call = () => GeoSeries.fromXY([0, 1, 2], [0, Number.NaN, 2]);
    expect(call).toThrow(InvalidGeometryError);
    expect(call).toThrow(/row 1/);
    expect(() => GeoSeries.fromXY([0, Number.POSITIVE_INFINITY], [0, 0])).toThrow(/row 1/);
    expect(() => GeoSeries.fromXY([0, 1], [0])).toThrow(RangeError);
  });
});

describe('GeoSeries measures and predicates', () => {
  const s = GeoSeries.fromWKT(wkt, { crs: 'EPSG:3857' });

  it('area, lengthOf and centroid follow GEOS', () => {
    expect([...s.area()]).toEqual([15, Number.NaN, 0, 0, 0]);
    expect([...s.lengthOf()]).toEqual([20, Number.NaN, 0, 5, 0]);
    const c = s.centroid();
    expect(c.toWKT()).toEqual([
      // (16·(2,2) − 1·(1.5,1.5)) / 15
      `POINT (${(32 - 1.5) / 15} ${(32 - 1.5) / 15})`,
      null,
      'POINT EMPTY',
      'POINT (1.5 2)',
      'POINT (2 2)',
    ]);
    expect(c.crs).toBe('EPSG:3857');
  });

  it('types, nulls, empties and bounds per row', () => {
    expect(s.geomType).toEqual(['Polygon', null, 'Point', 'LineString', 'MultiPoint']);
    expect([...s.isNull]).toEqual([0, 1, 0, 0, 0]);
    expect([...s.isEmpty]).toEqual([0, 0, 1, 0, 0]);
    const b = s.bounds;
    expect([...b.minx]).toEqual([0, Number.NaN, Number.NaN, 0, 1]);
    expect([...b.maxy]).toEqual([4, Number.NaN, Number.NaN, 4, 3]);
    expect(s.totalBounds).toEqual([0, 0, 4, 4]);
  });

  it('x and y refuse non-point rows, naming the row', () => {
    expect(() => s.x).toThrow(/row 0: .*Polygon/);
    const points = GeoSeries.fromWKT(['POINT (1 2)', null, 'POINT EMPTY']);
    expect([...points.x]).toEqual([1, Number.NaN, Number.NaN]);
  });
});

describe('GeoSeries selection', () => {
  const s = GeoSeries.fromWKT(wkt, { name: 'g' });

  it('take, filter, slice and head keep rows, nulls and the name', () => {
    expect(s.take([4, 1, 0]).toWKT()).toEqual([wkt[4], null, wkt[0]]);
    expect(s.filter([1, 0, 0, 1, 0]).toWKT()).toEqual([wkt[0], wkt[3]]);
    expect(s.slice(1, 3).toWKT()).toEqual([null, 'POINT EMPTY']);
    expect(s.head(2).toWKT()).toEqual([wkt[0], null]);
    expect(s.head(-4).length).toBe(1);
    expect(s.take([3]).name).toBe('g');
    expect(() => s.take([5])).toThrow(RangeError);
    expect(() => s.filter([1])).toThrow(/mask/);
  });
});

describe('GeoSeries conversions', () => {
  const s = GeoSeries.fromWKT(wkt, { crs: 'EPSG:4326' });

  it('WKB round trip is exact', () => {
    const back = GeoSeries.fromWKB(s.toWKB(), { crs: 'EPSG:4326' });
    expect(back.toWKT()).toEqual(s.toWKT());
    expect(back.toWKB()[1]).toBeNull();
  });

  it('GeoJSON round trip keeps geometries and nulls', () => {
    const text = s.toGeoJSON();
    const fc = JSON.parse(text);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(5);
    expect(fc.features[1].geometry).toBeNull();
    const back = GeoSeries.fromGeoJSON(text);
    expect(back.toWKT()).toEqual(s.toWKT());
  });

  it('Arrow round trip keeps CRS and type', () => {
    const { field, data } = s.toArrow();
    const back = GeoSeries.fromArrow(data, { field });
    expect(back.toWKT()).toEqual(s.toWKT());
    expect(crsLabel(back.crs)).toBe('EPSG:4326');
    const points = GeoSeries.fromXY([1], [2]);
    expect(GeoSeries.fromArrow(points.toArrow().data, { field: points.toArrow().field }).array.type).toBe(
      GeometryType.Point,
    );
  });

  it('rejects an unclosed ring naming the row', () => {
    expect(() => GeoSeries.fromWKT(['POINT (0 0)', 'POLYGON ((0 0, 1 0, 1 1, 0 1))'])).toThrow(/row 1/);
  });
});

describe('GeoSeries display', () => {
  it('prints rows as WKT with a summary, eliding the middle of long series', () => {
    const short = String(GeoSeries.fromWKT(wkt, { crs: 'EPSG:4326', name: 'g' }));
    expect(short).toContain('0    POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 1 2, 2 2, 2 1, 1 1))');
    expect(short).toContain('1    None');
    expect(short).toContain('Name: g, type: mixed, length: 5, crs: EPSG:4326');
    const n = 25;
    const long = String(
      GeoSeries.fromXY(
        Float64Array.from({ length: n }, (_, i) => i),
        new Float64Array(n),
      ),
    );
    const lines = long.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[5]).toBe('…');
    expect(lines[10]).toBe('24    POINT (24 0)');
  });
});
