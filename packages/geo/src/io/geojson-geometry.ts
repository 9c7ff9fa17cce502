import {
  type ColumnType,
  type Crs,
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  UnsupportedInputError,
} from '@geoframe/core';

/** GeoJSON geometry type names → geometry types (GeometryCollection is not among them). */
const TYPES: Record<string, GeometryType> = {
  Point: GeometryType.Point,
  LineString: GeometryType.LineString,
  Polygon: GeometryType.Polygon,
  MultiPoint: GeometryType.MultiPoint,
  MultiLineString: GeometryType.MultiLineString,
  MultiPolygon: GeometryType.MultiPolygon,
};

/** Array nesting of `coordinates` above the positions, per type (a Point's is the position itself). */
const DEPTH: Record<GeometryType, number> = {
  [GeometryType.Point]: 0,
  [GeometryType.LineString]: 1,
  [GeometryType.MultiPoint]: 1,
  [GeometryType.Polygon]: 2,
  [GeometryType.MultiLineString]: 2,
  [GeometryType.MultiPolygon]: 3,
};

/** What a scan of all geometries found: the column type to build and the dimension. */
export interface GeometryScan {
  column: ColumnType;
  dimension: 'xy' | 'xyz';
}

function fail(feature: number, problem: string): never {
  throw new UnsupportedInputError(`GeoJSON feature ${feature}: ${problem}`);
}

/**
 * The geometry type of a GeoJSON geometry object, or null for a null geometry. Throws an
 * UnsupportedInputError naming `feature` for a GeometryCollection, an unknown type, or an object
 * without `coordinates`.
 */
export function geoJsonTypeOf(geometry: unknown, feature: number): GeometryType | null {
  if (geometry === null || geometry === undefined) return null;
  if (typeof geometry !== 'object' || Array.isArray(geometry)) fail(feature, 'geometry is not an object');
  const type = (geometry as { type?: unknown }).type;
  if (type === 'GeometryCollection') {
    fail(
      feature,
      'GeometryCollection is not supported (a geometry column holds one simple-feature type per row)',
    );
  }
  const t = typeof type === 'string' ? TYPES[type] : undefined;
  if (t === undefined) fail(feature, `unknown geometry type ${JSON.stringify(type)}`);
  if (!Array.isArray((geometry as { coordinates?: unknown }).coordinates)) {
    fail(feature, `${type as string} has no coordinates array`);
  }
  return t;
}

/** Checks the nesting and positions of `coords` at `depth`; returns whether any position has a z. */
function checkCoordinates(coords: unknown, depth: number, feature: number): boolean {
  if (!Array.isArray(coords))
    fail(feature, 'coordinates are not nested arrays as the geometry type requires');
  if (depth === 0) {
    if (coords.length < 2)
      fail(feature, `a position needs at least 2 numbers, got ${JSON.stringify(coords)}`);
    for (let k = 0; k < coords.length && k < 3; k++) {
      if (typeof coords[k] !== 'number' || !Number.isFinite(coords[k])) {
        fail(feature, `a position holds a non-number ${JSON.stringify(coords[k])}`);
      }
    }
    return coords.length >= 3;
  }
  let z = false;
  for (const child of coords) if (checkCoordinates(child, depth - 1, feature)) z = true;
  return z;
}

/**
 * Validates every geometry and decides the column: one type → that type; anything else (and no
 * geometry at all) → 'mixed', each row keeping its type as GeoPandas keeps it. Any position with a
 * third number makes the column xyz (values beyond the third are ignored, as RFC 7946 allows).
 */
export function scanGeometries(geometries: readonly unknown[]): GeometryScan {
  const seen = new Set<GeometryType>();
  let z = false;
  for (let i = 0; i < geometries.length; i++) {
    const type = geoJsonTypeOf(geometries[i], i);
    if (type === null) continue;
    seen.add(type);
    const coords = (geometries[i] as { coordinates: unknown[] }).coordinates;
    // an empty Point is `"coordinates": []`
    if (type === GeometryType.Point && coords.length === 0) continue;
    if (checkCoordinates(coords, DEPTH[type], i)) z = true;
  }
  return { column: columnTypeFor(seen), dimension: z ? 'xyz' : 'xy' };
}

function columnTypeFor(seen: Set<GeometryType>): ColumnType {
  if (seen.size === 1) return [...seen][0];
  return 'mixed';
}

function pushPosition(b: GeometryBuilder, p: number[]): void {
  b.pushCoord(p[0], p[1], p.length >= 3 ? p[2] : Number.NaN);
}

function pushRun(b: GeometryBuilder, run: number[][]): void {
  for (const p of run) pushPosition(b, p);
}

/**
 * Builds the geometry column from geometries already validated by {@link scanGeometries}. Empty
 * geometries (`[]` coordinates) are empty rows, null geometries null rows.
 */
export function buildGeometries(
  geometries: readonly unknown[],
  scan: GeometryScan,
  crs: Crs | null,
): GeometryArray {
  const b = new GeometryBuilder(scan.column, scan.dimension, Math.max(16, geometries.length));
  for (let i = 0; i < geometries.length; i++) {
    const type = geoJsonTypeOf(geometries[i], i);
    if (type === null) {
      b.appendNull();
      continue;
    }
    const c = (geometries[i] as { coordinates: unknown[] }).coordinates;
    b.beginGeometry(type);
    switch (type) {
      case GeometryType.Point:
        if (c.length > 0) {
          b.beginPart();
          b.beginRing();
          pushPosition(b, c as number[]);
        }
        break;
      case GeometryType.LineString:
        if (c.length > 0) {
          b.beginPart();
          b.beginRing();
          pushRun(b, c as number[][]);
        }
        break;
      case GeometryType.Polygon:
        if (c.length > 0) {
          b.beginPart();
          for (const ring of c as number[][][]) {
            b.beginRing();
            pushRun(b, ring);
          }
        }
        break;
      case GeometryType.MultiPoint:
        for (const p of c as number[][]) {
          b.beginPart();
          b.beginRing();
          pushPosition(b, p);
        }
        break;
      case GeometryType.MultiLineString:
        for (const line of c as number[][][]) {
          b.beginPart();
          b.beginRing();
          pushRun(b, line);
        }
        break;
      case GeometryType.MultiPolygon:
        for (const polygon of c as number[][][][]) {
          b.beginPart();
          for (const ring of polygon) {
            b.beginRing();
            pushRun(b, ring);
          }
        }
        break;
    }
    b.endGeometry();
  }
  return b.finish(crs);
}
