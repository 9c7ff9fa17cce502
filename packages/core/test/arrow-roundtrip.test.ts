import {
  crsLabel,
  type Dimension,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  geometryTypeName,
  validateGeometryArray,
} from '@geoframe/core';
import { type Data, DataType, type Field, type FixedSizeList, type List } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { extensionNameOf } from '../src/array/geometry-type.js';
import { EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY } from '../src/arrow/extension-metadata.js';
import {
  ALL_DIMENSIONS,
  ALL_TYPES,
  ipcRoundTrip,
  layoutRows,
  randomArray,
  tableOf,
} from './arrow-test-support.js';

const PROJJSON_4326 = {
  type: 'GeographicCRS',
  name: 'WGS 84',
  id: { authority: 'EPSG', code: 4326 },
};

/** The Data at the coordinate level (FixedSizeList) of a native column. */
function coordinateLevel(data: Data): Data<FixedSizeList> {
  let d = data;
  while (!DataType.isFixedSizeList(d.type)) d = d.children[0];
  return d as Data<FixedSizeList>;
}

function expectSameRows(actual: GeometryArray, expected: GeometryArray): void {
  expect(actual.type).toBe(expected.type);
  expect(actual.dimension).toBe(expected.dimension);
  expect(actual.length).toBe(expected.length);
  // toEqual compares numbers with Object.is: NaN equals NaN, 0 differs from -0
  expect(layoutRows(actual)).toEqual(layoutRows(expected));
  for (let i = 0; i < expected.length; i++) expect(actual.isNull(i)).toBe(expected.isNull(i));
}

describe.each(ALL_TYPES.map((t) => [geometryTypeName(t), t] as const))('%s', (_name, type) => {
  test.each(ALL_DIMENSIONS.map((d) => [d]))(
    'round trip %s with nulls, empties and slices',
    (dimension: Dimension) => {
      const a = randomArray(type, dimension, 60, 1000 * type + dimension.length).withCrs(PROJJSON_4326);
      expect(a.nullCount()).toBeGreaterThan(0);
      validateGeometryArray(a);
      const { field, data } = geometryArrayToArrow(a, { name: 'geom' });
      expect(field.name).toBe('geom');
      expect(field.nullable).toBe(true);
      expect(field.metadata.get(EXTENSION_NAME_KEY)).toBe(extensionNameOf(type));
      expect(JSON.parse(field.metadata.get(EXTENSION_METADATA_KEY)!)).toEqual({
        crs: PROJJSON_4326,
        crs_type: 'projjson',
      });
      expect(data.length).toBe(a.length);
      expect(data.nullCount).toBe(a.nullCount());
      expect(coordinateLevel(data).type.children[0].name).toBe(dimension);

      const back = geometryArrayFromArrow(data, { field });
      expectSameRows(back, a);
      expect(back.crs).toEqual(PROJJSON_4326);
      // the writer shares the builder's coordinate buffer, the reader shares Arrow's
      expect(coordinateLevel(data).children[0].values.buffer).toBe(a.coords.buffer);
      expect(back.coords.buffer).toBe(a.coords.buffer);

      // GeometryArray slices (offsets not starting at 0, validity bit offset not a multiple of 8)
      for (const [s, e] of [
        [3, 41],
        [17, 18],
        [59, 60],
        [5, 5],
      ]) {
        const slice = a.slice(s, e);
        const written = geometryArrayToArrow(slice);
        if (type !== GeometryType.Point && slice.length > 0) {
          expect((written.data.valueOffsets as Int32Array)[0]).toBe(0);
        }
        expectSameRows(geometryArrayFromArrow(written.data, { field: written.field }), slice);
      }

      // Arrow-side slices of the written Data (Arrow JS slices keep the bitmap offset in data.offset)
      for (const [s, n] of [
        [3, 38],
        [9, 1],
        [0, 60],
        [60, 0],
      ]) {
        const sliced = data.slice(s, n);
        const read = geometryArrayFromArrow(sliced, { field });
        expectSameRows(read, a.slice(s, s + n));
        expect(read.coords.buffer).toBe(a.coords.buffer);
      }

      // Arrow IPC keeps the field metadata and the values
      const table = ipcRoundTrip(tableOf(field, data));
      const f = table.schema.fields[0];
      expect(f.metadata.get(EXTENSION_NAME_KEY)).toBe(extensionNameOf(type));
      expect(f.metadata.get(EXTENSION_METADATA_KEY)).toBe(field.metadata.get(EXTENSION_METADATA_KEY));
      expect(String(f.type)).toBe(String(field.type));
      const fromIpc = geometryArrayFromArrow(table.getChildAt(0)!, { field: f });
      expectSameRows(fromIpc, a);
      expect(crsLabel(fromIpc.crs)).toBe('EPSG:4326');

      // sliced data written through IPC (the IPC writer rebases offsets and the bitmap)
      const slicedIpc = ipcRoundTrip(tableOf(field, data.slice(7, 30)));
      expectSameRows(geometryArrayFromArrow(slicedIpc.getChildAt(0)!, { field }), a.slice(7, 37));
    },
  );

  test('zero rows', () => {
    const a = new GeometryBuilder(type, 'xyz').finish();
    const { field, data } = geometryArrayToArrow(a);
    expect(data.length).toBe(0);
    const back = geometryArrayFromArrow(data, { field });
    expect(back.length).toBe(0);
    expect(back.type).toBe(type);
    expect(back.dimension).toBe('xyz');
    expect(JSON.parse(field.metadata.get(EXTENSION_METADATA_KEY)!)).toEqual({});
  });
});

test('GeoArrow child field names and nesting', () => {
  const expected: Record<GeometryType, string> = {
    [GeometryType.Point]: 'FixedSizeList[2]<Float64>',
    [GeometryType.LineString]: 'List<FixedSizeList[2]<Float64>>',
    [GeometryType.Polygon]: 'List<List<FixedSizeList[2]<Float64>>>',
    [GeometryType.MultiPoint]: 'List<FixedSizeList[2]<Float64>>',
    [GeometryType.MultiLineString]: 'List<List<FixedSizeList[2]<Float64>>>',
    [GeometryType.MultiPolygon]: 'List<List<List<FixedSizeList[2]<Float64>>>>',
  };
  const names: Record<GeometryType, string[]> = {
    [GeometryType.Point]: ['xy'],
    [GeometryType.LineString]: ['vertices', 'xy'],
    [GeometryType.Polygon]: ['rings', 'vertices', 'xy'],
    [GeometryType.MultiPoint]: ['points', 'xy'],
    [GeometryType.MultiLineString]: ['linestrings', 'vertices', 'xy'],
    [GeometryType.MultiPolygon]: ['polygons', 'rings', 'vertices', 'xy'],
  };
  for (const type of ALL_TYPES) {
    const { field } = geometryArrayToArrow(randomArray(type, 'xy', 5, type));
    expect(String(field.type)).toBe(expected[type]);
    const seen: string[] = [];
    let t: DataType = field.type;
    while (t.children?.length) {
      const child: Field = t.children[0];
      seen.push(child.name);
      expect(child.nullable).toBe(false);
      t = child.type;
    }
    expect(seen).toEqual(names[type]);
    expect(field.metadata.get(EXTENSION_METADATA_KEY)).toBe('{}');
  }
});

test('string CRS are written with their crs_type', () => {
  const cases: [string, string | undefined][] = [
    ['EPSG:32633', 'authority_code'],
    ['OGC:CRS84', 'authority_code'],
    ['4326', 'srid'],
    ['GEOGCRS["WGS 84",DATUM["World Geodetic System 1984"]]', 'wkt2:2019'],
    ['some local grid', undefined],
  ];
  for (const [crs, crsType] of cases) {
    const a = randomArray(GeometryType.Point, 'xy', 3, 1).withCrs(crs);
    const { field, data } = geometryArrayToArrow(a);
    const json = JSON.parse(field.metadata.get(EXTENSION_METADATA_KEY)!);
    expect(json).toEqual(crsType ? { crs, crs_type: crsType } : { crs });
    expect(geometryArrayFromArrow(data, { field }).crs).toBe(crs);
  }
});

test('the writer rebases offsets and compacts coordinates of a slice', () => {
  const b = new GeometryBuilder(GeometryType.Polygon);
  const square = (x: number) => {
    b.beginGeometry(GeometryType.Polygon);
    b.beginPart();
    b.beginRing();
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ])
      b.pushXY(x + dx, dy);
    b.endGeometry();
  };
  square(0);
  square(10);
  b.appendNull();
  square(20);
  const a = b.finish();
  const { data } = geometryArrayToArrow(a.slice(1, 4));
  expect(Array.from(data.valueOffsets as Int32Array)).toEqual([0, 1, 1, 2]);
  const rings = data.children[0] as Data<List>;
  expect(Array.from(rings.valueOffsets as Int32Array)).toEqual([0, 5, 10]);
  const coords = coordinateLevel(data).children[0].values as Float64Array;
  expect(Array.from(coords.subarray(0, 2))).toEqual([10, 0]);
  expect(coords.length).toBe(20);
  expect(data.nullCount).toBe(1);
  expect(data.getValid(1)).toBe(false);
  expect(data.getValid(2)).toBe(true);
});
