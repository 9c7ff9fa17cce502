import { orient2d } from 'robust-predicates';
import type { ClipRegion } from './clip-region.js';
import { edgesMeetingBox } from './edge-grid.js';
import type { MultiPolygonWriter } from './multi-polygon-buffers.js';

// robust-predicates' orient2d is negative when (a, b, p) turns counter-clockwise (y up): inside a
// counter-clockwise cell every edge has the point on its left, orient2d < 0.

const INSIDE = 1;
const OUTSIDE = -1;
const ON_BOUNDARY = 0;

/** One crossing of the region's boundary through the cell's boundary. */
interface Crossing {
  /** The region edge (its first coordinate's index). */
  edge: number;
  /** The cell edge crossed (its first coordinate's index). */
  side: number;
}

/**
 * The common crossing cell without polyclip-ts: when the region's boundary crosses the convex
 * cell exactly twice — one region edge enters it, one leaves it, along one ring, with no region
 * vertex on the cell's boundary, no region edge through a cell vertex and no other ring inside —
 * the cell's part of the region is one simple polygon: the entry point, the ring's vertices
 * inside the cell, the exit point, then the cell's vertices counter-clockwise back to the entry
 * (the region lies left of its rings: exteriors counter-clockwise, holes clockwise). Every
 * decision is exact (orient2d); the two new points are rounded intersections, computed from the
 * cell edge's endpoints in a fixed order so that the neighbour across that edge gets the same
 * bits. Returns false, writing nothing, whenever the case is not that one (the caller then
 * intersects with polyclip-ts).
 *
 * `c[lo..hi)` is a closed counter-clockwise convex ring (repeated points allowed), `x0..y1` its box.
 */
export function cutConvexCell(
  region: ClipRegion,
  c: Float64Array,
  lo: number,
  hi: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  out: MultiPolygonWriter,
): boolean {
  const { grid, coords } = region;
  let entry: Crossing | null = null;
  let exit: Crossing | null = null;
  let insideEdges = 0;
  for (const k of edgesMeetingBox(grid, coords, x0, y0, x1, y1, [])) {
    const ax = coords[2 * k];
    const ay = coords[2 * k + 1];
    const bx = coords[2 * k + 2];
    const by = coords[2 * k + 3];
    const sa = locate(c, lo, hi, ax, ay);
    const sb = locate(c, lo, hi, bx, by);
    if (sa === ON_BOUNDARY || sb === ON_BOUNDARY) return false;
    if (sa === INSIDE && sb === INSIDE) {
      insideEdges++;
      continue;
    }
    const sides = crossedSides(c, lo, hi, ax, ay, bx, by);
    if (sides === null) return false;
    const [enters, leaves] = sides;
    if (enters >= 0) {
      if (entry !== null) return false;
      entry = { edge: k, side: enters };
    }
    if (leaves >= 0) {
      if (exit !== null) return false;
      exit = { edge: k, side: leaves };
    }
  }
  if (entry === null || exit === null) return false;
  return writeCut(region, c, lo, hi, entry, exit, insideEdges, out);
}

/** Inside (every cell edge has p strictly on its left), outside, or on the boundary (exact). */
function locate(c: Float64Array, lo: number, hi: number, px: number, py: number): number {
  let onLine = false;
  for (let k = lo; k + 1 < hi; k++) {
    const ux = c[2 * k];
    const uy = c[2 * k + 1];
    const vx = c[2 * k + 2];
    const vy = c[2 * k + 3];
    if (ux === vx && uy === vy) continue;
    const o = orient2d(ux, uy, vx, vy, px, py);
    if (o > 0) return OUTSIDE;
    if (o === 0) onLine = true;
  }
  return onLine ? ON_BOUNDARY : INSIDE;
}

/**
 * The cell edges through which segment a→b (its ends off the boundary, not both inside) enters
 * and leaves the cell: [entering side, leaving side], −1 where it does not. Null when the segment
 * passes through a cell vertex or runs along a side (not this path's case).
 */
function crossedSides(
  c: Float64Array,
  lo: number,
  hi: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): [number, number] | null {
  let enters = -1;
  let leaves = -1;
  for (let k = lo; k + 1 < hi; k++) {
    const ux = c[2 * k];
    const uy = c[2 * k + 1];
    const vx = c[2 * k + 2];
    const vy = c[2 * k + 3];
    if (ux === vx && uy === vy) continue;
    const oa = orient2d(ux, uy, vx, vy, ax, ay);
    const ob = orient2d(ux, uy, vx, vy, bx, by);
    if ((oa > 0 && ob > 0) || (oa < 0 && ob < 0)) continue;
    const ou = orient2d(ax, ay, bx, by, ux, uy);
    const ov = orient2d(ax, ay, bx, by, vx, vy);
    if ((ou > 0 && ov > 0) || (ou < 0 && ov < 0)) continue;
    if (oa === 0 || ob === 0 || ou === 0 || ov === 0) return null;
    if (oa > 0) {
      if (enters >= 0) return null;
      enters = k;
    } else {
      if (leaves >= 0) return null;
      leaves = k;
    }
  }
  return [enters, leaves];
}

/**
 * Writes entry point, the ring's vertices inside the cell, exit point, then the cell's vertices
 * from the exit's side round to the entry's. False when the two crossings are not one inside
 * run of one ring holding every region vertex inside the cell, or the points are too close to
 * order along a shared side.
 */
function writeCut(
  region: ClipRegion,
  c: Float64Array,
  lo: number,
  hi: number,
  entry: Crossing,
  exit: Crossing,
  insideEdges: number,
  out: MultiPolygonWriter,
): boolean {
  const { coords, coordRing, ringOffsets } = region;
  const ring = coordRing[entry.edge];
  if (coordRing[exit.edge] !== ring) return false;
  const first = ringOffsets[ring];
  const last = ringOffsets[ring + 1] - 1; // the closing repeat of `first`
  const next = (k: number) => (k + 1 === last ? first : k + 1);
  // the run of vertices from the entry edge's end to the exit edge's start
  let run = 0;
  if (entry.edge !== exit.edge) {
    for (let k = next(entry.edge); k !== exit.edge; k = next(k)) {
      if (++run > last - first) return false;
    }
    run++; // the exit edge's start
  }
  if (run > 0 && insideEdges !== run - 1) return false; // another ring's vertices are inside
  if (run === 0 && insideEdges !== 0) return false;
  const p = crossingPoint(coords, entry.edge, c, entry.side);
  const q = crossingPoint(coords, exit.edge, c, exit.side);
  if (p === null || q === null) return false;
  let aroundAll = false;
  if (entry.side === exit.side) {
    // both on one side: the cell's vertices belong to the part unless the entry lies past the exit
    const dx = c[2 * entry.side + 2] - c[2 * entry.side];
    const dy = c[2 * entry.side + 3] - c[2 * entry.side + 1];
    const along = (p[0] - q[0]) * dx + (p[1] - q[1]) * dy;
    if (Math.abs(along) <= 1e-9 * (dx * dx + dy * dy)) return false;
    aroundAll = along < 0;
  }
  const ring2 = new PointList();
  ring2.add(p[0], p[1]);
  for (let k = next(entry.edge), m = 0; m < run; k = next(k), m++)
    ring2.add(coords[2 * k], coords[2 * k + 1]);
  ring2.add(q[0], q[1]);
  if (entry.side !== exit.side || aroundAll) {
    const count = hi - lo - 1; // cell vertices (the ring is closed)
    let k = exit.side + 1 === hi - 1 ? lo : exit.side + 1;
    for (let m = 0; m < count; m++) {
      ring2.add(c[2 * k], c[2 * k + 1]);
      if (k === entry.side) break;
      k = k + 1 === hi - 1 ? lo : k + 1;
    }
  }
  return ring2.writeIfValid(out);
}

/** A ring's points, consecutive repeats dropped, written closed if it is a polygon. */
class PointList {
  private readonly xy: number[] = [];

  add(x: number, y: number): void {
    const n = this.xy.length;
    if (n >= 2 && this.xy[n - 2] === x && this.xy[n - 1] === y) return;
    this.xy.push(x, y);
  }

  /** Writes the closed ring as one polygon when it has 3 distinct points and positive area. */
  writeIfValid(out: MultiPolygonWriter): boolean {
    const xy = this.xy;
    let n = xy.length >> 1;
    if (n > 1 && xy[0] === xy[2 * n - 2] && xy[1] === xy[2 * n - 1]) n--;
    if (n < 3) return false;
    let twice = 0;
    for (let k = 1; k + 1 < n; k++) {
      twice +=
        (xy[2 * k] - xy[0]) * (xy[2 * k + 3] - xy[1]) - (xy[2 * k + 2] - xy[0]) * (xy[2 * k + 1] - xy[1]);
    }
    if (!(twice > 0)) return false;
    for (let k = 0; k < n; k++) out.push(xy[2 * k], xy[2 * k + 1]);
    out.push(xy[0], xy[1]);
    out.endRing();
    out.endPolygon();
    return true;
  }
}

/**
 * Where region edge `k` crosses the cell side starting at `side`: the side's ends taken in
 * lexicographic order, so the neighbouring cell (which walks the side the other way) gets the
 * same bits.
 */
function crossingPoint(
  coords: Float64Array,
  k: number,
  c: Float64Array,
  side: number,
): [number, number] | null {
  const ax = coords[2 * k];
  const ay = coords[2 * k + 1];
  const bx = coords[2 * k + 2];
  const by = coords[2 * k + 3];
  let ux = c[2 * side];
  let uy = c[2 * side + 1];
  let vx = c[2 * side + 2];
  let vy = c[2 * side + 3];
  if (vx < ux || (vx === ux && vy < uy)) {
    [ux, vx] = [vx, ux];
    [uy, vy] = [vy, uy];
  }
  const ex = vx - ux;
  const ey = vy - uy;
  const t = ((ux - ax) * ey - (uy - ay) * ex) / ((bx - ax) * ey - (by - ay) * ex);
  if (!Number.isFinite(t)) return null; // products past f64's range: polyclip-ts decides
  const s = Math.min(1, Math.max(0, t));
  const x = ax + s * (bx - ax);
  const y = ay + s * (by - ay);
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : null;
}
