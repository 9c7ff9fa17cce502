// Conversion between GeoArrow rows and jsts geometries, for the operations that use jsts (JTS,
// the Java original of GEOS): relate for pairs the typed-array kernels do not cover, overlay,
// buffer, simplify, union, validity. One jsts object per row converted — documented where used.
import {
  type GeometryArray,
  GeometryBuilder,
  GeometryType,
  geometryTypeName,
  InvalidGeometryError,
} from '@geoframe/core';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';

// biome-ignore lint/suspicious/noExplicitAny: jsts ships loose (mostly `any`) types
export type JstsGeometry = any;

/** The one factory (floating precision, SRID 0) all conversions use. */
export const factory = new GeometryFactory();

/** Row `row` as a jsts geometry (x and y only); null for a null row. */
export function toJsts(array: GeometryArray, row: number): JstsGeometry | null {
  const type = array.typeOf(row);
  if (type === null) return null;
  if (array.isEmpty(row)) return emptyOf(type);
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const c = array.coords;
  const s = array.stride;
  const run = (ring: number) => {
    const out: Coordinate[] = [];
    for (let k = ringOffsets[ring]; k < ringOffsets[ring + 1]; k++)
      out.push(new Coordinate(c[k * s], c[k * s + 1]));
    return out;
  };
  if (type === GeometryType.Point) {
    const [lo] = array.coordRange(row);
    return factory.createPoint(new Coordinate(c[lo * s], c[lo * s + 1]));
  }
  const parts: JstsGeometry[] = [];
  for (let part = geometryOffsets[row]; part < geometryOffsets[row + 1]; part++) {
    const first = partOffsets[part];
    const last = partOffsets[part + 1];
    if (type === GeometryType.Polygon || type === GeometryType.MultiPolygon) {
      const shell = factory.createLinearRing(run(first));
      const holes = [];
      for (let ring = first + 1; ring < last; ring++) holes.push(factory.createLinearRing(run(ring)));
      parts.push(factory.createPolygon(shell, holes));
    } else if (type === GeometryType.MultiPoint) {
      for (let ring = first; ring < last; ring++)
        for (const p of run(ring)) parts.push(factory.createPoint(p));
    } else {
      for (let ring = first; ring < last; ring++) parts.push(factory.createLineString(run(ring)));
    }
  }
  switch (type) {
    case GeometryType.LineString:
    case GeometryType.Polygon:
      return parts[0];
    case GeometryType.MultiPoint:
      return factory.createMultiPoint(parts);
    case GeometryType.MultiLineString:
      return factory.createMultiLineString(parts);
    default:
      return factory.createMultiPolygon(parts);
  }
}

function emptyOf(type: GeometryType): JstsGeometry {
  switch (type) {
    case GeometryType.Point:
      return factory.createPoint();
    case GeometryType.LineString:
      return factory.createLineString();
    case GeometryType.Polygon:
      return factory.createPolygon();
    case GeometryType.MultiPoint:
      return factory.createMultiPoint();
    case GeometryType.MultiLineString:
      return factory.createMultiLineString();
    default:
      return factory.createMultiPolygon();
  }
}

const TYPES: Record<string, GeometryType> = {
  Point: GeometryType.Point,
  LineString: GeometryType.LineString,
  LinearRing: GeometryType.LineString,
  Polygon: GeometryType.Polygon,
  MultiPoint: GeometryType.MultiPoint,
  MultiLineString: GeometryType.MultiLineString,
  MultiPolygon: GeometryType.MultiPolygon,
};

/** The geoframe type of a jsts geometry; a GeometryCollection (which no column holds) is an error naming `row`. */
export function typeOfJsts(g: JstsGeometry, row: number): GeometryType {
  const type = TYPES[g.getGeometryType()];
  if (type === undefined) {
    throw new InvalidGeometryError(
      row,
      `the result is a ${g.getGeometryType()}, which a geoframe column cannot hold (mixed dimensions)`,
    );
  }
  return type;
}

/** Appends a jsts geometry (or null) as one row; `row` names it in errors. */
export function appendJsts(builder: GeometryBuilder, g: JstsGeometry | null, row: number): void {
  if (g === null) {
    builder.appendNull();
    return;
  }
  if (g.isEmpty()) {
    // GEOS and JTS answer some empties as GEOMETRYCOLLECTION EMPTY; a column holds no collections
    builder.appendEmpty(TYPES[g.getGeometryType()] ?? fallbackEmpty(builder));
    return;
  }
  const type = typeOfJsts(g, row);
  builder.beginGeometry(type);
  const pushRing = (line: JstsGeometry) => {
    builder.beginRing();
    for (const p of line.getCoordinates()) builder.pushXY(p.x, p.y);
  };
  for (let i = 0; i < g.getNumGeometries(); i++) {
    const part = g.getGeometryN(i);
    builder.beginPart();
    if (type === GeometryType.Polygon || type === GeometryType.MultiPolygon) {
      pushRing(part.getExteriorRing());
      for (let h = 0; h < part.getNumInteriorRing(); h++) pushRing(part.getInteriorRingN(h));
    } else {
      pushRing(part);
    }
  }
  builder.endGeometry();
}

function fallbackEmpty(builder: GeometryBuilder): GeometryType {
  return builder.type === 'mixed' ? GeometryType.Polygon : builder.type;
}

/** A column from jsts geometries (one per row, null for null rows), mixed unless all rows share a type. */
export function fromJsts(geoms: (JstsGeometry | null)[], crs: GeometryArray['crs']): GeometryArray {
  let common: GeometryType | 'mixed' | null = null;
  for (let i = 0; i < geoms.length; i++) {
    const g = geoms[i];
    if (g === null || (g.isEmpty() && TYPES[g.getGeometryType()] === undefined)) continue;
    const type = typeOfJsts(g, i);
    common = common === null || common === type ? type : 'mixed';
  }
  const builder = new GeometryBuilder(common ?? GeometryType.Polygon);
  for (let i = 0; i < geoms.length; i++) appendJsts(builder, geoms[i], i);
  return builder.finish(crs);
}

/** "Polygon" etc. for messages. */
export function typeName(array: GeometryArray, row: number): string {
  const type = array.typeOf(row);
  return type === null ? 'null' : geometryTypeName(type);
}
