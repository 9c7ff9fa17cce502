import { type Dimension, GeometryType, readWkb, readWkt, writeWkb, writeWkt } from '@geoframe/core';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import WKTReader from 'jsts/org/locationtech/jts/io/WKTReader.js';
import WKTWriter from 'jsts/org/locationtech/jts/io/WKTWriter.js';
import { describe, expect, test } from 'vitest';
import {
  ALL_DIMS,
  ALL_TYPES,
  binaryColumn,
  encodeWkb,
  flatCoords,
  formatModel,
  hex,
  type Model,
  modelOf,
  randomModel,
  rng,
} from './wkb-helpers.js';

/** 40 random rows of `type` (about 10% null), the same for a given seed. */
function randomRows(seed: number, type: GeometryType, dimension: Dimension): (Model | null)[] {
  const random = rng(seed);
  return Array.from({ length: 40 }, () =>
    random() < 0.1 ? null : randomModel(random, type, dimension.length),
  );
}

describe.each(ALL_TYPES.flatMap((type) => ALL_DIMS.map((dimension) => [type, dimension] as const)))(
  'round trip of %s %s',
  (type, dimension) => {
    const seed = type * 100 + ALL_DIMS.indexOf(dimension);
    const rows = randomRows(seed, type, dimension);
    const wkb = rows.map((m) => (m ? encodeWkb(m, dimension) : null));

    test('readWkb decodes every row to the model; writeWkb gives the same bytes back', () => {
      const array = readWkb(binaryColumn(wkb), { crs: 'EPSG:4326' });
      expect(array.type).toBe(type);
      expect(array.dimension).toBe(dimension);
      expect(array.crs).toBe('EPSG:4326');
      expect(array.length).toBe(rows.length);
      rows.forEach((m, i) => {
        expect(modelOf(array, i)).toEqual(m);
      });

      const out = writeWkb(array);
      expect(out.length).toBe(rows.length);
      rows.forEach((m, i) => {
        const bytes = out.values.subarray(Number(out.offsets[i]), Number(out.offsets[i + 1]));
        if (m === null) {
          expect(bytes.length).toBe(0);
          expect(array.isNull(i)).toBe(true);
          const bit = i + out.validityOffset;
          expect(out.validity![bit >> 3] & (1 << (bit & 7))).toBe(0);
        } else {
          expect(hex(bytes)).toBe(hex(wkb[i]!));
        }
      });
    });

    test('big-endian and EWKB (with SRID, members in the other byte order) decode the same', () => {
      const big = rows.map((m) => (m ? encodeWkb(m, dimension, { littleEndian: false }) : null));
      const ewkb = rows.map((m) =>
        m
          ? encodeWkb(m, dimension, { ewkb: true, srid: 4326, littleEndian: false, memberLittleEndian: true })
          : null,
      );
      for (const column of [binaryColumn(big, 3, 5), binaryColumn(ewkb, 1, 7)]) {
        const array = readWkb(column);
        expect(array.type).toBe(type);
        expect(array.dimension).toBe(dimension);
        rows.forEach((m, i) => {
          expect(modelOf(array, i)).toEqual(m);
        });
      }
    });

    test('writeWkt matches the reference text; readWkt reads it back to the same rows', () => {
      const array = readWkb(binaryColumn(wkb));
      const text = writeWkt(array);
      rows.forEach((m, i) => {
        expect(text[i]).toBe(m ? formatModel(m, dimension) : null);
      });
      const back = readWkt(text);
      expect(back.type).toBe(type);
      expect(back.dimension).toBe(dimension);
      rows.forEach((m, i) => {
        expect(modelOf(back, i)).toEqual(m);
      });
      // and through a UTF-8 BinaryColumn (Arrow Utf8), with a validity bit offset
      const utf8 = binaryColumn(
        text.map((t) => (t === null ? null : new TextEncoder().encode(t))),
        2,
        3,
      );
      const fromBinary = readWkt(utf8);
      rows.forEach((m, i) => {
        expect(modelOf(fromBinary, i)).toEqual(m);
      });
    });

    test('slices and takes encode to the same bytes as the rows they hold', () => {
      const array = readWkb(binaryColumn(wkb));
      const slice = array.slice(7, 31);
      const out = writeWkb(slice);
      for (let i = 0; i < slice.length; i++) {
        const bytes = out.values.subarray(out.offsets[i] as number, out.offsets[i + 1] as number);
        const expected = wkb[i + 7];
        expect(slice.isNull(i)).toBe(expected === null);
        expect(hex(bytes)).toBe(expected ? hex(expected) : '');
      }
      expect(writeWkt(slice)).toEqual(writeWkt(array).slice(7, 31));
      const taken = array.take([5, 0, 5, 39]);
      expect(writeWkt(taken)).toEqual([5, 0, 5, 39].map((i) => writeWkt(array)[i]));
    });
  },
);

/** The same model with -0 as 0, closed rings, and without empty members (which jsts cannot read). */
function forJsts(model: Model): Model {
  const fix = (c: number[]) => c.map((v) => (Object.is(v, -0) ? 0 : v));
  const ring = (r: number[][]) => [...r, r[0]].map(fix);
  switch (model.type) {
    case GeometryType.Point:
      return { type: model.type, coords: model.coords && fix(model.coords) };
    case GeometryType.LineString:
      return { type: model.type, coords: model.coords.map(fix) };
    case GeometryType.MultiPoint:
      return { type: model.type, coords: model.coords.filter((c) => !Number.isNaN(c[0])).map(fix) };
    case GeometryType.MultiLineString:
      return { type: model.type, coords: model.coords.filter((r) => r.length > 0).map((r) => r.map(fix)) };
    case GeometryType.Polygon:
      return { type: model.type, coords: model.coords.filter((r) => r.length > 0).map(ring) };
    case GeometryType.MultiPolygon:
      return {
        type: model.type,
        coords: model.coords.map((p) => p.filter((r) => r.length > 0).map(ring)).filter((p) => p.length > 0),
      };
  }
}

describe.each(ALL_TYPES)('against jsts (%s)', (type) => {
  test('jsts reads our WKT to the same coordinates and writes exactly the same text (xy and xyz)', () => {
    const reader = new WKTReader(new GeometryFactory());
    const writer = new WKTWriter(new GeometryFactory());
    for (const dimension of ['xy', 'xyz'] as const) {
      const random = rng(7000 + type * 10 + dimension.length);
      const models = Array.from({ length: 30 }, () => forJsts(randomModel(random, type, dimension.length)));
      const array = readWkb(binaryColumn(models.map((m) => encodeWkb(m, dimension))));
      const ours = writeWkt(array);
      models.forEach((m, i) => {
        const geometry = reader.read(ours[i]!);
        const jstsCoords = geometry
          .getCoordinates()
          .map((c: { x: number; y: number; z: number }) =>
            dimension === 'xy' ? [c.x, c.y] : [c.x, c.y, c.z],
          );
        expect(jstsCoords).toEqual(flatCoords(m));
        if (flatCoords(m).length > 0 || dimension === 'xy') expect(writer.write(geometry)).toBe(ours[i]);
        // and our reader agrees with jsts on jsts's own text
        const again = readWkt([writer.write(geometry)]);
        expect(flatCoords(modelOf(again, 0)!)).toEqual(jstsCoords);
      });
    }
  });
});

test('a mixed column of every type and dimension round-trips through WKB and WKT', () => {
  const random = rng(99);
  const dims: Dimension[] = [];
  const models: Model[] = [];
  for (let k = 0; k < 60; k++) {
    const type = ALL_TYPES[k % 6];
    const dimension = ALL_DIMS[Math.floor(random() * 4)];
    dims.push(dimension);
    models.push(randomModel(random, type, dimension.length));
  }
  const array = readWkb(binaryColumn(models.map((m, k) => encodeWkb(m, dims[k]))));
  expect(array.type).toBe('mixed');
  expect(array.dimension).toBe('xyzm');
  models.forEach((m, k) => {
    expect(array.typeOf(k)).toBe(m.type);
  });
  const again = readWkb(writeWkb(array));
  const text = writeWkt(array);
  expect(writeWkt(again)).toEqual(text);
  const fromText = readWkt(text);
  expect(fromText.type).toBe('mixed');
  expect(fromText.dimension).toBe('xyzm');
  for (let k = 0; k < models.length; k++) expect(modelOf(fromText, k)).toEqual(modelOf(array, k));
});
