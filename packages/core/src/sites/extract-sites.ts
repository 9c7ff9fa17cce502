import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';

/** Voronoi/Delaunay sites taken from a geometry column. */
export interface Sites {
  /** Interleaved xy, one pair per site, in row order and coordinate order within a row. */
  xy: Float64Array;
  /** The row (of the column passed in) each site came from. */
  row: Int32Array;
}

/**
 * Every vertex of every non-null, non-empty row, as GEOS takes Voronoi and Delaunay sites:
 * a point row gives its point, other types give all their vertices (a polygon ring's closing
 * vertex too — duplicates are removed later by `uniqueSites`). Z and M are ignored. Null rows
 * and empty geometries give no site.
 *
 * @throws InvalidGeometryError naming the row when a vertex has a NaN or infinite x or y.
 */
export function extractSites(array: GeometryArray): Sites {
  const stride = array.stride;
  const coords = array.coords;
  let count = 0;
  for (let i = 0; i < array.length; i++) {
    if (!hasSites(array, i)) continue;
    const [lo, hi] = array.coordRange(i);
    count += hi - lo;
  }
  const xy = new Float64Array(count * 2);
  const row = new Int32Array(count);
  let s = 0;
  for (let i = 0; i < array.length; i++) {
    if (!hasSites(array, i)) continue;
    const [lo, hi] = array.coordRange(i);
    for (let k = lo; k < hi; k++) {
      const x = coords[k * stride];
      const y = coords[k * stride + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        throw new InvalidGeometryError(i, `coordinate ${k - lo} is not finite (${x}, ${y})`);
      }
      xy[2 * s] = x;
      xy[2 * s + 1] = y;
      row[s++] = i;
    }
  }
  return { xy, row };
}

function hasSites(array: GeometryArray, i: number): boolean {
  if (!array.isValid(i) || array.isEmpty(i)) return false;
  if (array.typeOf(i) !== GeometryType.Point || array.type === GeometryType.Point) return true;
  // a point row of a mixed column: an empty point is stored as one NaN coordinate
  const [lo] = array.coordRange(i);
  return !(Number.isNaN(array.x(lo)) && Number.isNaN(array.y(lo)));
}
