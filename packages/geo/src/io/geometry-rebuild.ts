import {
  type ColumnType,
  type Dimension,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
} from '@geoframe/core';

/**
 * Copies `array` into a new array of column type `type` and dimension `dimension` (a Point row
 * into a MultiPoint column, any row into 'mixed', xy into xyz with z = NaN, …). Used when the
 * batches of one column decoded to different types and must agree. Rows must fit `type`.
 */
export function rebuildGeometryArray(
  array: GeometryArray,
  type: ColumnType,
  dimension: Dimension,
): GeometryArray {
  const b = new GeometryBuilder(type, dimension, Math.max(16, array.length));
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const s = array.stride;
  const c = array.coords;
  const z = array.dimension === 'xyz' || array.dimension === 'xyzm' ? 2 : -1;
  const m = array.dimension === 'xym' ? 2 : array.dimension === 'xyzm' ? 3 : -1;
  for (let i = 0; i < array.length; i++) {
    const rowType = array.typeOf(i);
    if (rowType === null) {
      b.appendNull();
      continue;
    }
    b.beginGeometry(rowType);
    // an empty row of a mixed column still has its one part (with no ring): none is written
    const [first, end] = array.coordRange(i);
    if (end > first) {
      for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
        b.beginPart();
        for (let r = partOffsets[p]; r < partOffsets[p + 1]; r++) {
          b.beginRing();
          for (let k = ringOffsets[r]; k < ringOffsets[r + 1]; k++) {
            const at = k * s;
            b.pushCoord(c[at], c[at + 1], z < 0 ? Number.NaN : c[at + z], m < 0 ? Number.NaN : c[at + m]);
          }
        }
      }
    }
    b.endGeometry();
  }
  return b.finish(array.crs);
}

const MULTI: [GeometryType, GeometryType][] = [
  [GeometryType.Point, GeometryType.MultiPoint],
  [GeometryType.LineString, GeometryType.MultiLineString],
  [GeometryType.Polygon, GeometryType.MultiPolygon],
];

/** The column type that holds rows of all `types`: the one type, else 'mixed' (rows keep their types). */
export function commonColumnType(types: ReadonlySet<ColumnType>): ColumnType {
  if (types.size === 1) return [...types][0];
  return 'mixed';
}

/**
 * The Multi type a native GeoArrow layout needs for rows of `types`: a single type and its Multi
 * type (Polygon and MultiPolygon rows) → the Multi type, as GeoPandas promotes them when it
 * writes geoarrow encodings; null when the rows have no common native layout.
 */
export function nativeTypeFor(types: ReadonlySet<ColumnType>): GeometryType | null {
  if (types.size === 1 && !types.has('mixed')) return [...types][0] as GeometryType;
  for (const [single, multi] of MULTI) {
    if ([...types].every((t) => t === single || t === multi)) return multi;
  }
  return null;
}

/** The dimension holding all of `dimensions` (xy < xyz, xym < xyzm). */
export function commonDimension(dimensions: ReadonlySet<Dimension>): Dimension {
  const z = dimensions.has('xyz') || dimensions.has('xyzm');
  const m = dimensions.has('xym') || dimensions.has('xyzm');
  return z ? (m ? 'xyzm' : 'xyz') : m ? 'xym' : 'xy';
}

/**
 * Makes the arrays of one column's batches agree in type and dimension: arrays without a valid
 * row do not vote; those that differ from the common type/dimension are rebuilt. Returns the
 * arrays unchanged when they already agree.
 */
export function unifyArrays(arrays: GeometryArray[]): GeometryArray[] {
  if (arrays.length < 2) return arrays;
  const types = new Set<ColumnType>();
  const dimensions = new Set<Dimension>();
  for (const a of arrays) {
    if (a.nullCount() === a.length) continue;
    types.add(a.type);
    dimensions.add(a.dimension);
  }
  if (types.size === 0) {
    types.add(arrays[0].type);
    dimensions.add(arrays[0].dimension);
  }
  const type = commonColumnType(types);
  const dimension = commonDimension(dimensions);
  return arrays.map((a) =>
    a.type === type && a.dimension === dimension ? a : rebuildGeometryArray(a, type, dimension),
  );
}
