import {
  type ColumnType,
  type Dimension,
  GeometryArray,
  GeometryBuilder,
  GeometryType,
} from '@geoframe/core';
import { computeRowBoundsCpu, computeRowBoundsGpu } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { expectSameBounds } from './bounds-assert.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { randomGeometryArray, randomValue, seededRandom } from './random-geometry.js';

const TYPES: ColumnType[] = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
  'mixed',
];
const SIZES = [0, 1, 2, 255, 256, 257, 4097, 100003];
const DIMENSIONS: Dimension[] = ['xy', 'xyz', 'xym', 'xyzm'];

const typeLabel = (type: ColumnType): string => (type === 'mixed' ? 'mixed' : GeometryType[type]);

describe.each(TYPES.map((type) => [typeLabel(type), type] as const))(
  '%s columns: GPU bounds equal the CPU bounds',
  (_label, type) => {
    test.each(SIZES)('%i rows, with their slices', async (rows) => {
      const ctx = await requireGpu();
      const dimension = DIMENSIONS[rows % DIMENSIONS.length];
      const array = randomGeometryArray(type, dimension, rows, 1000 + rows);
      expect(array.length).toBe(rows);
      expectSameBounds(await computeRowBoundsGpu(ctx, array), computeRowBoundsCpu(array));
      // slices share buffers: offsets that do not start at 0, validity at an odd bit offset
      for (const [start, end] of [
        [3, rows - 2],
        [Math.floor(rows / 2), rows],
        [1, 2],
      ]) {
        const slice = array.slice(start, end);
        expectSameBounds(await computeRowBoundsGpu(ctx, slice), computeRowBoundsCpu(slice));
      }
    });
  },
);

describe('row bounds on the GPU', () => {
  test('hand-computed bounds: -0, NaN skipped per axis, ulp differences, nulls, empties', async () => {
    const ctx = await requireGpu();
    const b = new GeometryBuilder(GeometryType.MultiLineString);
    const row = (lines: number[][]) => {
      b.beginGeometry(GeometryType.MultiLineString);
      for (const line of lines) {
        b.beginPart();
        b.beginRing();
        for (let k = 0; k < line.length; k += 2) b.pushXY(line[k], line[k + 1]);
      }
      b.endGeometry();
    };
    row([[0, -0, -0, 0]]);
    row([[1, 1 + Number.EPSILON, 1 - Number.EPSILON / 2, 1]]);
    row([
      [Number.NaN, 5, 3, Number.NaN],
      [-1e300, Number.MIN_VALUE],
    ]);
    b.appendNull();
    b.appendEmpty(GeometryType.MultiLineString);
    row([[], [Number.NaN, Number.NaN]]);
    row([[Number.NEGATIVE_INFINITY, 2, Number.POSITIVE_INFINITY, -Number.MIN_VALUE]]);
    const nan = Number.NaN;
    const expected = new Float64Array([
      ...[-0, -0, 0, 0],
      ...[1 - Number.EPSILON / 2, 1, 1, 1 + Number.EPSILON],
      ...[-1e300, Number.MIN_VALUE, 3, 5],
      ...[nan, nan, nan, nan],
      ...[nan, nan, nan, nan],
      ...[nan, nan, nan, nan],
      ...[Number.NEGATIVE_INFINITY, -Number.MIN_VALUE, Number.POSITIVE_INFINITY, 2],
    ]);
    const array = b.finish();
    expectSameBounds(computeRowBoundsCpu(array), expected);
    expectSameBounds(await computeRowBoundsGpu(ctx, array), expected);
  });

  test('empty points and null points are NaN', async () => {
    const ctx = await requireGpu();
    const b = new GeometryBuilder(GeometryType.Point, 'xyz');
    b.appendPoint(-0, 2, 7);
    b.appendEmpty(GeometryType.Point);
    b.appendNull();
    b.appendPoint(Number.NaN, 4);
    const nan = Number.NaN;
    expectSameBounds(
      await computeRowBoundsGpu(ctx, b.finish()),
      new Float64Array([-0, 2, -0, 2, nan, nan, nan, nan, nan, nan, nan, nan, nan, 4, nan, 4]),
    );
  });

  test('a row of 2e5 vertices among short rows (cut into pieces, one thread each)', async () => {
    const ctx = await requireGpu();
    const rand = seededRandom(7);
    const b = new GeometryBuilder(GeometryType.Polygon);
    const polygon = (vertices: number) => {
      b.beginGeometry(GeometryType.Polygon);
      b.beginPart();
      b.beginRing();
      for (let k = 0; k < vertices; k++) b.pushXY((rand() - 0.5) * 1e6, (rand() - 0.5) * 1e6);
      b.endGeometry();
    };
    for (let i = 0; i < 300; i++) polygon(4);
    polygon(200_000);
    b.appendNull();
    for (let i = 0; i < 300; i++) polygon(5);
    const array = b.finish();
    expectSameBounds(await computeRowBoundsGpu(ctx, array), computeRowBoundsCpu(array));
    // the extreme values sit deep inside the long row, far from its first piece
    const long = array.coordRange(300);
    const coords = array.coords.slice();
    coords[(long[0] + 150_000) * 2] = 1e308;
    coords[(long[0] + 199_999) * 2 + 1] = -1e308;
    const patched = new GeometryArray({ ...array.parts(), coords });
    const bounds = await computeRowBoundsGpu(ctx, patched);
    expect(bounds[300 * 4 + 2]).toBe(1e308);
    expect(bounds[300 * 4 + 1]).toBe(-1e308);
    expectSameBounds(bounds, computeRowBoundsCpu(patched));
  });

  test('arrays larger than one binding run in chunks, splitting long rows between chunks', async () => {
    const ctx = await requireGpu();
    for (const type of TYPES) {
      const array = randomGeometryArray(type, 'xyz', 4097, 31, { maxCoords: 40 });
      const options = { maxBindingBytes: 4096, pieceSize: 16 };
      expectSameBounds(await computeRowBoundsGpu(ctx, array, options), computeRowBoundsCpu(array));
      const slice = array.slice(5, 3001);
      expectSameBounds(await computeRowBoundsGpu(ctx, slice, options), computeRowBoundsCpu(slice));
    }
    // one row bigger than a binding: spread over many chunks and merged on the CPU
    const rand = seededRandom(3);
    const b = new GeometryBuilder(GeometryType.LineString);
    b.appendNull();
    b.beginGeometry(GeometryType.LineString);
    b.beginRing();
    for (let k = 0; k < 20_000; k++) b.pushXY(randomValue(rand), randomValue(rand));
    b.endGeometry();
    b.appendEmpty(GeometryType.LineString);
    const array = b.finish();
    const bounds = await computeRowBoundsGpu(ctx, array, { maxBindingBytes: 8192, pieceSize: 64 });
    expectSameBounds(bounds, computeRowBoundsCpu(array));
  });

  test('grids of more workgroups than one dimension allows are split over x and y', async () => {
    const ctx = await requireGpu();
    const array = randomGeometryArray(GeometryType.MultiPolygon, 'xy', 100003, 5);
    const bounds = await computeRowBoundsGpu(ctx, array, { maxWorkgroupsPerDimension: 64, pieceSize: 3 });
    expectSameBounds(bounds, computeRowBoundsCpu(array));
  });
});
