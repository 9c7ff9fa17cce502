import {
  CvtError,
  type GeometryArray,
  GeometryType,
  geometryTypeName,
  InvalidGeometryError,
} from '@geoframe/core';
import { type CvtRegion, inRegion } from './cvt-region.js';

/** The starting sites: one per non-null, non-empty Point row, and the row each came from. */
export interface CvtSites {
  xy: Float64Array;
  rows: Int32Array;
}

/**
 * The Point rows of `array` as sites (null and empty rows are skipped).
 *
 * @throws InvalidGeometryError naming the row for a non-point or a non-finite point
 * @throws CvtError when no site is left
 */
export function cvtSites(array: GeometryArray): CvtSites {
  const xy = new Float64Array(2 * array.length);
  const rows = new Int32Array(array.length);
  let n = 0;
  for (let i = 0; i < array.length; i++) {
    const t = array.typeOf(i);
    if (t === null || array.isEmpty(i)) continue;
    if (t !== GeometryType.Point) {
      throw new InvalidGeometryError(
        i,
        `centroidalVoronoi sites must be Points, this row is a ${geometryTypeName(t)}`,
      );
    }
    const at = array.coordRange(i)[0] * array.stride;
    const x = array.coords[at];
    const y = array.coords[at + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y))
      throw new InvalidGeometryError(i, `point (${x}, ${y}) is not finite`);
    xy[2 * n] = x;
    xy[2 * n + 1] = y;
    rows[n++] = i;
  }
  if (n === 0)
    throw new CvtError('centroidalVoronoi needs at least 1 site (a non-null, non-empty Point row)');
  return { xy: xy.slice(0, 2 * n), rows: rows.slice(0, n) };
}

/** @throws InvalidGeometryError naming the first row whose site lies outside the region. */
export function checkSitesInRegion(sites: CvtSites, region: CvtRegion): void {
  for (let i = 0; i < sites.rows.length; i++) {
    const x = sites.xy[2 * i];
    const y = sites.xy[2 * i + 1];
    if (!inRegion(region, x, y)) {
      throw new InvalidGeometryError(sites.rows[i], `site (${x}, ${y}) lies outside the CVT region`);
    }
  }
}
