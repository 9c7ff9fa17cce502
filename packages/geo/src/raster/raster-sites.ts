import { type GeometryArray, GeometryType, geometryTypeName, InvalidGeometryError } from '@geoframe/core';

/** The sites of a raster Voronoi diagram taken from a geometry column. */
export interface RasterSites {
  /** Interleaved coordinates, `dims` per site, in row order. */
  coords: Float64Array;
  dims: 2 | 3;
  /** Per site: the input row it came from (ascending). */
  rows: Int32Array;
}

/**
 * The sites of `voronoiRaster` (2D) or `voronoiVolume` (3D, `dims` 3): one per Point row, in row
 * order; null and empty rows are skipped. In 3D a point's own z is used when the column has z;
 * xy points (or a z of NaN) are placed at the plane `z`.
 *
 * @throws InvalidGeometryError naming the row for a non-point row, a non-finite coordinate, or
 *   (3D) a point without z when no `z` plane is given.
 */
export function rasterSites(array: GeometryArray, dims: 2 | 3, z?: number): RasterSites {
  const n = array.length;
  const coords = new Float64Array(n * dims);
  const rows = new Int32Array(n);
  const hasZ = array.dimension === 'xyz' || array.dimension === 'xyzm';
  if (z !== undefined && !Number.isFinite(z))
    throw new RangeError(`z plane must be a finite number, got ${z}`);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const type = array.typeOf(i);
    if (type === null || array.isEmpty(i)) continue;
    if (type !== GeometryType.Point) {
      throw new InvalidGeometryError(
        i,
        `raster Voronoi sites must be Points, this row is a ${geometryTypeName(type)}`,
      );
    }
    const at = array.coordRange(i)[0] * array.stride;
    const x = array.coords[at];
    const y = array.coords[at + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      throw new InvalidGeometryError(i, `point (${x}, ${y}) is not finite`);
    }
    coords[count * dims] = x;
    coords[count * dims + 1] = y;
    if (dims === 3) {
      const own = hasZ ? array.coords[at + 2] : Number.NaN;
      const zz = Number.isNaN(own) ? z : own;
      if (zz === undefined) {
        throw new InvalidGeometryError(i, 'point has no z: give voronoiVolume a `z` plane for xy points');
      }
      if (!Number.isFinite(zz)) throw new InvalidGeometryError(i, `point z ${zz} is not finite`);
      coords[count * dims + 2] = zz;
    }
    rows[count++] = i;
  }
  return { coords: coords.slice(0, count * dims), dims, rows: rows.slice(0, count) };
}

/**
 * The default raster bounds: the sites' bounding box ([xmin, ymin, xmax, ymax], 3D with z), each
 * zero-width axis grown on both sides by half the largest extent (by 0.5 when every extent is 0,
 * e.g. one site; at least 1e-9 of the coordinate's magnitude), so the grid has area. No sites: the unit square (cube) at the origin.
 */
export function defaultRasterBounds(sites: RasterSites): number[] {
  const { coords, dims } = sites;
  const lo = new Array<number>(dims).fill(Infinity);
  const hi = new Array<number>(dims).fill(-Infinity);
  for (let k = 0; k < coords.length; k += dims) {
    for (let a = 0; a < dims; a++) {
      const v = coords[k + a];
      if (v < lo[a]) lo[a] = v;
      if (v > hi[a]) hi[a] = v;
    }
  }
  if (coords.length === 0) {
    lo.fill(0);
    hi.fill(1);
  }
  let largest = 0;
  for (let a = 0; a < dims; a++) largest = Math.max(largest, hi[a] - lo[a]);
  const pad = largest > 0 ? largest / 2 : 0.5;
  for (let a = 0; a < dims; a++) {
    if (hi[a] > lo[a]) continue;
    // far from the origin a small pad would vanish in rounding
    const grow = Math.max(pad, Math.abs(lo[a]) * 1e-9);
    lo[a] -= grow;
    hi[a] += grow;
  }
  return [...lo, ...hi];
}
