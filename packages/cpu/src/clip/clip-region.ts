import { type GeometryArray, GeometryType, InvalidGeometryError } from '@geoframe/core';
import { type Geom, union } from 'polyclip-ts';
import { orient2d } from 'robust-predicates';
import { buildEdgeGrid, column, type EdgeGrid, row } from './edge-grid.js';

/**
 * A prepared clip region: the union of polygons as non-overlapping polygons (exterior rings
 * counter-clockwise, holes clockwise, every ring closed) in flat typed arrays, with an edge grid
 * for queries that cost about the number of edges near the queried place.
 *
 * Edge `k` runs from coordinate `k` to `k + 1`; it exists when both lie in the same ring (the
 * last coordinate of a ring starts no edge).
 */
export interface ClipRegion {
  /** Interleaved xy of every ring. */
  readonly coords: Float64Array;
  /** Ring → first coordinate; `rings + 1` entries. */
  readonly ringOffsets: Int32Array;
  /** Polygon → first ring (its exterior); `polygons + 1` entries. */
  readonly polygonOffsets: Int32Array;
  /** Ring → its polygon. */
  readonly ringPolygon: Int32Array;
  /** Coordinate → its ring. */
  readonly coordRing: Int32Array;
  /** minX, minY, maxX, maxY of each ring, 4 values per ring. */
  readonly ringBoxes: Float64Array;
  /** Bounding box of the whole region; `minX > maxX` (Infinity, -Infinity) when it is empty. */
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  /** The edge grid over the region's box. */
  readonly grid: EdgeGrid;
}

/**
 * The union of every non-null Polygon/MultiPolygon row of `region`, prepared for clipping
 * (see {@link ClipRegion}). Null and empty rows are skipped; rings with fewer than three
 * coordinates are dropped (a polygon whose exterior is dropped is dropped whole). Z and M are
 * ignored. The union (polyclip-ts, exact arithmetic) also repairs orientation, self-touching
 * rings and overlapping rows. No rows, or rows of zero area, give an empty region.
 *
 * @throws TypeError when the column is not Polygon, MultiPolygon or mixed
 * @throws InvalidGeometryError for a row of a mixed column that is not a (multi)polygon, or a
 *   row with a NaN or infinite coordinate (the message names the row)
 */
export function prepareClipRegion(region: GeometryArray): ClipRegion {
  const type = region.type;
  if (type !== GeometryType.Polygon && type !== GeometryType.MultiPolygon && type !== 'mixed') {
    throw new TypeError(`a clip region must be a Polygon or MultiPolygon column, got type ${String(type)}`);
  }
  const polys = readPolygons(region);
  const merged = polys.length === 0 ? [] : union(polys);
  return flatten(merged);
}

/**
 * Whether `(x, y)` is inside the region, by counting crossings of a ray to +x with the edges
 * in the grid row of `y`. Points on the region's boundary may go either way.
 */
export function regionContains(region: ClipRegion, x: number, y: number): boolean {
  if (!(x >= region.minX && x <= region.maxX && y >= region.minY && y <= region.maxY)) return false;
  const { grid, coords } = region;
  const iy = row(grid, y);
  const start = column(grid, x);
  let inside = false;
  for (let ix = start; ix < grid.nx; ix++) {
    const b = iy * grid.nx + ix;
    for (let j = grid.bucketOffsets[b]; j < grid.bucketOffsets[b + 1]; j++) {
      const k = grid.edges[j];
      const ax = coords[2 * k];
      const ay = coords[2 * k + 1];
      const bx = coords[2 * k + 2];
      const by = coords[2 * k + 3];
      if (ay > y === by > y) continue;
      // an edge spans several buckets of the row: count it in the first one the ray visits
      if (ix !== Math.max(start, column(grid, Math.min(ax, bx)))) continue;
      // robust-predicates' orient2d is negative when (a, b, p) turns counter-clockwise (y up)
      const o = orient2d(ax, ay, bx, by, x, y);
      if (by > ay ? o < 0 : o > 0) inside = !inside;
    }
  }
  return inside;
}

type Ring = [number, number][];

function readPolygons(region: GeometryArray): Ring[][] {
  const { geometryOffsets, partOffsets, ringOffsets } = region.nestedOffsets();
  const stride = region.stride;
  const c = region.coords;
  const polys: Ring[][] = [];
  for (let i = 0; i < region.length; i++) {
    const t = region.typeOf(i);
    if (t === null) continue;
    if (t !== GeometryType.Polygon && t !== GeometryType.MultiPolygon) {
      throw new InvalidGeometryError(i, `a clip region row must be a Polygon or MultiPolygon, got type ${t}`);
    }
    for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
      const poly: Ring[] = [];
      for (let r = partOffsets[p]; r < partOffsets[p + 1]; r++) {
        const lo = ringOffsets[r];
        const hi = ringOffsets[r + 1];
        const ring: Ring = [];
        for (let k = lo; k < hi; k++) {
          const x = c[k * stride];
          const y = c[k * stride + 1];
          if (!Number.isFinite(x) || !Number.isFinite(y)) {
            throw new InvalidGeometryError(i, `clip region coordinate (${x}, ${y}) is not finite`);
          }
          ring.push([x, y]);
        }
        if (ring.length < 3) {
          if (r === partOffsets[p]) break; // no exterior: drop the polygon
          continue;
        }
        poly.push(ring);
      }
      if (poly.length > 0) polys.push(poly);
    }
  }
  return polys;
}

/** Flat arrays, rings closed and oriented (exterior CCW, holes CW), plus boxes and the grid. */
function flatten(merged: Geom): ClipRegion {
  const multi = merged as Ring[][];
  let nRings = 0;
  let nCoords = 0;
  for (const poly of multi) {
    for (const ring of poly) {
      nRings++;
      nCoords += ring.length + 1;
    }
  }
  const coords = new Float64Array(2 * nCoords);
  const ringOffsets = new Int32Array(nRings + 1);
  const polygonOffsets = new Int32Array(multi.length + 1);
  const ringPolygon = new Int32Array(nRings);
  const coordRing = new Int32Array(nCoords);
  const ringBoxes = new Float64Array(4 * nRings);
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  let r = 0;
  let k = 0;
  for (let p = 0; p < multi.length; p++) {
    polygonOffsets[p] = r;
    for (let q = 0; q < multi[p].length; q++) {
      const ring = multi[p][q];
      // drop a closing duplicate; it is written back at the end
      let m = ring.length;
      if (m > 1 && ring[0][0] === ring[m - 1][0] && ring[0][1] === ring[m - 1][1]) m--;
      const reverse = q === 0 ? signedArea(ring, m) < 0 : signedArea(ring, m) > 0;
      const lo = k;
      let bx0 = Number.POSITIVE_INFINITY;
      let by0 = Number.POSITIVE_INFINITY;
      let bx1 = Number.NEGATIVE_INFINITY;
      let by1 = Number.NEGATIVE_INFINITY;
      for (let j = 0; j < m; j++) {
        const [x, y] = ring[reverse ? (m - j) % m : j];
        coords[2 * k] = x;
        coords[2 * k + 1] = y;
        coordRing[k++] = r;
        if (x < bx0) bx0 = x;
        if (x > bx1) bx1 = x;
        if (y < by0) by0 = y;
        if (y > by1) by1 = y;
      }
      coords[2 * k] = coords[2 * lo];
      coords[2 * k + 1] = coords[2 * lo + 1];
      coordRing[k++] = r;
      ringBoxes.set([bx0, by0, bx1, by1], 4 * r);
      ringPolygon[r] = p;
      ringOffsets[++r] = k;
      minX = Math.min(minX, bx0);
      minY = Math.min(minY, by0);
      maxX = Math.max(maxX, bx1);
      maxY = Math.max(maxY, by1);
    }
  }
  polygonOffsets[multi.length] = r;
  const trimmed = coords.subarray(0, 2 * k);
  const offsets = ringOffsets;
  const grid =
    nRings > 0
      ? buildEdgeGrid(trimmed, offsets, minX, minY, maxX, maxY)
      : buildEdgeGrid(trimmed, offsets, 0, 0, 0, 0);
  return {
    coords: trimmed,
    ringOffsets: offsets,
    polygonOffsets,
    ringPolygon,
    coordRing: coordRing.subarray(0, k),
    ringBoxes,
    minX,
    minY,
    maxX,
    maxY,
    grid,
  };
}

/** Shoelace area of the first `m` points (ring not closed), around the first point. */
function signedArea(ring: Ring, m: number): number {
  const ox = ring[0][0];
  const oy = ring[0][1];
  let s = 0;
  for (let j = 1; j + 1 < m; j++) {
    s += (ring[j][0] - ox) * (ring[j + 1][1] - oy) - (ring[j + 1][0] - ox) * (ring[j][1] - oy);
  }
  return s;
}
