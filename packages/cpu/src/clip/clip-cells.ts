import { type Geom, intersection } from 'polyclip-ts';
import { orient2d } from 'robust-predicates';
import type { PolygonBuffers } from '../delaunay/buffers.js';
import type { WorkProgress } from '../workers/work-meter.js';
import { BoxRingClipper } from './box-clip-ring.js';
import { type ClipRegion, regionContains } from './clip-region.js';
import { cutConvexCell } from './convex-cut.js';
import { edgesMeetingBox } from './edge-grid.js';
import { type MultiPolygonBuffers, MultiPolygonWriter } from './multi-polygon-buffers.js';

/** How many cells took each path of {@link clipCellsToRegion}. */
export interface ClipCounts {
  /** Cells whose box misses the region's box, and cells of fewer than 3 vertices (empty). */
  outsideBox: number;
  /** Cells the region's boundary does not reach, outside the region (empty). */
  outside: number;
  /** Cells the region's boundary does not reach, inside the region (copied as they are). */
  inside: number;
  /** Cells holding whole region rings (islands or holes) that touch no cell edge (no polyclip). */
  enclosing: number;
  /** Cells the region's boundary crosses or touches: intersected with polyclip-ts. */
  crossing: number;
  /** Of the crossing cells, those cut without polyclip-ts (`convexCut`). */
  cut: number;
}

/** Counts of zero, to pass to {@link clipCellsToRegion}. */
export function zeroClipCounts(): ClipCounts {
  return { outsideBox: 0, outside: 0, inside: 0, enclosing: 0, crossing: 0, cut: 0 };
}

/**
 * Intersects every cell with the region: cell `i`'s result is the polygons
 * `[geometryOffsets[i], geometryOffsets[i + 1])` of the returned buffers (none: empty). Rings
 * are closed, exteriors counter-clockwise, holes clockwise.
 *
 * Cells must be convex, counter-clockwise and closed (as `voronoiCells` makes them); a cell
 * with fewer than 3 distinct vertices gives an empty result. Paths, cheapest first:
 * - the cell's box misses the region's box: empty;
 * - no region edge touches the closed cell (edges from the grid, tested exactly against the
 *   convex ring): the cell is inside (copied bit for bit) or outside (empty), decided by one
 *   point-in-region test;
 * - region rings lie wholly inside the cell, and no edge touches its boundary: those rings'
 *   polygons (islands) are copied, and holes inside the cell become holes of the cell;
 * - otherwise the cell goes to polyclip-ts, with the region rings first cut down to a box a
 *   little larger than the cell (Sutherland–Hodgman, which keeps the winding inside the box).
 * Coordinates of crossing cells come from polyclip-ts: cell and region vertices are kept
 * exactly, new intersection points are rounded; collinear vertices may be dropped.
 *
 * @param counts when given, the number of cells per path is added to it
 * @param onProgress hears the share of the cells done (0 to 1, about every 1/64 of them)
 * @param convexCut a crossing cell that one ring enters and leaves once is cut without
 *   polyclip-ts (`cutConvexCell`; its two new points rounded as polyclip-ts rounds its own)
 */
export function clipCellsToRegion(
  cells: PolygonBuffers,
  region: ClipRegion,
  counts?: ClipCounts,
  onProgress?: WorkProgress,
  convexCut = false,
): MultiPolygonBuffers {
  const n = cells.ringOffsets.length - 1;
  const step = Math.max(256, Math.ceil(n / 64));
  let nextReport = onProgress === undefined ? Number.POSITIVE_INFINITY : step;
  const tally = counts ?? zeroClipCounts();
  const out = new MultiPolygonWriter(n, cells.ringOffsets[n] - cells.ringOffsets[0]);
  const nRings = region.ringOffsets.length - 1;
  const ringMark = new Int32Array(nRings);
  const innerRings = new Int32Array(nRings);
  const clipper = new BoxRingClipper();
  const c = cells.coords;

  for (let i = 0; i < n; i++) {
    if (i >= nextReport) {
      nextReport += step;
      onProgress?.(i / n);
    }
    const lo = cells.ringOffsets[i];
    const hi = cells.ringOffsets[i + 1];
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (let k = lo; k < hi; k++) {
      const x = c[2 * k];
      const y = c[2 * k + 1];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    if (hi - lo < 4 || x1 < region.minX || x0 > region.maxX || y1 < region.minY || y0 > region.maxY) {
      tally.outsideBox++;
      out.endGeometry();
      continue;
    }
    const stamp = i + 1;
    const nInner = scanEdges(region, c, lo, hi, x0, y0, x1, y1, ringMark, innerRings, stamp);
    if (nInner < 0) {
      tally.crossing++;
      if (convexCut && cutConvexCell(region, c, lo, hi, x0, y0, x1, y1, out)) tally.cut++;
      else clipCrossing(i, region, c, lo, hi, x0, y0, x1, y1, clipper, out);
    } else {
      const cellInside = regionContains(region, c[2 * lo], c[2 * lo + 1]);
      if (nInner === 0) {
        if (cellInside) {
          tally.inside++;
          out.pushRange(c, lo, hi);
          out.endRing();
          out.endPolygon();
        } else {
          tally.outside++;
        }
      } else {
        tally.enclosing++;
        writeEnclosed(region, c, lo, hi, cellInside, ringMark, innerRings, nInner, stamp, out);
      }
    }
    out.endGeometry();
  }
  return out.finish();
}

/**
 * Tests the region edges near the cell against it. Returns -1 when an edge touches the cell's
 * boundary; otherwise the number of rings lying inside the cell's interior, listed in
 * `innerRings` and marked with `stamp` in `ringMark`.
 */
function scanEdges(
  region: ClipRegion,
  c: Float64Array,
  lo: number,
  hi: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  ringMark: Int32Array,
  innerRings: Int32Array,
  stamp: number,
): number {
  const { grid, coords } = region;
  let nInner = 0;
  for (const k of edgesMeetingBox(grid, coords, x0, y0, x1, y1, [])) {
    const ax = coords[2 * k];
    const ay = coords[2 * k + 1];
    const bx = coords[2 * k + 2];
    const by = coords[2 * k + 3];
    if (strictlyInside(c, lo, hi, ax, ay) && strictlyInside(c, lo, hi, bx, by)) {
      // the ring is inside unless another of its edges touches the boundary (then we return -1)
      const r = region.coordRing[k];
      if (ringMark[r] !== stamp) {
        ringMark[r] = stamp;
        innerRings[nInner++] = r;
      }
    } else if (touchesConvex(c, lo, hi, ax, ay, bx, by)) {
      return -1;
    }
  }
  return nInner;
}

/** Whether p is strictly inside the convex counter-clockwise closed ring `[lo, hi)` (exact). */
function strictlyInside(c: Float64Array, lo: number, hi: number, px: number, py: number): boolean {
  for (let k = lo; k + 1 < hi; k++) {
    // orient2d < 0: counter-clockwise (p left of the edge) in a y-up frame
    if (orient2d(c[2 * k], c[2 * k + 1], c[2 * k + 2], c[2 * k + 3], px, py) >= 0) return false;
  }
  return true;
}

/**
 * Whether segment ab meets the closed convex ring `[lo, hi)` (exact). Separating axes: a cell
 * edge with a and b strictly on its outer side, or the line ab with every cell vertex strictly
 * on one side.
 */
function touchesConvex(
  c: Float64Array,
  lo: number,
  hi: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): boolean {
  for (let k = lo; k + 1 < hi; k++) {
    const ux = c[2 * k];
    const uy = c[2 * k + 1];
    const vx = c[2 * k + 2];
    const vy = c[2 * k + 3];
    if (orient2d(ux, uy, vx, vy, ax, ay) > 0 && orient2d(ux, uy, vx, vy, bx, by) > 0) return false;
  }
  let pos = false;
  let neg = false;
  for (let k = lo; k + 1 < hi; k++) {
    const o = orient2d(ax, ay, bx, by, c[2 * k], c[2 * k + 1]);
    if (o >= 0) pos = true;
    if (o <= 0) neg = true;
    if (pos && neg) return true;
  }
  return false;
}

/**
 * A cell that the region's boundary does not cross but which holds whole rings: polygons whose
 * exterior is inside are copied; when the cell lies in the region, it is written with the
 * inner holes of surrounding polygons as its holes.
 */
function writeEnclosed(
  region: ClipRegion,
  c: Float64Array,
  lo: number,
  hi: number,
  cellInside: boolean,
  ringMark: Int32Array,
  innerRings: Int32Array,
  nInner: number,
  stamp: number,
  out: MultiPolygonWriter,
): void {
  const { polygonOffsets, ringOffsets, ringPolygon, coords } = region;
  const exteriorInside = (r: number) => ringMark[polygonOffsets[ringPolygon[r]]] === stamp;
  if (cellInside) {
    out.pushRange(c, lo, hi);
    out.endRing();
    for (let j = 0; j < nInner; j++) {
      const r = innerRings[j];
      if (exteriorInside(r)) continue;
      out.pushRange(coords, ringOffsets[r], ringOffsets[r + 1]);
      out.endRing();
    }
    out.endPolygon();
  }
  for (let j = 0; j < nInner; j++) {
    const r = innerRings[j];
    const p = ringPolygon[r];
    if (polygonOffsets[p] !== r) continue; // not an exterior
    for (let q = polygonOffsets[p]; q < polygonOffsets[p + 1]; q++) {
      out.pushRange(coords, ringOffsets[q], ringOffsets[q + 1]);
      out.endRing();
    }
    out.endPolygon();
  }
}

type Ring = [number, number][];

/** The polyclip-ts path: the region cut to a box around the cell, intersected with the cell. */
function clipCrossing(
  cell: number,
  region: ClipRegion,
  c: Float64Array,
  lo: number,
  hi: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  clipper: BoxRingClipper,
  out: MultiPolygonWriter,
): void {
  // a box strictly larger than the cell, so the clipped rings' spikes along its sides stay
  // away from the cell; the absolute term keeps it larger where coordinates are huge
  const scale = Math.max(Math.abs(x0), Math.abs(x1), Math.abs(y0), Math.abs(y1));
  const margin = 0.01 * Math.max(x1 - x0, y1 - y0) + scale * 2 ** -40;
  const bx0 = x0 - margin;
  const by0 = y0 - margin;
  const bx1 = x1 + margin;
  const by1 = y1 + margin;
  const { polygonOffsets, ringOffsets, ringBoxes, coords } = region;
  const overlaps = (r: number) =>
    ringBoxes[4 * r] <= bx1 &&
    ringBoxes[4 * r + 2] >= bx0 &&
    ringBoxes[4 * r + 1] <= by1 &&
    ringBoxes[4 * r + 3] >= by0;
  const parts: Ring[][] = [];
  for (let p = 0; p + 1 < polygonOffsets.length; p++) {
    const ext = polygonOffsets[p];
    if (!overlaps(ext)) continue;
    const exterior = clipper.clip(coords, ringOffsets[ext], ringOffsets[ext + 1], bx0, by0, bx1, by1);
    if (exterior.length < 3) continue;
    const poly: Ring[] = [exterior];
    for (let r = ext + 1; r < polygonOffsets[p + 1]; r++) {
      if (!overlaps(r)) continue;
      const hole = clipper.clip(coords, ringOffsets[r], ringOffsets[r + 1], bx0, by0, bx1, by1);
      if (hole.length >= 3) poly.push(hole);
    }
    parts.push(poly);
  }
  if (parts.length === 0) return;
  const cellRing: Ring = [];
  for (let k = lo; k < hi; k++) cellRing.push([c[2 * k], c[2 * k + 1]]);
  let result: Geom;
  try {
    result = intersection([cellRing], parts);
  } catch (error) {
    throw new Error(`clipping cell ${cell} to the region failed in polyclip-ts`, { cause: error });
  }
  writeNormalized(result as Ring[][], out);
}

/** Writes polyclip's polygons with closed rings, exteriors counter-clockwise and holes clockwise. */
function writeNormalized(polys: Ring[][], out: MultiPolygonWriter): void {
  for (const poly of polys) {
    if (poly.length === 0 || openLength(poly[0]) < 3) continue;
    for (let q = 0; q < poly.length; q++) {
      const ring = poly[q];
      const m = openLength(ring);
      if (m < 3) continue;
      const area = signedArea(ring, m);
      const reverse = q === 0 ? area < 0 : area > 0;
      for (let j = 0; j < m; j++) {
        const [x, y] = ring[reverse ? (m - j) % m : j];
        out.push(x, y);
      }
      const [fx, fy] = ring[0];
      out.push(fx, fy);
      out.endRing();
    }
    out.endPolygon();
  }
}

/** Points of a ring without its closing duplicate. */
function openLength(ring: Ring): number {
  const m = ring.length;
  return m > 1 && ring[0][0] === ring[m - 1][0] && ring[0][1] === ring[m - 1][1] ? m - 1 : m;
}

function signedArea(ring: Ring, m: number): number {
  const ox = ring[0][0];
  const oy = ring[0][1];
  let s = 0;
  for (let j = 1; j + 1 < m; j++) {
    s += (ring[j][0] - ox) * (ring[j + 1][1] - oy) - (ring[j + 1][0] - ox) * (ring[j][1] - oy);
  }
  return s;
}
