import { type GeometryArray, GeometryType } from '@geoframe/core';
import { orient2d } from 'robust-predicates';

/** Where a point lies relative to a geometry (DE-9IM's three locations). */
export const EXTERIOR = 0;
export const BOUNDARY = 1;
export const INTERIOR = 2;
export type Location = typeof EXTERIOR | typeof BOUNDARY | typeof INTERIOR;

/** Whether row `row` is a Polygon or MultiPolygon (the rows {@link locatePointInPolygonal} reads). */
export function isPolygonalRow(array: GeometryArray, row: number): boolean {
  const type = array.typeOf(row);
  return type === GeometryType.Polygon || type === GeometryType.MultiPolygon;
}

/**
 * The location of (x, y) relative to the polygonal row `row` (Polygon or MultiPolygon), decided
 * exactly: every side-of-edge test is robust-predicates' orient2d on the f64 coordinates, so a
 * point on an edge or a vertex is BOUNDARY whatever its magnitude. A polygon's interior is inside
 * its shell and outside its holes; a MultiPolygon's location is the strongest over its parts
 * (parts of a valid MultiPolygon meet at points only). Empty rows: EXTERIOR.
 */
export function locatePointInPolygonal(array: GeometryArray, row: number, x: number, y: number): Location {
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const coords = array.coords;
  const stride = array.stride;
  let best: Location = EXTERIOR;
  for (let part = geometryOffsets[row]; part < geometryOffsets[row + 1]; part++) {
    let where: Location = EXTERIOR;
    for (let ring = partOffsets[part]; ring < partOffsets[part + 1]; ring++) {
      const inRing = locateInRing(coords, stride, ringOffsets[ring], ringOffsets[ring + 1], x, y);
      if (inRing === BOUNDARY) {
        where = BOUNDARY;
        break;
      }
      if (ring === partOffsets[part]) {
        if (inRing === EXTERIOR) break; // outside the shell
        where = INTERIOR;
      } else if (inRing === INTERIOR) {
        where = EXTERIOR; // inside a hole
        break;
      }
    }
    if (where > best) best = where;
    if (best === INTERIOR) return best;
  }
  return best;
}

/**
 * A ring's crossing number along the ray to +x, with the half-open rule on y so that a vertex on
 * the ray counts once; BOUNDARY as soon as the point is on an edge (orient2d = 0 within the
 * edge's box).
 */
function locateInRing(
  coords: Float64Array,
  stride: number,
  start: number,
  end: number,
  x: number,
  y: number,
): Location {
  let inside = false;
  for (let k = start; k + 1 < end; k++) {
    const ax = coords[k * stride];
    const ay = coords[k * stride + 1];
    const bx = coords[(k + 1) * stride];
    const by = coords[(k + 1) * stride + 1];
    const aAbove = ay > y;
    const bAbove = by > y;
    if (aAbove === bAbove) {
      // a horizontal edge at y, or an edge touching y at a vertex: only the boundary test matters
      if ((ay === y || by === y) && onSegment(ax, ay, bx, by, x, y)) return BOUNDARY;
      continue;
    }
    const o = orient2d(ax, ay, bx, by, x, y);
    if (o === 0) return BOUNDARY; // y is strictly between ay and by, so collinear means on the edge
    // robust-predicates' orient2d is negative when p is left of a → b (counter-clockwise)
    if (o < 0 === by > ay) inside = !inside;
  }
  return inside ? INTERIOR : EXTERIOR;
}

/** Whether (x, y) is on the closed segment a–b (exact). */
export function onSegment(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  if (x < Math.min(ax, bx) || x > Math.max(ax, bx) || y < Math.min(ay, by) || y > Math.max(ay, by))
    return false;
  return orient2d(ax, ay, bx, by, x, y) === 0;
}

/**
 * The distance from (x, y) to the segment a–b, computed as GEOS does (projection factor, then
 * the perpendicular from the cross product), so that equal distances here are equal in GEOS and
 * ties in a nearest join fall the same way.
 */
export function pointSegmentDistance(
  x: number,
  y: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  if (ax === bx && ay === by) return pointDistance(x, y, ax, ay);
  const len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
  const r = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / len2;
  if (r <= 0) return pointDistance(x, y, ax, ay);
  if (r >= 1) return pointDistance(x, y, bx, by);
  const s = ((ay - y) * (bx - ax) - (ax - x) * (by - ay)) / len2;
  return Math.abs(s) * Math.sqrt(len2);
}

/** Euclidean distance as GEOS computes it (sqrt of the sum of squares, not hypot). */
export function pointDistance(x: number, y: number, ax: number, ay: number): number {
  const dx = x - ax;
  const dy = y - ay;
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * The distance from (x, y) to a polygonal row: 0 when the point is inside or on it, else the
 * distance to the nearest edge of any ring. Infinity for an empty row.
 */
export function pointPolygonalDistance(array: GeometryArray, row: number, x: number, y: number): number {
  if (locatePointInPolygonal(array, row, x, y) !== EXTERIOR) return 0;
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const c = array.coords;
  const s = array.stride;
  let best = Number.POSITIVE_INFINITY;
  const ringStart = partOffsets[geometryOffsets[row]];
  const ringEnd = partOffsets[geometryOffsets[row + 1]];
  for (let ring = ringStart; ring < ringEnd; ring++) {
    for (let k = ringOffsets[ring]; k + 1 < ringOffsets[ring + 1]; k++) {
      const d = pointSegmentDistance(x, y, c[k * s], c[k * s + 1], c[(k + 1) * s], c[(k + 1) * s + 1]);
      if (d < best) best = d;
    }
  }
  return best;
}
