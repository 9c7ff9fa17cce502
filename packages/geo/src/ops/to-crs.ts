import { type Crs, GeometryArray, GeometryType, InvalidGeometryError } from '@geoframe/core';
import proj4 from 'proj4';
import { CrsError, resolveCrs } from './crs-resolve.js';

/**
 * The geometries transformed to `target` (GeoPandas' `to_crs`): every coordinate of the buffer
 * goes through proj4 once, in bulk; offsets, validity and Z/M are shared or copied unchanged.
 * Axis order is x = longitude/easting, y = latitude/northing, as GeoPandas (pyproj
 * `always_xy`). Null rows stay null, empty rows empty (their NaN coordinates are not sent to
 * proj4). A coordinate proj4 cannot transform (outside the projection's domain) is an error
 * naming its row, where GeoPandas would return inf.
 */
export function toCrs(array: GeometryArray, target: Crs): GeometryArray {
  const from = resolveCrs(array.crs, 'the source CRS');
  const to = resolveCrs(target, 'the target CRS');
  if (target == null) throw new CrsError('toCrs needs a target CRS');
  const converter = proj4(from.projection, to.projection);
  const stride = array.stride;
  const src = array.coords;
  const out = new Float64Array(src.length);
  out.set(src);
  const point = { x: 0, y: 0 };
  const count = src.length / stride;
  for (let k = 0, at = 0; k < count; k++, at += stride) {
    const x = src[at];
    const y = src[at + 1];
    if (Number.isNaN(x) && Number.isNaN(y)) continue; // an empty point
    point.x = x;
    point.y = y;
    const p = converter.forward(point);
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) {
      const row = rowOfCoordinate(array, k);
      throw new InvalidGeometryError(
        row,
        `coordinate (${x}, ${y}) cannot be transformed to the target CRS (outside its domain)`,
      );
    }
    out[at] = p.x;
    out[at + 1] = p.y;
  }
  return new GeometryArray({ ...array.parts(), coords: out, crs: target });
}

/** The row whose coordinates include coordinate `k` (for error messages only). */
function rowOfCoordinate(array: GeometryArray, k: number): number {
  if (array.type === GeometryType.Point) return k;
  for (let i = 0; i < array.length; i++) {
    const [lo, hi] = array.coordRange(i);
    if (k >= lo && k < hi) return i;
  }
  return -1;
}
