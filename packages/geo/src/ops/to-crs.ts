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
  const count = src.length / stride;
  if (from.geographic && projectLonLat(array, out, to.projection, converter)) {
    return new GeometryArray({ ...array.parts(), coords: out, crs: target });
  }
  const point = { x: 0, y: 0 };
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

const D2R = Math.PI / 180; // the same double as proj4's constant, so the fast path rounds as it does

/**
 * The hot case of `toCrs`, longitude/latitude to a projection: the projection's own `forward`
 * over the buffer, without proj4's per-point transform wrapper (point objects, sanity and datum
 * checks, axis handling). The same arithmetic as `converter.forward`, so the result is checked
 * bit for bit against it on up to 256 coordinates spread over the buffer: any difference (a datum
 * shift, an axis swap, a unit the wrapper applies) and the caller takes the general path.
 * Returns false then, or when the target has no `forward`.
 */
function projectLonLat(
  array: GeometryArray,
  out: Float64Array,
  target: unknown,
  converter: proj4.Converter,
): boolean {
  const dest = target as {
    projName?: string;
    forward?: (p: { x: number; y: number }) => { x: number; y: number };
    to_meter?: number;
    from_greenwich?: number;
  };
  if (dest.projName === 'longlat' || typeof dest.forward !== 'function' || dest.from_greenwich) return false;
  const forward = dest.forward.bind(dest);
  const toMeter = dest.to_meter;
  const src = array.coords;
  const stride = array.stride;
  const count = src.length / stride;
  const p = { x: 0, y: 0 };
  for (let k = 0, at = 0; k < count; k++, at += stride) {
    const x = src[at];
    const y = src[at + 1];
    if (Number.isNaN(x) && Number.isNaN(y)) continue; // an empty point
    p.x = x * D2R;
    p.y = y * D2R;
    const r = forward(p);
    if (!r) return false; // outside the projection (merc at a pole): the general path names the row
    const px = toMeter ? r.x / toMeter : r.x;
    const py = toMeter ? r.y / toMeter : r.y;
    if (!Number.isFinite(px) || !Number.isFinite(py)) return false; // the general path names the row
    out[at] = px;
    out[at + 1] = py;
  }
  const step = Math.max(1, Math.floor(count / 256));
  for (let k = 0; k < count; k += step) {
    const at = k * stride;
    if (Number.isNaN(src[at]) && Number.isNaN(src[at + 1])) continue;
    const q = converter.forward({ x: src[at], y: src[at + 1] });
    if (q.x !== out[at] || q.y !== out[at + 1]) return false;
  }
  return true;
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
