import { type GeometryArray, GeometryType, offsetLevels } from '@geoframe/core';
import { type Data, Field, Float64, List, makeData, Struct } from 'apache-arrow';

/** GeoArrow's child field names, outer list level to coordinates. */
const CHILD_NAMES: Record<GeometryType, string[]> = {
  [GeometryType.Point]: [],
  [GeometryType.LineString]: ['vertices'],
  [GeometryType.Polygon]: ['rings', 'vertices'],
  [GeometryType.MultiPoint]: ['points'],
  [GeometryType.MultiLineString]: ['linestrings', 'vertices'],
  [GeometryType.MultiPolygon]: ['polygons', 'rings', 'vertices'],
};

/** Whether the array's row 0 starts its buffers (no slice offset), so they can be written as they are. */
function isCompact(array: GeometryArray): boolean {
  if (array.validityOffset !== 0) return false;
  return offsetLevels(array.type) === 0 || array.offsets[0][0] === 0;
}

/**
 * A native GeometryArray as a GeoArrow column with separated coordinates (a struct of x, y[, z][,
 * m] Float64 children), the layout GeoParquet 1.1 requires for its native encodings. Offsets are
 * shared, coordinates de-interleaved; a sliced array is compacted first. Mixed arrays have no
 * native separated layout: RangeError.
 */
export function toSeparatedArrow(
  array: GeometryArray,
  name: string,
  metadata: Map<string, string>,
): { field: Field; data: Data } {
  if (array.type === 'mixed') throw new RangeError('a mixed geometry column has no native GeoArrow layout');
  if (!isCompact(array)) array = array.take(Int32Array.from({ length: array.length }, (_, i) => i));
  const dims = array.dimension.split('');
  const stride = array.stride;
  const count = array.coords.length / stride;
  const coordFields = dims.map((d) => new Field(d, new Float64(), false));
  const children = dims.map((_, d) => {
    const values = new Float64Array(count);
    for (let k = 0; k < count; k++) values[k] = array.coords[k * stride + d];
    return makeData({ type: new Float64(), length: count, nullCount: 0, data: values });
  });
  const nullCount = array.nullCount();
  const nullBitmap = nullCount > 0 ? (array.validity ?? undefined) : undefined;
  const levels = offsetLevels(array.type);
  let data: Data = makeData({
    type: new Struct(coordFields),
    length: count,
    nullCount: levels === 0 ? nullCount : 0,
    nullBitmap: levels === 0 ? nullBitmap : undefined,
    children,
  });
  const names = CHILD_NAMES[array.type as GeometryType];
  for (let level = levels - 1; level >= 0; level--) {
    const offsets = array.offsets[level];
    const outer = level === 0;
    data = makeData({
      type: new List(new Field(names[level], data.type, false)),
      length: outer ? array.length : offsets.length - 1,
      nullCount: outer ? nullCount : 0,
      nullBitmap: outer ? nullBitmap : undefined,
      valueOffsets: offsets,
      child: data,
    });
  }
  return { field: new Field(name, data.type, true, metadata), data };
}
