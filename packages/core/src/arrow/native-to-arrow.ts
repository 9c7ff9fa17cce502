import { type Data, type DataType, Field, FixedSizeList, Float64, List, makeData } from 'apache-arrow';
import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';
import { reachableRanges } from './compact-ranges.js';
import { compactValidity } from './validity.js';

/** GeoArrow's names for the list children of each native type, outer to inner. */
const CHILD_NAMES: Record<GeometryType, readonly string[]> = {
  [GeometryType.Point]: [],
  [GeometryType.LineString]: ['vertices'],
  [GeometryType.Polygon]: ['rings', 'vertices'],
  [GeometryType.MultiPoint]: ['points'],
  [GeometryType.MultiLineString]: ['linestrings', 'vertices'],
  [GeometryType.MultiPolygon]: ['polygons', 'rings', 'vertices'],
};

/**
 * The native interleaved GeoArrow Data of a single-type GeometryArray: `FixedSizeList<Float64>`
 * coordinates (child field named for the dimension: xy, xyz, xym, xyzm) inside the type's List
 * levels with GeoArrow's child names; child fields are non-nullable, the outermost level carries
 * the validity bitmap. Buffers are shared with the array where they already start at 0; the
 * offsets of a slice are rebased into copies and only the reachable coordinates are referenced.
 */
export function nativeArrayToData(array: GeometryArray): Data {
  if (array.type === 'mixed') throw new TypeError('nativeArrayToData: a mixed array has no native layout');
  const stride = array.stride;
  const ranges = reachableRanges(array);
  const levels = array.offsets.length;
  const [c0, c1] = ranges[levels];
  const coordType = new FixedSizeList(stride, new Field(array.dimension, new Float64(), false));
  const values = makeData({
    type: new Float64(),
    length: (c1 - c0) * stride,
    nullCount: 0,
    data: array.coords.subarray(c0 * stride, c1 * stride),
  });
  const { bitmap, nullCount } = compactValidity(array.validity, array.validityOffset, array.length);
  const outerValidity = (depth: number) =>
    depth === 0 ? { nullCount, nullBitmap: bitmap ?? undefined } : { nullCount: 0 };

  let data: Data = makeData({ type: coordType, length: c1 - c0, child: values, ...outerValidity(levels) });
  const names = CHILD_NAMES[array.type];
  for (let k = levels - 1; k >= 0; k--) {
    const [lo, hi] = ranges[k];
    const type: DataType = new List(new Field(names[k], data.type, false));
    data = makeData({
      type: type as List,
      length: hi - lo,
      valueOffsets: rebased(array.offsets[k].subarray(lo, hi + 1)),
      child: data,
      ...outerValidity(k),
    });
  }
  return data;
}

/** Offsets starting at 0: the same view when they already do, else a shifted copy. */
function rebased(offsets: Int32Array): Int32Array {
  const start = offsets[0];
  if (start === 0) return offsets;
  const out = new Int32Array(offsets.length);
  for (let i = 0; i < offsets.length; i++) out[i] = offsets[i] - start;
  return out;
}
