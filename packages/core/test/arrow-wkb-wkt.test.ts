import {
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  UnsupportedInputError,
  writeWkb,
} from '@geoframe/core';
import { Binary, type Data, DataType, Field, LargeUtf8, makeData, Utf8, Vector } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { binaryColumnFromArrow, binaryColumnToArrow } from '../src/arrow/binary-column-arrow.js';
import { EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY } from '../src/arrow/extension-metadata.js';
import { ALL_TYPES, geometryRows, ipcRoundTrip, randomArray, tableOf } from './arrow-test-support.js';

/** A mixed column: one row of every type, plus a null and empties. */
function mixedArray(): GeometryArray {
  const b = new GeometryBuilder('mixed', 'xyz');
  b.appendPoint(1, 2, 3);
  b.appendNull();
  b.beginGeometry(GeometryType.LineString);
  b.beginPart();
  b.beginRing();
  b.pushCoord(0, 0, 1);
  b.pushCoord(1, 1, 2);
  b.endGeometry();
  b.beginGeometry(GeometryType.Polygon);
  b.beginPart();
  b.beginRing();
  for (const [x, y] of [
    [0, 0],
    [4, 0],
    [4, 4],
    [0, 0],
  ])
    b.pushCoord(x, y, 7);
  b.endGeometry();
  b.appendEmpty(GeometryType.MultiPolygon);
  b.beginGeometry(GeometryType.MultiPoint);
  b.beginPart();
  b.pushCoord(5, 6, 7);
  b.beginPart();
  b.pushCoord(-5, -6, -7);
  b.endGeometry();
  b.appendEmpty(GeometryType.Point);
  return b.finish('EPSG:4326');
}

describe('mixed arrays', () => {
  test('native encoding falls back to geoarrow.wkb and reads back', () => {
    const a = mixedArray();
    const { field, data } = geometryArrayToArrow(a);
    expect(field.metadata.get(EXTENSION_NAME_KEY)).toBe('geoarrow.wkb');
    expect(DataType.isBinary(field.type)).toBe(true);
    expect(JSON.parse(field.metadata.get(EXTENSION_METADATA_KEY)!)).toEqual({
      crs: 'EPSG:4326',
      crs_type: 'authority_code',
    });
    expect(data.nullCount).toBe(1);
    const back = geometryArrayFromArrow(data, { field });
    expect(back.dimension).toBe('xyz');
    expect(back.crs).toBe('EPSG:4326');
    expect(geometryRows(back)).toEqual(geometryRows(a));
  });

  test('wkt encoding writes geoarrow.wkt Utf8 and reads back', () => {
    const a = mixedArray();
    const { field, data } = geometryArrayToArrow(a, { encoding: 'wkt' });
    expect(field.metadata.get(EXTENSION_NAME_KEY)).toBe('geoarrow.wkt');
    expect(DataType.isUtf8(field.type)).toBe(true);
    expect(data.getValid(1)).toBe(false);
    const text = new Vector([data as Data<Utf8>]).get(0);
    expect(text).toMatch(/^POINT Z \(1 2 3\)$/);
    expect(geometryRows(geometryArrayFromArrow(data, { field }))).toEqual(geometryRows(a));
  });

  test('a sliced mixed array writes only its rows', () => {
    const a = mixedArray().slice(2, 6);
    const { field, data } = geometryArrayToArrow(a, { encoding: 'wkb' });
    expect(data.length).toBe(4);
    expect(geometryRows(geometryArrayFromArrow(data, { field }))).toEqual(geometryRows(a));
  });
});

describe.each(ALL_TYPES.map((t) => [t]))('native type %i through WKB and WKT', (type) => {
  test.each([['xy'], ['xyzm']] as const)('%s', (dimension) => {
    // no NaN M values: WKT text cannot carry them
    const a = randomArray(type, dimension, 40, 77 + type, false);
    for (const encoding of ['wkb', 'wkt'] as const) {
      const { field, data } = geometryArrayToArrow(a, { encoding });
      const back = geometryArrayFromArrow(data, { field });
      expect(back.dimension).toBe(dimension);
      expect(geometryRows(back)).toEqual(geometryRows(a));
      // through IPC, and as a Vector of several chunks
      const table = ipcRoundTrip(tableOf(field, data));
      expect(
        geometryRows(geometryArrayFromArrow(table.getChildAt(0)!, { field: table.schema.fields[0] })),
      ).toEqual(geometryRows(a));
      const chunks = new Vector([data.slice(0, 13), data.slice(13, 27)]);
      expect(geometryRows(geometryArrayFromArrow(chunks, { field }))).toEqual(geometryRows(a));
    }
  });
});

describe('binary columns', () => {
  test('binaryColumnFromArrow views Arrow buffers; binaryColumnToArrow shares them back', () => {
    const a = randomArray(GeometryType.Polygon, 'xy', 20, 5);
    const column = writeWkb(a);
    const data = binaryColumnToArrow(column, false);
    expect(DataType.isBinary(data.type)).toBe(true);
    expect(data.values.buffer).toBe(column.values.buffer);
    const view = binaryColumnFromArrow(data);
    expect(view.values.buffer).toBe(column.values.buffer);
    expect(view.offsets.buffer).toBe(column.offsets.buffer);
    expect(view.length).toBe(20);
    const sliced = binaryColumnFromArrow(data.slice(4, 9));
    expect(sliced.length).toBe(9);
    expect(sliced.validityOffset).toBe(sliced.validity ? 4 : 0);
    expect(Number(sliced.offsets[0])).toBe(Number(column.offsets[4]));
  });

  test('Large types keep BigInt offsets and read as WKB/WKT', () => {
    const a = randomArray(GeometryType.MultiLineString, 'xyz', 15, 9);
    const { data: wkt } = geometryArrayToArrow(a, { encoding: 'wkt' });
    const small = binaryColumnFromArrow(wkt);
    const large = { ...small, offsets: BigInt64Array.from(Array.from(small.offsets, BigInt)) };
    const largeData = binaryColumnToArrow(large, true);
    expect(largeData.type).toBeInstanceOf(LargeUtf8);
    expect(binaryColumnFromArrow(largeData).offsets).toBeInstanceOf(BigInt64Array);
    const field = new Field('g', largeData.type, true, new Map([[EXTENSION_NAME_KEY, 'geoarrow.wkt']]));
    expect(geometryRows(geometryArrayFromArrow(largeData, { field }))).toEqual(geometryRows(a));
    // without a field, Utf8 storage means WKT and Binary storage means WKB
    expect(geometryRows(geometryArrayFromArrow(largeData))).toEqual(geometryRows(a));
    const wkb = binaryColumnToArrow(writeWkb(a), false);
    expect(geometryRows(geometryArrayFromArrow(wkb))).toEqual(geometryRows(a));
  });

  test('non-binary Arrow types are refused', () => {
    const data = makeData({ type: new Binary(), length: 0, nullCount: 0, valueOffsets: new Int32Array(1) });
    expect(binaryColumnFromArrow(data).length).toBe(0);
    const field = new Field('g', new Utf8(), true, new Map([[EXTENSION_NAME_KEY, 'geoarrow.wkb']]));
    const utf8 = makeData({ type: new Utf8(), length: 0, nullCount: 0, valueOffsets: new Int32Array(1) });
    expect(() => geometryArrayFromArrow(utf8, { field })).toThrow(UnsupportedInputError);
  });
});
