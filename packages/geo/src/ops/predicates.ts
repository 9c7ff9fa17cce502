import { type GeometryArray, GeometryType } from '@geoframe/core';
import {
  BOUNDARY,
  EXTERIOR,
  INTERIOR,
  isPolygonalRow,
  type Location,
  locatePointInPolygonal,
  pointDistance,
  pointPolygonalDistance,
} from '@geoframe/cpu';
import DistanceOp from 'jsts/org/locationtech/jts/operation/distance/DistanceOp.js';
import RelateOp from 'jsts/org/locationtech/jts/operation/relate/RelateOp.js';
import { type JstsGeometry, toJsts } from './jsts-geometry.js';

/** The binary predicates, GeoPandas names in camelCase; `predicate(a, b)` reads "a predicate b". */
export const PREDICATES = [
  'intersects',
  'within',
  'contains',
  'touches',
  'covers',
  'coveredBy',
  'disjoint',
  'overlaps',
  'crosses',
] as const;
export type Predicate = (typeof PREDICATES)[number];

/** Checks a predicate name (GeoPandas' snake_case `covered_by` is accepted too). */
export function predicateOf(name: string): Predicate {
  const camel = name === 'covered_by' ? 'coveredBy' : name;
  if (!(PREDICATES as readonly string[]).includes(camel)) {
    throw new TypeError(`unknown predicate "${name}" (known: ${PREDICATES.join(', ')})`);
  }
  return camel as Predicate;
}

/** Lazily converted jsts geometries of one column, each row converted at most once. */
export class JstsRows {
  private readonly cache = new Map<number, JstsGeometry | null>();
  constructor(readonly array: GeometryArray) {}
  get(row: number): JstsGeometry | null {
    let g = this.cache.get(row);
    if (g === undefined) {
      g = toJsts(this.array, row);
      this.cache.set(row, g);
    }
    return g;
  }
}

/**
 * Whether `predicate(a[i], b[j])` holds, with GeoPandas' answers for missing and empty rows (null
 * → false for every predicate; empty → only `disjoint`). Point–point and point–polygon pairs are
 * decided on the coordinate buffers with exact orientation tests (robust-predicates), so points
 * on edges and vertices get exact answers; other pairs go through jsts' relate (JTS, whose
 * orientation test is exact too), one DE-9IM matrix per pair.
 */
export function testPair(predicate: Predicate, a: JstsRows, i: number, b: JstsRows, j: number): boolean {
  const A = a.array;
  const B = b.array;
  if (A.isNull(i) || B.isNull(j)) return false;
  if (A.isEmpty(i) || B.isEmpty(j)) return predicate === 'disjoint';
  const aPoint = A.typeOf(i) === GeometryType.Point;
  const bPoint = B.typeOf(j) === GeometryType.Point;
  if (aPoint && bPoint) {
    const same =
      A.x(A.coordRange(i)[0]) === B.x(B.coordRange(j)[0]) &&
      A.y(A.coordRange(i)[0]) === B.y(B.coordRange(j)[0]);
    return pointPoint(predicate, same);
  }
  if (aPoint && isPolygonalRow(B, j)) {
    const k = A.coordRange(i)[0];
    return pointPolygon(predicate, locatePointInPolygonal(B, j, A.x(k), A.y(k)));
  }
  if (bPoint && isPolygonalRow(A, i)) {
    const k = B.coordRange(j)[0];
    return polygonPoint(predicate, locatePointInPolygonal(A, i, B.x(k), B.y(k)));
  }
  return relate(predicate, a.get(i), b.get(j));
}

function pointPoint(predicate: Predicate, same: boolean): boolean {
  switch (predicate) {
    case 'touches':
    case 'overlaps':
    case 'crosses':
      return false;
    case 'disjoint':
      return !same;
    default:
      return same;
  }
}

/** Point a against polygonal b, from the point's location in b. */
function pointPolygon(predicate: Predicate, where: Location): boolean {
  switch (predicate) {
    case 'intersects':
    case 'coveredBy':
      return where !== EXTERIOR;
    case 'within':
      return where === INTERIOR;
    case 'touches':
      return where === BOUNDARY;
    case 'disjoint':
      return where === EXTERIOR;
    default: // contains, covers, overlaps, crosses: a point never contains, covers, overlaps or crosses an area
      return false;
  }
}

/** Polygonal a against point b. */
function polygonPoint(predicate: Predicate, where: Location): boolean {
  switch (predicate) {
    case 'intersects':
    case 'covers':
      return where !== EXTERIOR;
    case 'contains':
      return where === INTERIOR;
    case 'touches':
      return where === BOUNDARY;
    case 'disjoint':
      return where === EXTERIOR;
    default:
      return false;
  }
}

function relate(predicate: Predicate, g: JstsGeometry, h: JstsGeometry): boolean {
  const m = RelateOp.relate(g, h);
  const dimA = g.getDimension();
  const dimB = h.getDimension();
  switch (predicate) {
    case 'intersects':
      return m.isIntersects();
    case 'within':
      return m.isWithin();
    case 'contains':
      return m.isContains();
    case 'touches':
      return m.isTouches(dimA, dimB);
    case 'covers':
      return m.isCovers();
    case 'coveredBy':
      return m.isCoveredBy();
    case 'disjoint':
      return m.isDisjoint();
    case 'overlaps':
      return m.isOverlaps(dimA, dimB);
    default:
      return m.isCrosses(dimA, dimB);
  }
}

/** The planar distance between a[i] and b[j] (GEOS formulas); NaN when either is null or empty. */
export function distancePair(a: JstsRows, i: number, b: JstsRows, j: number): number {
  const A = a.array;
  const B = b.array;
  if (A.isNull(i) || B.isNull(j) || A.isEmpty(i) || B.isEmpty(j)) return Number.NaN;
  const aPoint = A.typeOf(i) === GeometryType.Point;
  const bPoint = B.typeOf(j) === GeometryType.Point;
  if (aPoint && bPoint) {
    const p = A.coordRange(i)[0];
    const q = B.coordRange(j)[0];
    return pointDistance(A.x(p), A.y(p), B.x(q), B.y(q));
  }
  if (aPoint && isPolygonalRow(B, j)) {
    const p = A.coordRange(i)[0];
    return pointPolygonalDistance(B, j, A.x(p), A.y(p));
  }
  if (bPoint && isPolygonalRow(A, i)) {
    const q = B.coordRange(j)[0];
    return pointPolygonalDistance(A, i, B.x(q), B.y(q));
  }
  return DistanceOp.distance(a.get(i), b.get(j));
}

/** Pairs row i of a with row i of b, or with b's only row when b has one (GeoPandas broadcasts a scalar). */
function pairing(a: GeometryArray, b: GeometryArray, op: string): (i: number) => number {
  if (b.length === 1) return () => 0;
  if (b.length !== a.length) {
    throw new RangeError(
      `${op}: the other series has ${b.length} rows, this one ${a.length} (or pass one geometry)`,
    );
  }
  return (i) => i;
}

/** `predicate(a[i], b[i])` for every row, as 0/1 (b of one row is broadcast). */
export function binaryPredicate(a: GeometryArray, b: GeometryArray, predicate: Predicate): Uint8Array {
  const other = pairing(a, b, predicate);
  const ra = new JstsRows(a);
  const rb = new JstsRows(b);
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = testPair(predicate, ra, i, rb, other(i)) ? 1 : 0;
  return out;
}

/** The distance from a[i] to b[i] for every row (b of one row is broadcast); NaN for null/empty rows. */
export function distanceRows(a: GeometryArray, b: GeometryArray): Float64Array {
  const other = pairing(a, b, 'distance');
  const ra = new JstsRows(a);
  const rb = new JstsRows(b);
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = distancePair(ra, i, rb, other(i));
  return out;
}
