import { GeometryType, geometryArrayFromArrow, UnsupportedInputError } from '@geoframe/core';
import {
  type Data,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int32,
  LargeList,
  List,
  makeData,
  Schema,
  Struct,
  Table,
  Vector,
} from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY } from '../src/arrow/extension-metadata.js';
import { layoutRows } from './arrow-test-support.js';

const f64 = (values: number[]) =>
  makeData({ type: new Float64(), length: values.length, nullCount: 0, data: new Float64Array(values) });

/** Interleaved coordinates named for their dimension. */
function interleaved(values: number[], dimension = 'xy'): Data<FixedSizeList> {
  const size = dimension.length;
  const type = new FixedSizeList(size, new Field(dimension, new Float64(), false));
  return makeData({ type, length: values.length / size, nullCount: 0, child: f64(values) });
}

/** Separated coordinates: one Float64 child per axis. */
function separated(axes: Record<string, number[]>): Data<Struct> {
  const names = Object.keys(axes);
  const type = new Struct(names.map((n) => new Field(n, new Float64(), false)));
  return makeData({
    type,
    length: axes[names[0]].length,
    nullCount: 0,
    children: names.map((n) => f64(axes[n])),
  });
}

function list(child: Data, offsets: number[], name = 'vertices', validity?: boolean[]): Data<List> {
  const type = new List(new Field(name, child.type, false));
  return makeData({
    type,
    length: offsets.length - 1,
    nullCount: validity ? validity.filter((v) => !v).length : 0,
    nullBitmap: validity ? bitmap(validity) : undefined,
    valueOffsets: new Int32Array(offsets),
    child,
  });
}

function largeList(child: Data, offsets: bigint[], name = 'vertices'): Data<LargeList> {
  const type = new LargeList(new Field(name, child.type, false));
  return makeData({
    type,
    length: offsets.length - 1,
    nullCount: 0,
    valueOffsets: new BigInt64Array(offsets),
    child,
  });
}

function bitmap(valid: boolean[]): Uint8Array {
  const out = new Uint8Array((valid.length + 7) >> 3);
  valid.forEach((v, i) => {
    if (v) out[i >> 3] |= 1 << (i & 7);
  });
  return out;
}

function geoField(name: string, data: Data, extension?: string, metadata?: string): Field {
  const m = new Map<string, string>();
  if (extension) m.set(EXTENSION_NAME_KEY, extension);
  if (metadata !== undefined) m.set(EXTENSION_METADATA_KEY, metadata);
  return new Field(name, data.type, true, m);
}

describe('separated coordinates', () => {
  test('Struct<x, y, z> linestrings are copied into interleaved xyz', () => {
    const coords = separated({ x: [0, 1, 2, 5, 6], y: [10, 11, 12, 15, 16], z: [-1, -2, -3, -4, -5] });
    const data = list(coords, [0, 3, 3, 5]);
    const a = geometryArrayFromArrow(data, { field: geoField('g', data, 'geoarrow.linestring') });
    expect(a.type).toBe(GeometryType.LineString);
    expect(a.dimension).toBe('xyz');
    expect(layoutRows(a)).toEqual([[0, 10, -1, 1, 11, -2, 2, 12, -3], [], [5, 15, -4, 6, 16, -5]]);
  });

  test('field order does not matter and m is recognised', () => {
    const data = separated({ m: [7, 8], y: [2, 4], x: [1, 3] });
    const a = geometryArrayFromArrow(data);
    expect(a.type).toBe(GeometryType.Point);
    expect(a.dimension).toBe('xym');
    expect(Array.from(a.coords)).toEqual([1, 2, 7, 3, 4, 8]);
  });

  test('a sliced Struct column reads the right rows', () => {
    const data = separated({ x: [0, 1, 2, 3, 4], y: [5, 6, 7, 8, 9] }).slice(2, 2);
    expect(Array.from(geometryArrayFromArrow(data).coords)).toEqual([2, 7, 3, 8]);
  });

  test('unexpected struct fields are refused', () => {
    const data = separated({ x: [0], y: [1], w: [2] });
    expect(() => geometryArrayFromArrow(data)).toThrow(UnsupportedInputError);
  });
});

describe('interleaved dimensions', () => {
  test('child name decides xym versus xyz', () => {
    expect(geometryArrayFromArrow(interleaved([1, 2, 3], 'xym')).dimension).toBe('xym');
    expect(geometryArrayFromArrow(interleaved([1, 2, 3], 'xyz')).dimension).toBe('xyz');
  });

  test('unnamed children default by size: 3 → xyz, 4 → xyzm', () => {
    for (const [size, dimension] of [
      [2, 'xy'],
      [3, 'xyz'],
      [4, 'xyzm'],
    ] as const) {
      const type = new FixedSizeList(size, new Field('item', new Float64(), false));
      const data = makeData({
        type,
        length: 1,
        nullCount: 0,
        child: f64(Array.from({ length: size }, (_, i) => i)),
      });
      expect(geometryArrayFromArrow(data).dimension).toBe(dimension);
    }
  });

  test('non-Float64 coordinates and odd sizes are refused', () => {
    const type = new FixedSizeList(2, new Field('xy', new Float32(), false));
    const f32 = makeData({ type: new Float32(), length: 2, nullCount: 0, data: new Float32Array([1, 2]) });
    expect(() => geometryArrayFromArrow(makeData({ type, length: 1, nullCount: 0, child: f32 }))).toThrow(
      /Float64/,
    );
    const five = new FixedSizeList(5, new Field('item', new Float64(), false));
    expect(() =>
      geometryArrayFromArrow(makeData({ type: five, length: 1, nullCount: 0, child: f64([1, 2, 3, 4, 5]) })),
    ).toThrow(/2, 3 or 4/);
    const mismatch = new FixedSizeList(3, new Field('xy', new Float64(), false));
    expect(() =>
      geometryArrayFromArrow(makeData({ type: mismatch, length: 1, nullCount: 0, child: f64([1, 2, 3]) })),
    ).toThrow(/does not match/);
  });
});

describe('LargeList offsets', () => {
  test('polygons with LargeList levels equal the List version', () => {
    const coords = interleaved([0, 0, 1, 0, 1, 1, 0, 0, 5, 5, 6, 5, 6, 6, 5, 5]);
    const rings = largeList(coords, [0n, 4n, 8n], 'vertices');
    const polys = largeList(rings, [0n, 1n, 1n, 2n], 'rings');
    const a = geometryArrayFromArrow(polys, { encoding: GeometryType.Polygon });
    const b = geometryArrayFromArrow(list(list(coords, [0, 4, 8]), [0, 1, 1, 2], 'rings'), {
      encoding: GeometryType.Polygon,
    });
    expect(layoutRows(a)).toEqual(layoutRows(b));
    expect(a.offsets[0]).toBeInstanceOf(Int32Array);
    expect(Array.from(a.offsets[1])).toEqual([0, 4, 8]);
  });

  test('offsets past 2^31 - 1 are refused', () => {
    const data = largeList(interleaved([0, 0, 1, 1]), [0n, 2n ** 31n]);
    expect(() => geometryArrayFromArrow(data, { encoding: GeometryType.LineString })).toThrow(/32 bits/);
  });
});

describe('slices, validity and chunks', () => {
  // 10 multipoints: row i has i % 3 points, rows 2 and 7 null
  const valid = Array.from({ length: 10 }, (_, i) => i !== 2 && i !== 7);
  const offsets = [0];
  const values: number[] = [];
  for (let i = 0; i < 10; i++) {
    for (let k = 0; k < i % 3; k++) values.push(i, k);
    offsets.push(values.length / 2);
  }
  const data = list(interleaved(values), offsets, 'points', valid);
  const field = geoField('g', data, 'geoarrow.multipoint', '{"crs": "EPSG:3857"}');
  const rowsOf = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, j) => {
      const i = from + j;
      if (!valid[i]) return null;
      const row: number[] = [];
      for (let k = 0; k < i % 3; k++) row.push(i, k);
      return row;
    });

  test('whole column, zero-copy', () => {
    const a = geometryArrayFromArrow(data, { field });
    expect(layoutRows(a)).toEqual(rowsOf(0, 10));
    expect(a.crs).toBe('EPSG:3857');
    expect(a.nullCount()).toBe(2);
    expect(a.coords.buffer).toBe(data.children[0].children[0].values.buffer);
    expect(a.offsets[0].buffer).toBe(data.valueOffsets.buffer);
  });

  test('a sliced Data (bitmap offset 3) reads the right rows and nulls, zero-copy', () => {
    const a = geometryArrayFromArrow(data.slice(3, 6), { field });
    expect(a.length).toBe(6);
    expect(layoutRows(a)).toEqual(rowsOf(3, 9));
    expect(a.isNull(4)).toBe(true);
    expect(a.isNull(3)).toBe(false);
    expect(a.coords.buffer).toBe(data.children[0].children[0].values.buffer);
    // a slice of a slice
    expect(layoutRows(geometryArrayFromArrow(data.slice(1, 8).slice(1, 5), { field }))).toEqual(rowsOf(2, 7));
  });

  test('a one-chunk Vector is zero-copy; several chunks are concatenated', () => {
    const one = geometryArrayFromArrow(new Vector([data]), { field });
    expect(one.coords.buffer).toBe(data.children[0].children[0].values.buffer);
    const chunks = new Vector([data.slice(0, 4), data.slice(4, 1), data.slice(5, 5)]);
    const all = geometryArrayFromArrow(chunks, { field });
    expect(layoutRows(all)).toEqual(rowsOf(0, 10));
    expect(all.crs).toBe('EPSG:3857');
    expect(all.offsets[0][0]).toBe(0);
    expect(all.coords.buffer).not.toBe(data.children[0].children[0].values.buffer);
    // a chunked Vector sliced across chunk boundaries
    expect(layoutRows(geometryArrayFromArrow(chunks.slice(2, 8), { field }))).toEqual(rowsOf(2, 8));
  });

  test('chunks of nested polygons concatenate with rebased inner offsets', () => {
    const coords = interleaved([0, 0, 1, 0, 1, 1, 0, 0, 5, 5, 6, 5, 6, 6, 5, 5, 9, 9, 8, 9, 8, 8, 9, 9]);
    const polys = list(list(coords, [0, 4, 8, 12], 'vertices'), [0, 2, 2, 3], 'rings', [true, false, true]);
    const pf = geoField('p', polys, 'geoarrow.polygon');
    const whole = geometryArrayFromArrow(polys, { field: pf });
    const joined = geometryArrayFromArrow(new Vector([polys.slice(0, 1), polys.slice(1, 2)]), { field: pf });
    expect(layoutRows(joined)).toEqual(layoutRows(whole));
    expect(Array.from(joined.offsets[1])).toEqual([0, 4, 8, 12]);
    expect(joined.isNull(1)).toBe(true);
  });
});

describe('choosing the encoding', () => {
  const lines = list(interleaved([0, 0, 1, 1]), [0, 2]);

  test('a List column without extension name or encoding is refused with advice', () => {
    expect(() => geometryArrayFromArrow(lines)).toThrow(UnsupportedInputError);
    expect(() => geometryArrayFromArrow(lines)).toThrow(/encoding/);
  });

  test('options.encoding fills in for a missing extension name', () => {
    const a = geometryArrayFromArrow(lines, { encoding: GeometryType.MultiPoint });
    expect(a.type).toBe(GeometryType.MultiPoint);
    expect(geometryArrayFromArrow(lines, { encoding: GeometryType.LineString }).type).toBe(
      GeometryType.LineString,
    );
  });

  test('an encoding that contradicts the extension name is refused', () => {
    const field = geoField('g', lines, 'geoarrow.linestring');
    expect(() => geometryArrayFromArrow(lines, { field, encoding: GeometryType.Polygon })).toThrow(
      /geoarrow.linestring/,
    );
    expect(geometryArrayFromArrow(lines, { field, encoding: GeometryType.LineString }).length).toBe(1);
  });

  test('nesting that does not fit the type is refused', () => {
    expect(() => geometryArrayFromArrow(lines, { encoding: GeometryType.Polygon })).toThrow(/List levels/);
    expect(() => geometryArrayFromArrow(lines, { encoding: GeometryType.Point })).toThrow(
      UnsupportedInputError,
    );
    expect(() => geometryArrayFromArrow(lines, { encoding: 'mixed' })).toThrow(UnsupportedInputError);
    expect(() => geometryArrayFromArrow(lines, { encoding: 'wkb' })).toThrow(/Binary/);
  });

  test('unsupported GeoArrow extensions and other Arrow types are refused', () => {
    const field = geoField('g', lines, 'geoarrow.box');
    expect(() => geometryArrayFromArrow(lines, { field })).toThrow(/geoarrow.box/);
    const ints = makeData({ type: new Int32(), length: 1, nullCount: 0, data: new Int32Array([1]) });
    expect(() => geometryArrayFromArrow(ints)).toThrow(UnsupportedInputError);
  });

  test('options.crs overrides the metadata, null removes it', () => {
    const field = geoField('g', lines, 'geoarrow.linestring', '{"crs": "EPSG:4326"}');
    expect(geometryArrayFromArrow(lines, { field }).crs).toBe('EPSG:4326');
    expect(geometryArrayFromArrow(lines, { field, crs: 'EPSG:3857' }).crs).toBe('EPSG:3857');
    expect(geometryArrayFromArrow(lines, { field, crs: null }).crs).toBeNull();
  });

  test('bad metadata JSON is refused', () => {
    const field = geoField('g', lines, 'geoarrow.linestring', '{crs: 4326');
    expect(() => geometryArrayFromArrow(lines, { field })).toThrow(UnsupportedInputError);
  });
});

test('the column of an empty Table reads as zero rows with its dimension', () => {
  const type = new List(
    new Field('vertices', new FixedSizeList(3, new Field('xyz', new Float64(), false)), false),
  );
  const field = new Field('g', type, true, new Map([[EXTENSION_NAME_KEY, 'geoarrow.linestring']]));
  const column = new Table(new Schema([field])).getChild('g')!;
  const a = geometryArrayFromArrow(column, { field });
  expect(a.length).toBe(0);
  expect(a.type).toBe(GeometryType.LineString);
  expect(a.dimension).toBe('xyz');
});
