import { orient2d } from 'robust-predicates';
import type { LineBuffers } from '../delaunay/buffers.js';
import { type ClipRegion, regionContains } from './clip-region.js';
import { column, row } from './edge-grid.js';

/**
 * The parts of line segments inside a region (closed: its boundary counts as inside).
 *
 * Every segment between consecutive points of every part of `lines` (for `voronoiEdges`, each
 * part is one segment) is cut where it meets the region's boundary, and the pieces inside are
 * returned as two-point parts, in input order and, within a segment, from its first point to
 * its last. Adjacent inside pieces are merged, so each output part is one maximal stretch of
 * the segment inside the region; pieces running along a region edge count as inside; pieces
 * of zero length (a segment touching the region at a point only) are dropped.
 *
 * Exactness: which region edges meet a segment, and whether a region vertex lies on it, is
 * decided exactly (robust-predicates' `orient2d`). A segment that the boundary does not reach
 * is kept bit for bit (inside) or dropped (outside) after one exact point-in-region test. Cut
 * points are segment endpoints and region vertices exactly where those are the cut, otherwise
 * the crossing of the two lines computed in f64 (`p + t (q − p)`). Whether a piece between two
 * cuts is inside is decided at its midpoint, so a piece far shorter than the rounding of its
 * ends may go either way.
 *
 * Cost: per segment, the region edges listed in the edge-grid buckets that the segment passes
 * through. Parts of fewer than two points, and an empty region, give nothing.
 */
export function clipLinesToRegion(lines: LineBuffers, region: ClipRegion): LineBuffers {
  const nParts = lines.partOffsets.length - 1;
  const out = new SegmentWriter(nParts);
  if (nParts === 0 || !(region.minX <= region.maxX)) return out.finish();
  const clipper = new SegmentClipper(region, out);
  const c = lines.coords;
  for (let i = 0; i < nParts; i++) {
    for (let k = lines.partOffsets[i]; k + 1 < lines.partOffsets[i + 1]; k++) {
      clipper.clip(c[2 * k], c[2 * k + 1], c[2 * k + 2], c[2 * k + 3]);
    }
  }
  return out.finish();
}

/** Appends two-point parts to growable buffers. */
class SegmentWriter {
  private coords: Float64Array;
  private parts = 0;

  constructor(expectedParts: number) {
    this.coords = new Float64Array(4 * Math.max(4, expectedParts));
  }

  push(x0: number, y0: number, x1: number, y1: number): void {
    if (4 * this.parts + 4 > this.coords.length) {
      const bigger = new Float64Array(2 * this.coords.length);
      bigger.set(this.coords);
      this.coords = bigger;
    }
    const o = 4 * this.parts++;
    this.coords[o] = x0;
    this.coords[o + 1] = y0;
    this.coords[o + 2] = x1;
    this.coords[o + 3] = y1;
  }

  finish(): LineBuffers {
    const partOffsets = new Int32Array(this.parts + 1);
    for (let k = 0; k <= this.parts; k++) partOffsets[k] = 2 * k;
    return { coords: this.coords.slice(0, 4 * this.parts), partOffsets };
  }
}

/** Clips one segment at a time, with scratch buffers reused across segments. */
class SegmentClipper {
  private readonly region: ClipRegion;
  private readonly out: SegmentWriter;
  /** Edge id → the last segment that tested it (an edge sits in several buckets). */
  private readonly seen: Int32Array;
  private stamp = 0;
  /** Cuts of the current segment: parameter along it and the point. */
  private cutT = new Float64Array(16);
  private cutX = new Float64Array(16);
  private cutY = new Float64Array(16);
  private nCuts = 0;
  /** Parameter intervals of the current segment lying along a region edge (lo, hi pairs). */
  private along = new Float64Array(8);
  private nAlong = 0;
  /** Bucket → 0 not known yet, 1 inside, 2 outside; for buckets that no region edge overlaps. */
  private readonly bucketSide: Uint8Array;

  constructor(region: ClipRegion, out: SegmentWriter) {
    this.region = region;
    this.out = out;
    this.seen = new Int32Array(region.coords.length >> 1);
    this.bucketSide = new Uint8Array(region.grid.nx * region.grid.ny);
  }

  /**
   * `regionContains`, answered from a cache for points in buckets without edges: no boundary
   * point lies in such a bucket (it would list that edge), so the whole bucket is on one side.
   */
  private contains(x: number, y: number): boolean {
    const { grid } = this.region;
    const b = row(grid, y) * grid.nx + column(grid, x);
    if (grid.bucketOffsets[b] !== grid.bucketOffsets[b + 1]) return regionContains(this.region, x, y);
    let side = this.bucketSide[b];
    if (side === 0) {
      side = regionContains(this.region, x, y) ? 1 : 2;
      this.bucketSide[b] = side;
    }
    return side === 1;
  }

  clip(px: number, py: number, qx: number, qy: number): void {
    const region = this.region;
    const x0 = Math.min(px, qx);
    const x1 = Math.max(px, qx);
    const y0 = Math.min(py, qy);
    const y1 = Math.max(py, qy);
    if (x1 < region.minX || x0 > region.maxX || y1 < region.minY || y0 > region.maxY) return;
    if (px === qx && py === qy) return;
    this.nCuts = 0;
    this.nAlong = 0;
    this.stamp++;
    const touched = this.scan(px, py, qx, qy, x0, y0, x1, y1);
    if (!touched) {
      // the boundary does not reach the closed segment: all of it is on one side, and the
      // exact endpoint decides which
      if (this.contains(px, py)) this.out.push(px, py, qx, qy);
      return;
    }
    this.sortCuts();
    this.emitPieces(px, py, qx, qy);
  }

  /**
   * Visits the buckets the segment passes through, row by row: in each grid row, the columns
   * between the segment's x at the row's lower and upper y, widened by a little for rounding.
   * Returns whether any region edge meets the closed segment (cuts and along-intervals filled).
   */
  private scan(
    px: number,
    py: number,
    qx: number,
    qy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
  ): boolean {
    const { grid } = this.region;
    const iy0 = row(grid, y0);
    const iy1 = row(grid, y1);
    let touched = false;
    // slack on the row bounds and on x, against rounding in the inverse of row() and in xAt
    const dy = iy1 > iy0 ? 1 / grid.invDy : 0;
    const dx = grid.invDx > 0 ? 1 / grid.invDx : 0;
    const mag = Math.max(
      Math.abs(px),
      Math.abs(qx),
      Math.abs(py),
      Math.abs(qy),
      Math.abs(grid.minX),
      Math.abs(grid.minY),
    );
    const slackX = 1e-7 * dx + 1e-14 * mag;
    const slackY = 1e-7 * dy + 1e-14 * mag;
    const slope = (qx - px) / (qy - py); // only used when the segment spans several rows
    for (let iy = iy0; iy <= iy1; iy++) {
      let ix0: number;
      let ix1: number;
      if (iy0 === iy1) {
        ix0 = column(grid, x0);
        ix1 = column(grid, x1);
      } else {
        const lo = iy === iy0 ? y0 : Math.max(y0, grid.minY + iy * dy - slackY);
        const hi = iy === iy1 ? y1 : Math.min(y1, grid.minY + (iy + 1) * dy + slackY);
        const xa = px + (lo - py) * slope;
        const xb = px + (hi - py) * slope;
        ix0 = column(grid, Math.max(x0, Math.min(xa, xb) - slackX));
        ix1 = column(grid, Math.min(x1, Math.max(xa, xb) + slackX));
      }
      for (let ix = ix0; ix <= ix1; ix++) {
        if (this.scanBucket(iy * grid.nx + ix, px, py, qx, qy, x0, y0, x1, y1)) touched = true;
      }
    }
    return touched;
  }

  /** Tests the edges of one bucket not yet tested for this segment; records cuts. */
  private scanBucket(
    b: number,
    px: number,
    py: number,
    qx: number,
    qy: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
  ): boolean {
    const { grid, coords } = this.region;
    const seen = this.seen;
    let touched = false;
    for (let j = grid.bucketOffsets[b]; j < grid.bucketOffsets[b + 1]; j++) {
      const k = grid.edges[j];
      if (seen[k] === this.stamp) continue;
      seen[k] = this.stamp;
      const ax = coords[2 * k];
      const ay = coords[2 * k + 1];
      const bx = coords[2 * k + 2];
      const by = coords[2 * k + 3];
      if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) {
        continue;
      }
      if (ax === bx && ay === by) continue;
      const o1 = orient2d(ax, ay, bx, by, px, py);
      const o2 = orient2d(ax, ay, bx, by, qx, qy);
      if ((o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0)) continue;
      const o3 = orient2d(px, py, qx, qy, ax, ay);
      const o4 = orient2d(px, py, qx, qy, bx, by);
      if ((o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0)) continue;
      if (o1 === 0 && o2 === 0) {
        // collinear: both are on one line, and their boxes overlap, so they share a stretch
        // (or a point); its ends inside the segment are cuts, the stretch is boundary
        const ta = this.onSegment(px, py, qx, qy, ax, ay);
        const tb = this.onSegment(px, py, qx, qy, bx, by);
        const lo = Math.max(0, Math.min(ta, tb));
        const hi = Math.min(1, Math.max(ta, tb));
        if (lo < hi) this.addAlong(lo, hi);
        touched = true;
      } else if (o3 !== 0 && o4 !== 0) {
        // a and b strictly on opposite sides of the segment's line: a crossing, at an interior
        // point of the segment unless p or q lies on the edge (o1 or o2 zero; no cut needed)
        touched = true;
        if (o1 !== 0 && o2 !== 0) {
          const ex = bx - ax;
          const ey = by - ay;
          const t = ((ax - px) * ey - (ay - py) * ex) / ((qx - px) * ey - (qy - py) * ex);
          if (t > 0 && t < 1) this.addCut(t, px + t * (qx - px), py + t * (qy - py));
        }
      } else {
        // one of a, b on the segment's line (not both: that would be collinear), so the two
        // meet exactly there, at that region vertex
        touched = true;
        if (o3 === 0) this.onSegment(px, py, qx, qy, ax, ay);
        if (o4 === 0) this.onSegment(px, py, qx, qy, bx, by);
      }
    }
    return touched;
  }

  /**
   * For a point on the segment's line: its parameter along the segment, and a cut at it when it
   * lies strictly between the ends (tested exactly, by the box). Outside: −1 or 2 (clamped away).
   */
  private onSegment(px: number, py: number, qx: number, qy: number, x: number, y: number): number {
    const dx = qx - px;
    const dy = qy - py;
    // exact position test along the dominant axis (the point is on the line)
    const major = Math.abs(dx) >= Math.abs(dy);
    const s = major ? (x - px) * Math.sign(dx) : (y - py) * Math.sign(dy);
    const e = major ? (qx - x) * Math.sign(dx) : (qy - y) * Math.sign(dy);
    if (s <= 0) return s === 0 ? 0 : -1;
    if (e <= 0) return e === 0 ? 1 : 2;
    let t = ((x - px) * dx + (y - py) * dy) / (dx * dx + dy * dy);
    // keep the order consistent with the exact position even if rounding says otherwise
    if (!(t > 0)) t = Number.MIN_VALUE;
    if (!(t < 1)) t = 1 - Number.EPSILON / 2;
    this.addCut(t, x, y);
    return t;
  }

  private addCut(t: number, x: number, y: number): void {
    if (this.nCuts === this.cutT.length) {
      this.cutT = grow(this.cutT);
      this.cutX = grow(this.cutX);
      this.cutY = grow(this.cutY);
    }
    this.cutT[this.nCuts] = t;
    this.cutX[this.nCuts] = x;
    this.cutY[this.nCuts] = y;
    this.nCuts++;
  }

  private addAlong(lo: number, hi: number): void {
    if (2 * this.nAlong + 2 > this.along.length) this.along = grow(this.along);
    this.along[2 * this.nAlong] = lo;
    this.along[2 * this.nAlong + 1] = hi;
    this.nAlong++;
  }

  /** Insertion sort of the cuts by parameter (a segment has few cuts). */
  private sortCuts(): void {
    const { cutT, cutX, cutY } = this;
    for (let i = 1; i < this.nCuts; i++) {
      const t = cutT[i];
      const x = cutX[i];
      const y = cutY[i];
      let j = i - 1;
      while (j >= 0 && cutT[j] > t) {
        cutT[j + 1] = cutT[j];
        cutX[j + 1] = cutX[j];
        cutY[j + 1] = cutY[j];
        j--;
      }
      cutT[j + 1] = t;
      cutX[j + 1] = x;
      cutY[j + 1] = y;
    }
  }

  /** Walks the pieces between cuts, merging runs of inside pieces into output parts. */
  private emitPieces(px: number, py: number, qx: number, qy: number): void {
    const { cutT, cutX, cutY, nCuts } = this;
    let ta = 0;
    let xa = px;
    let ya = py;
    let open = false;
    let sx = 0;
    let sy = 0;
    for (let i = 0; i <= nCuts; i++) {
      const last = i === nCuts;
      const tb = last ? 1 : cutT[i];
      const xb = last ? qx : cutX[i];
      const yb = last ? qy : cutY[i];
      if (tb > ta) {
        if (this.pieceInside(ta, tb, px, py, qx, qy)) {
          if (!open) {
            open = true;
            sx = xa;
            sy = ya;
          }
        } else if (open) {
          open = false;
          if (sx !== xa || sy !== ya) this.out.push(sx, sy, xa, ya);
        }
        ta = tb;
        xa = xb;
        ya = yb;
      }
    }
    if (open && (sx !== qx || sy !== qy)) this.out.push(sx, sy, qx, qy);
  }

  /** Whether the piece `[ta, tb]` of the segment is inside: along an edge, or by its midpoint. */
  private pieceInside(ta: number, tb: number, px: number, py: number, qx: number, qy: number): boolean {
    for (let i = 0; i < this.nAlong; i++) {
      if (ta >= this.along[2 * i] && tb <= this.along[2 * i + 1]) return true;
    }
    const t = 0.5 * (ta + tb);
    return this.contains(px + t * (qx - px), py + t * (qy - py));
  }
}

function grow(a: Float64Array): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(2 * a.length);
  bigger.set(a);
  return bigger;
}
