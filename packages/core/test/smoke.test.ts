import { GeometryBuilder, GeometryType } from '@geoframe/core';
import { expect, test } from 'vitest';

test('smoke', () => {
  const b = new GeometryBuilder(GeometryType.MultiPolygon);
  b.beginGeometry(GeometryType.Polygon);
  b.beginPart();
  b.beginRing();
  for (const [x, y] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [0, 0],
  ])
    b.pushXY(x, y);
  b.endGeometry();
  b.appendNull();
  b.appendEmpty(GeometryType.MultiPolygon);
  b.beginGeometry(GeometryType.MultiPolygon);
  b.beginPart();
  b.beginRing();
  b.pushXY(5, 5);
  b.pushXY(6, 5);
  b.pushXY(5, 6);
  b.pushXY(5, 5);
  b.beginRing();
  b.pushXY(1, 1);
  b.pushXY(1, 1);
  b.pushXY(1, 1);
  b.pushXY(1, 1);
  b.beginPart();
  b.beginRing();
  b.pushXY(9, 9);
  b.pushXY(9, 9);
  b.pushXY(9, 9);
  b.pushXY(9, 9);
  b.endGeometry();
  const a = b.finish();
  expect(a.offsets.map((o) => [...o])).toEqual([
    [0, 1, 1, 1, 3],
    [0, 1, 3, 4],
    [0, 4, 8, 12, 16],
  ]);
  expect([a.isNull(1), a.isEmpty(2), a.isEmpty(1), a.coordRange(3)]).toEqual([true, true, false, [4, 16]]);
  const t = a.take([3, 1, 0]);
  expect(t.offsets.map((o) => [...o])).toEqual([
    [0, 2, 2, 3],
    [0, 2, 3, 4],
    [0, 4, 8, 12, 16],
  ]);
  expect(t.isNull(1)).toBe(true);
  expect([...t.coords.subarray(0, 2)]).toEqual([5, 5]);
  const s = a.slice(2);
  expect(s.coordRange(1)).toEqual([4, 16]);
  expect(s.take([1]).coordRange(0)).toEqual([0, 12]);
  const m = new GeometryBuilder('mixed');
  m.appendPoint(1, 2);
  m.beginGeometry(GeometryType.MultiPoint);
  m.beginPart();
  m.pushXY(3, 4);
  m.beginPart();
  m.pushXY(5, 6);
  m.endGeometry();
  const ma = m.finish();
  expect(ma.offsets.map((o) => [...o])).toEqual([
    [0, 1, 3],
    [0, 1, 2, 3],
    [0, 1, 2, 3],
  ]);
});
