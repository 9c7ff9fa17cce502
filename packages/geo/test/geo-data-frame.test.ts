import { crsLabel } from '@geoframe/core';
import { GeoDataFrame, GeoSeries } from '@geoframe/geo';
import {
  Bool,
  Dictionary,
  Field,
  Float64,
  Int32,
  Int64,
  List,
  makeData,
  makeVector,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableFromArrays,
  Utf8,
  type Vector,
  vectorFromArray,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';

function sampleFrame(): GeoDataFrame {
  const geometry = GeoSeries.fromWKT(['POINT (0 0)', null, 'POINT (2 2)', 'POINT EMPTY', 'POINT (4 4)'], {
    crs: 'EPSG:4326',
  });
  return GeoDataFrame.fromSeries(geometry, {
    i32: makeVector(new Int32Array([10, 11, 12, 13, 14])),
    i64: vectorFromArray([1n, 2n, null, 4n, 5n], new Int64()),
    f64: vectorFromArray([0.5, null, 2.5, 3.5, 4.5], new Float64()),
    name: vectorFromArray(['a', 'bb', null, 'dddd', 'é'], new Utf8()),
    flag: vectorFromArray([true, false, null, true, false], new Bool()),
    kind: vectorFromArray(['x', 'y', 'x', null, 'y'], new Dictionary(new Utf8(), new Int32())),
    list: vectorFromArray([[1], [], null, [2, 3], [4]], new List(new Field('item', new Int32(), true))),
  });
}

function column(frame: GeoDataFrame, name: string): unknown[] {
  return [...(frame.get(name) as Vector)].map((v) =>
    v && typeof v === 'object' && 'toArray' in v ? [...v] : v,
  );
}

describe('GeoDataFrame', () => {
  it('exposes geometry, columns and CRS', () => {
    const gdf = sampleFrame();
    expect(gdf.length).toBe(5);
    expect(gdf.columns).toEqual(['i32', 'i64', 'f64', 'name', 'flag', 'kind', 'list', 'geometry']);
    expect(gdf.geometryName).toBe('geometry');
    expect(gdf.geometryColumns).toEqual(['geometry']);
    expect(crsLabel(gdf.crs)).toBe('EPSG:4326');
    expect(gdf.get('geometry')).toBeInstanceOf(GeoSeries);
    expect(() => gdf.get('nope')).toThrow(/no column named "nope"/);
  });

  it('take gathers every column type in the given order, nulls included', () => {
    const gdf = sampleFrame();
    const t = gdf.take([4, 2, 1, 4]);
    expect(t.geometry.toWKT()).toEqual(['POINT (4 4)', 'POINT (2 2)', null, 'POINT (4 4)']);
    expect(column(t, 'i32')).toEqual([14, 12, 11, 14]);
    expect(column(t, 'i64')).toEqual([5n, null, 2n, 5n]);
    expect(column(t, 'f64')).toEqual([4.5, 2.5, null, 4.5]);
    expect(column(t, 'name')).toEqual(['é', null, 'bb', 'é']);
    expect(column(t, 'flag')).toEqual([false, null, false, false]);
    expect(column(t, 'kind')).toEqual(['y', 'x', 'y', 'y']);
    expect(column(t, 'list')).toEqual([[4], null, [], [4]]);
    expect(t.table.schema.fields.map((f) => String(f.type))).toEqual(
      gdf.table.schema.fields.map((f) => String(f.type)),
    );
    expect(crsLabel(t.crs)).toBe('EPSG:4326');
  });

  it('filter and head select rows; the source frame is unchanged', () => {
    const gdf = sampleFrame();
    const f = gdf.filter(gdf.geometry.isNull.map((v) => 1 - v));
    expect(column(f, 'i32')).toEqual([10, 12, 13, 14]);
    expect(column(gdf.head(2), 'name')).toEqual(['a', 'bb']);
    expect(gdf.head(-3).length).toBe(2);
    expect(gdf.length).toBe(5);
    expect(() => gdf.filter([1, 0])).toThrow(/mask/);
  });

  it('take works across chunks', () => {
    const a = tableFromArrays({ v: new Float64Array([1, 2]) });
    const b = tableFromArrays({ v: new Float64Array([3, 4, 5]) });
    const chunked = a.concat(b);
    expect(chunked.getChild('v')!.data.length).toBe(2);
    const geometry = GeoSeries.fromXY([0, 1, 2, 3, 4], [0, 0, 0, 0, 0]);
    const gdf = GeoDataFrame.fromSeries(geometry, { v: chunked.getChild('v')! });
    expect(column(gdf.take([4, 0, 2]), 'v')).toEqual([5, 1, 3]);
  });

  it('fromArrow finds the geometry column, and setGeometry switches it', () => {
    const pts = GeoSeries.fromXY([0, 1], [0, 1], { crs: 'EPSG:3857' }).toArrow();
    const lines = GeoSeries.fromWKT(['LINESTRING (0 0, 1 1)', 'LINESTRING (2 2, 3 3)']).toArrow();
    const fields = [pts.field.clone({ name: 'pts' }), lines.field.clone({ name: 'lines' })];
    const struct = makeData({
      type: new Struct(fields),
      length: 2,
      nullCount: 0,
      children: [pts.data, lines.data],
    });
    const table = new Table(new Schema(fields), new RecordBatch(new Schema(fields), struct));
    const gdf = GeoDataFrame.fromArrow(table);
    expect(gdf.geometryName).toBe('pts');
    expect(gdf.geometryColumns).toEqual(['pts', 'lines']);
    expect(crsLabel(gdf.crs)).toBe('EPSG:3857');
    const switched = gdf.setGeometry('lines');
    expect(switched.geometryName).toBe('lines');
    expect(switched.lengthOf()[1]).toBeCloseTo(Math.SQRT2, 15);
    expect((switched.get('pts') as GeoSeries).toWKT()).toEqual(['POINT (0 0)', 'POINT (1 1)']);
    expect(() => gdf.setGeometry('nope')).toThrow(/no column named/);
    const plain = tableFromArrays({ v: new Float64Array([1]) });
    expect(() => GeoDataFrame.fromArrow(plain)).toThrow(/no GeoArrow geometry column/);
  });

  it('prints a readable table', () => {
    const text = String(sampleFrame());
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\s+i32\s+i64\s+f64\s+name\s+flag\s+kind\s+list\s+geometry$/);
    expect(lines[1]).toMatch(/^0\s+10\s+1\s+0\.5\s+a\s+true\s+x\s+\[1\]\s+POINT \(0 0\)$/);
    expect(lines[2]).toContain('None');
    expect(lines.at(-1)).toBe('[5 rows x 8 columns; geometry: geometry, crs: EPSG:4326]');
  });
});
