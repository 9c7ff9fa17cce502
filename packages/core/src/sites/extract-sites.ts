import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';

/** Voronoi/Delaunay sites taken from a geometry column. */
export interface Sites {
  /**
   * Interleaved xy, one pair per site, in row order and coordinate order within a row (for a
   * column of finite points, a view of the column's own coordinates: read it, never write it).
   */
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
  return pointSites(array) ?? vertexSites(array);
}

/**
 * The sites of a point column without nulls whose points are all finite (no empty point): its
 * coordinates themselves (a view when they are interleaved xy), one row each — the common input,
 * taken in two passes over typed arrays instead of a loop of row lookups. Null when the column
 * is not such a column (the row by row path then also finds and names a bad row).
 */
function pointSites(array: GeometryArray): Sites | null {
  if (array.type !== GeometryType.Point || array.validity !== null) return null;
  const n = array.length;
  const stride = array.stride;
  const coords = array.coords;
  let xy: Float64Array;
  if (stride === 2) {
    xy = coords.subarray(0, 2 * n);
  } else {
    xy = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      xy[2 * i] = coords[i * stride];
      xy[2 * i + 1] = coords[i * stride + 1];
    }
  }
  // v − v is 0 for a finite v and NaN for NaN and ±∞: one sum tells whether any is not finite
  let bad = 0;
  for (let k = 0; k < 2 * n; k++) bad += xy[k] - xy[k];
  if (bad !== 0) return null;
  const row = new Int32Array(n);
  for (let i = 0; i < n; i++) row[i] = i;
  return { xy, row };
}

function vertexSites(array: GeometryArray): Sites {
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
