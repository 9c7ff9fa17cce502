import { GeometryBuilder, GeometryType } from '@geoframe/core';
import { computeRowBoundsCpu } from '@geoframe/gpu';
import { expect, test } from 'vitest';
import { expectSameBounds } from './bounds-assert.js';

const nan = Number.NaN;

test('multipolygon rows: every ring of every part counts; z is ignored', () => {
  const b = new GeometryBuilder(GeometryType.MultiPolygon, 'xyz');
  b.beginGeometry(GeometryType.MultiPolygon);
  b.beginPart();
  b.beginRing();
  b.pushCoords([0, 0, 100, 4, 0, -100, 0, 3, 0, 0, 0, 0]);
  b.beginRing();
  b.pushCoords([1, 1, 9, 2, 1, 9, 1, 1, 9]);
  b.beginPart();
  b.beginRing();
  b.pushCoords([-7, 10, 1e9, -6, 10, 1e9, -7, 11, 1e9, -7, 10, 1e9]);
  b.endGeometry();
  b.appendNull();
  b.appendEmpty(GeometryType.MultiPolygon);
  b.beginGeometry(GeometryType.Polygon);
  b.beginPart();
  b.beginRing();
  b.pushCoords([2, 2, 0, 2, 2, 0]);
  b.endGeometry();
  const array = b.finish();
  expectSameBounds(
    computeRowBoundsCpu(array),
    new Float64Array([-7, 0, 4, 11, nan, nan, nan, nan, nan, nan, nan, nan, 2, 2, 2, 2]),
  );
  expectSameBounds(
    computeRowBoundsCpu(array.slice(1)),
    new Float64Array([nan, nan, nan, nan, nan, nan, nan, nan, 2, 2, 2, 2]),
  );
});

test('-0 orders below 0, NaN is skipped per axis, an all-NaN axis is NaN', () => {
  const b = new GeometryBuilder(GeometryType.MultiPoint);
  const row = (...xy: number[]) => {
    b.beginGeometry(GeometryType.MultiPoint);
    for (let k = 0; k < xy.length; k += 2) {
      b.beginPart();
      b.pushXY(xy[k], xy[k + 1]);
    }
    b.endGeometry();
  };
  row(0, -0, -0, 0);
  row(-0, -0);
  row(nan, 1, 2, nan, nan, -3);
  row(nan, nan);
  row(Number.POSITIVE_INFINITY, Number.MIN_VALUE, 1e300, -Number.MIN_VALUE);
  expectSameBounds(
    computeRowBoundsCpu(b.finish()),
    new Float64Array([
      ...[-0, -0, 0, 0],
      ...[-0, -0, -0, -0],
      ...[2, -3, 2, 1],
      ...[nan, nan, nan, nan],
      ...[1e300, -Number.MIN_VALUE, Number.POSITIVE_INFINITY, Number.MIN_VALUE],
    ]),
  );
});

test('zero rows give an empty result', () => {
  expect(computeRowBoundsCpu(new GeometryBuilder(GeometryType.Point).finish()).length).toBe(0);
});
