import { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';
import { rowDimension } from './row-dimension.js';

/**
 * Planar centroid per row, as GEOS (and GeoPandas' `centroid`) computes it, as a Point column
 * with the same CRS and the same null rows:
 *
 * - polygons: the area-weighted centroid, holes subtracting (ring orientation does not matter);
 *   when the total area is 0, the length-weighted centroid of the rings;
 * - linestrings: the length-weighted centroid of the segments;
 * - when the total length is 0 too, the average of the first coordinate of every ring/linestring
 *   (GEOS's fallback: a zero-length line counts as its first point);
 * - points: the average of the points.
 *
 * Each row is one geometry, so its own type decides (in mixed columns too), as GEOS's Centroid
 * decides by the highest dimension present. Empty rows give POINT EMPTY (NaN coordinates); null
 * rows stay null. Only x and y are read; the result is 2D.
 *
 * Sums are taken relative to the row's first coordinate (ring areas relative to each ring's
 * first vertex), so data far from the origin keeps its precision; results agree with GEOS up to
 * rounding. A ring's orientation is read from the sign of its area, which is GEOS's orientation
 * for any simple ring (self-crossing rings, which are invalid, may differ).
 */
export function centroid(array: GeometryArray): GeometryArray {
  const n = array.length;
  const out = new Float64Array(2 * n).fill(Number.NaN);
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  const coords = array.coords;
  const stride = array.stride;
  for (let i = 0; i < n; i++) {
    if (!array.isValid(i)) continue;
    const dim = rowDimension(array, i);
    const firstRing = partOffsets[geometryOffsets[i]];
    const endRing = partOffsets[geometryOffsets[i + 1]];
    // base point: the row's first coordinate that is not NaN (only points can be NaN: empty points)
    let base = ringOffsets[firstRing];
    const endCoord = ringOffsets[endRing];
    while (base < endCoord && Number.isNaN(coords[base * stride])) base++;
    if (base === endCoord) continue; // empty
    const bx = coords[base * stride];
    const by = coords[base * stride + 1];
    // each helper leaves (x, y) in `acc`; the fallbacks run only when the previous one finds nothing
    if (!(dim === 2 && areaCentroid(coords, stride, geometryOffsets, partOffsets, ringOffsets, i, bx, by))) {
      if (!(dim >= 1 && lineCentroid(coords, stride, ringOffsets, firstRing, endRing, bx, by))) {
        pointCentroid(coords, stride, ringOffsets, firstRing, endRing, bx, by);
      }
    }
    out[2 * i] = acc[0];
    out[2 * i + 1] = acc[1];
  }
  return new GeometryArray({
    type: GeometryType.Point,
    dimension: 'xy',
    coords: out,
    offsets: [],
    length: n,
    validity: array.validity,
    validityOffset: array.validityOffset,
    crs: array.crs,
  });
}

/** Where the helpers put their result (x, y), to avoid allocating per row. */
const acc = new Float64Array(2);

/**
 * Area-weighted centroid of polygon row `i` into `acc`; false when the total area is 0.
 * GEOS fans triangles out from the shell's first vertex and sums `area2 × (p0 + p1 + p2)`; this
 * fans from each ring's first vertex `R` (the same moments for a closed ring) and carries the
 * ring's moment to the row base `B` as `M + 3·A2·(R − B)`.
 */
function areaCentroid(
  coords: Float64Array,
  stride: number,
  geometryOffsets: Int32Array,
  partOffsets: Int32Array,
  ringOffsets: Int32Array,
  i: number,
  bx: number,
  by: number,
): boolean {
  let area2 = 0;
  let mx = 0;
  let my = 0;
  for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
    const shell = partOffsets[p];
    for (let r = shell; r < partOffsets[p + 1]; r++) {
      const start = ringOffsets[r];
      const end = ringOffsets[r + 1];
      if (end - start < 3) continue;
      const rx = coords[start * stride];
      const ry = coords[start * stride + 1];
      let ringArea2 = 0;
      let ringMx = 0;
      let ringMy = 0;
      let x1 = 0;
      let y1 = 0;
      for (let k = (start + 1) * stride, last = end * stride; k < last; k += stride) {
        const x2 = coords[k] - rx;
        const y2 = coords[k + 1] - ry;
        const a = x1 * y2 - x2 * y1;
        ringArea2 += a;
        ringMx += a * (x1 + x2);
        ringMy += a * (y1 + y2);
        x1 = x2;
        y1 = y2;
      }
      // shells add |area|, holes subtract it, whatever the winding
      const sign = ringArea2 < 0 === (r === shell) ? -1 : 1;
      area2 += sign * ringArea2;
      mx += sign * (ringMx + 3 * ringArea2 * (rx - bx));
      my += sign * (ringMy + 3 * ringArea2 * (ry - by));
    }
  }
  if (!(Math.abs(area2) > 0)) return false;
  acc[0] = bx + mx / 3 / area2;
  acc[1] = by + my / 3 / area2;
  return true;
}

/** Length-weighted centroid of the segments of rings `[firstRing, endRing)` into `acc`; false when the length is 0. */
function lineCentroid(
  coords: Float64Array,
  stride: number,
  ringOffsets: Int32Array,
  firstRing: number,
  endRing: number,
  bx: number,
  by: number,
): boolean {
  let length = 0;
  let sx = 0;
  let sy = 0;
  for (let r = firstRing; r < endRing; r++) {
    for (let k = (ringOffsets[r] + 1) * stride, last = ringOffsets[r + 1] * stride; k < last; k += stride) {
      const x0 = coords[k - stride];
      const y0 = coords[k - stride + 1];
      const x1 = coords[k];
      const y1 = coords[k + 1];
      const dx = x1 - x0;
      const dy = y1 - y0;
      const len = Math.sqrt(dx * dx + dy * dy);
      if (len === 0) continue;
      length += len;
      sx += (len * (x0 - bx + (x1 - bx))) / 2;
      sy += (len * (y0 - by + (y1 - by))) / 2;
    }
  }
  if (!(length > 0)) return false;
  acc[0] = bx + sx / length;
  acc[1] = by + sy / length;
  return true;
}

/**
 * Average of the first coordinate of every non-empty ring `[firstRing, endRing)` into `acc`
 * (for points each ring is one point; NaN points, i.e. empty ones, are skipped).
 */
function pointCentroid(
  coords: Float64Array,
  stride: number,
  ringOffsets: Int32Array,
  firstRing: number,
  endRing: number,
  bx: number,
  by: number,
): void {
  let count = 0;
  let sx = 0;
  let sy = 0;
  for (let r = firstRing; r < endRing; r++) {
    const start = ringOffsets[r];
    if (ringOffsets[r + 1] === start) continue;
    const x = coords[start * stride];
    if (Number.isNaN(x)) continue;
    count++;
    sx += x - bx;
    sy += coords[start * stride + 1] - by;
  }
  acc[0] = count > 0 ? bx + sx / count : Number.NaN;
  acc[1] = count > 0 ? by + sy / count : Number.NaN;
}
