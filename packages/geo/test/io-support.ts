import {
  type ColumnType,
  type Crs,
  type Dimension,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  geometryArrayFromArrow,
  geometryArrayToArrow,
} from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';
import { type Data, Field, Int64, makeData, type Table, Utf8 } from 'apache-arrow';
import { expect } from 'vitest';
import { tableFromColumns } from '../src/io/geo-table.js';
import type { GeoTable } from '../src/io/index.js';

/** The shared seeded generator (mulberry32), under this file's old name. */
export const seeded = mulberry32;

export const ALL_TYPES = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
];

/**
 * A column of `rows` geometries of `type` with full-precision random coordinates: row 1 null, row
 * 2 empty, polygons with a hole every other row, multi types with 1–3 parts.
 */
export function randomColumn(
  type: GeometryType,
  dimension: Dimension,
  rows: number,
  seed: number,
  crs: Crs | null,
) {
  const rnd = seeded(seed);
  const b = new GeometryBuilder(type, dimension);
  const coord = () => b.pushCoord(rnd() * 360 - 180, rnd() * 180 - 90, rnd() * 1000 - 500);
  const ring = (closed: boolean, n: number) => {
    b.beginRing();
    const first: number[] = [rnd() * 100, rnd() * 100, rnd() * 10];
    b.pushCoord(first[0], first[1], first[2]);
    for (let k = 1; k < n - 1; k++) coord();
    if (closed) b.pushCoord(first[0], first[1], first[2]);
    else coord();
  };
  const polygon = (row: number) => {
    b.beginPart();
    ring(true, 4 + (row % 3));
    if (row % 2 === 0) ring(true, 4);
  };
  for (let i = 0; i < rows; i++) {
    if (i === 1) {
      b.appendNull();
      continue;
    }
    b.beginGeometry(type);
    if (i !== 2) {
      const parts = 1 + (i % 3);
      switch (type) {
        case GeometryType.Point:
          b.beginPart();
          coord();
          break;
        case GeometryType.LineString:
          b.beginPart();
          ring(false, 2 + (i % 4));
          break;
        case GeometryType.Polygon:
          polygon(i);
          break;
        case GeometryType.MultiPoint:
          for (let p = 0; p < parts; p++) {
            b.beginPart();
            coord();
          }
          break;
        case GeometryType.MultiLineString:
          for (let p = 0; p < parts; p++) {
            b.beginPart();
            ring(false, 2 + p);
          }
          break;
        case GeometryType.MultiPolygon:
          for (let p = 0; p < parts; p++) polygon(i + p);
          break;
      }
    }
    b.endGeometry();
  }
  return b.finish(crs);
}

/** An Int64 "id" and a Utf8 "label" column (label null on every third row). */
export function attributeColumns(rows: number): { fields: Field[]; data: Data[] } {
  const ids = BigInt64Array.from({ length: rows }, (_, i) => BigInt(i * 1000 - 7));
  const labels = Array.from({ length: rows }, (_, i) => (i % 3 === 2 ? null : `row ${i} é`));
  const id = geometryFree('id', makeData({ type: new Int64(), length: rows, nullCount: 0, data: ids }));
  const encoder = new TextEncoder();
  const bytes = labels.map((s) => (s === null ? new Uint8Array(0) : encoder.encode(s)));
  const offsets = new Int32Array(rows + 1);
  bytes.forEach((b, i) => {
    offsets[i + 1] = offsets[i] + b.length;
  });
  const values = new Uint8Array(offsets[rows]);
  for (const [i, b] of bytes.entries()) values.set(b, offsets[i]);
  const validity = new Uint8Array((rows + 7) >> 3);
  labels.forEach((s, i) => {
    if (s !== null) validity[i >> 3] |= 1 << (i & 7);
  });
  const label = geometryFree(
    'label',
    makeData({
      type: new Utf8(),
      length: rows,
      nullCount: labels.filter((s) => s === null).length,
      nullBitmap: validity,
      valueOffsets: offsets,
      data: values,
    }),
  );
  return { fields: [id.field, label.field], data: [id.data, label.data] };
}

function geometryFree(name: string, data: Data): { field: Field; data: Data } {
  return { field: new Field(name, data.type, true), data };
}

/** A GeoTable with id, label and a "geometry" column made from `array`. */
export function geoTableOf(array: GeometryArray): GeoTable {
  const attributes = attributeColumns(array.length);
  const geometry = geometryArrayToArrow(array, { name: 'geometry' });
  return {
    table: tableFromColumns(
      [...attributes.fields, geometry.field],
      [...attributes.data, geometry.data],
      array.length,
    ),
    primary: 'geometry',
  };
}

/** The GeometryArray of a table's column (all batches). */
export function geometryOf(table: Table, name = 'geometry'): GeometryArray {
  const field = table.schema.fields.find((f) => f.name === name)!;
  return geometryArrayFromArrow(table.getChild(name)!, { field });
}

/**
 * Asserts two arrays hold the same rows: type, dimension, nulls, empties, the row → part → ring
 * nesting and every coordinate value bit for bit (Object.is, so -0 and NaN count).
 */
export function expectSameGeometries(
  actual: GeometryArray,
  expected: GeometryArray,
  type?: ColumnType,
): void {
  expect(actual.type).toBe(type ?? expected.type);
  expect(actual.dimension).toBe(expected.dimension);
  expect(actual.length).toBe(expected.length);
  const a = actual.nestedOffsets();
  const e = expected.nestedOffsets();
  for (let i = 0; i < expected.length; i++) {
    expect(actual.isNull(i), `row ${i} null`).toBe(expected.isNull(i));
    if (expected.isNull(i)) continue;
    expect(actual.typeOf(i)).toBe(expected.typeOf(i));
    expect(actual.isEmpty(i), `row ${i} empty`).toBe(expected.isEmpty(i));
    if (expected.isEmpty(i)) continue;
    const shape = (n: typeof a) => {
      const out: number[][] = [];
      for (let p = n.geometryOffsets[i]; p < n.geometryOffsets[i + 1]; p++) {
        const rings: number[] = [];
        for (let r = n.partOffsets[p]; r < n.partOffsets[p + 1]; r++)
          rings.push(n.ringOffsets[r + 1] - n.ringOffsets[r]);
        out.push(rings);
      }
      return out;
    };
    expect(shape(a), `row ${i} nesting`).toEqual(shape(e));
    const [alo, ahi] = actual.coordRange(i);
    const [elo, ehi] = expected.coordRange(i);
    expect(ahi - alo).toBe(ehi - elo);
    const s = expected.stride;
    for (let k = 0; k < (ehi - elo) * s; k++) {
      const x = actual.coords[alo * s + k];
      const y = expected.coords[elo * s + k];
      if (!Object.is(x, y)) expect.fail(`row ${i}: value ${k} is ${x}, expected ${y}`);
    }
  }
}
