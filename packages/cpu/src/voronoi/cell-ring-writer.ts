import type { Box } from '@geoframe/core';
import { orient2d } from 'robust-predicates';
import type { PolygonBuffers } from '../delaunay/buffers.js';
import { CLIP_ENTERS, CLIP_EXITS, CLIP_VISIBLE, clipEdge, inBox, perimeterPosition } from './clip-edge.js';

/**
 * The error bound of the floating-point orientation determinant relative to the sum of its two
 * products (Shewchuk's `ccwerrboundA`, robust-predicates' first filter stage).
 */
const ORIENT_ERRBOUND = (3 + 16 * 2 ** -53) * 2 ** -53;

/** Perimeter positions closer than this (in units of box sides) count as the same point. */
const SAME_POSITION = 1e-9;

/**
 * Writes clipped convex cells, one closed counter-clockwise ring each, straight into growing
 * GeoArrow buffers (no per-cell allocation).
 *
 * A cell is fed as its boundary edges in counter-clockwise order ({@link edge}), each a piece
 * of a bisector with its end vertices. Edges inside the box are copied; edges crossing it are
 * clipped ({@link clipEdge}); where the boundary leaves the box and comes back, the writer walks
 * the box boundary counter-clockwise, adding the corners in between. Consecutive equal points
 * are written once. Every ring starts at its vertex of least x (of least y among equal x), so
 * the output does not depend on the order the cell's edges were met in.
 */
export class CellRingWriter {
  private coords: Float64Array;
  private length = 0;
  private readonly ringOffsets: Int32Array;
  private rings = 0;
  private readonly scratch = new Float64Array(4);
  // state of the current cell
  private ringStart = 0;
  private pendingExit = -1;
  private firstEntry = -1;

  constructor(
    private readonly box: Box,
    cells: number,
    expectedCoords: number,
  ) {
    this.coords = new Float64Array(Math.max(16, 2 * expectedCoords));
    this.ringOffsets = new Int32Array(cells + 1);
  }

  /** Starts the next cell. */
  begin(): void {
    this.ringStart = this.length;
    this.pendingExit = -1;
    this.firstEntry = -1;
  }

  /** Appends a vertex known to be inside the box (fast path for unclipped edges). */
  vertex(x: number, y: number): void {
    const n = this.length;
    if (n > this.ringStart && this.coords[2 * n - 2] === x && this.coords[2 * n - 1] === y) return;
    if (2 * n + 2 > this.coords.length) this.grow();
    this.coords[2 * n] = x;
    this.coords[2 * n + 1] = y;
    this.length = n + 1;
  }

  /**
   * Adds one boundary edge of the current cell: the bisector line `m + t·d` from vertex a to
   * vertex b (absent ends make a ray or a line). Only the start of each edge is written; its
   * end is the next edge's start, unless the edge leaves the box.
   */
  edge(
    mx: number,
    my: number,
    dx: number,
    dy: number,
    hasA: boolean,
    ax: number,
    ay: number,
    aInside: boolean,
    hasB: boolean,
    bx: number,
    by: number,
    bInside: boolean,
  ): void {
    const out = this.scratch;
    const r = clipEdge(this.box, mx, my, dx, dy, hasA, ax, ay, aInside, hasB, bx, by, bInside, out);
    if ((r & CLIP_VISIBLE) === 0) return;
    if ((r & CLIP_ENTERS) !== 0) {
      const at = perimeterPosition(this.box, out[0], out[1]);
      if (this.pendingExit >= 0) {
        this.walkBoundary(this.pendingExit, at);
        this.pendingExit = -1;
      } else if (this.length === this.ringStart) {
        this.firstEntry = at;
      }
    }
    this.vertex(out[0], out[1]);
    if ((r & CLIP_EXITS) !== 0) {
      this.vertex(out[2], out[3]);
      this.pendingExit = perimeterPosition(this.box, out[2], out[3]);
    }
  }

  /**
   * Closes the current cell. A cell none of whose edges reaches into the box is the whole box
   * if its site (sx, sy) is in the box, and empty (a ring of no points) otherwise.
   */
  end(sx: number, sy: number): void {
    if (this.pendingExit >= 0 && this.firstEntry >= 0) this.walkBoundary(this.pendingExit, this.firstEntry);
    if (this.length === this.ringStart && inBox(this.box, sx, sy)) this.boxRing();
    const n = this.length;
    const c = this.coords;
    const s = this.ringStart;
    if (n > s && 2 * n + 2 > c.length) this.grow();
    this.length = closeRing(this.coords, s, n);
    this.ringOffsets[++this.rings] = this.length;
  }

  /** Writes a whole cell equal to the box (one site with `extendTo`). */
  boxCell(): void {
    this.begin();
    this.boxRing();
    this.end(Number.NaN, Number.NaN);
  }

  /** The finished buffers; the writer must not be used afterwards. */
  finish(): PolygonBuffers {
    return {
      coords: this.coords.subarray(0, 2 * this.length),
      ringOffsets: this.ringOffsets.subarray(0, this.rings + 1),
    };
  }

  private boxRing(): void {
    const b = this.box;
    this.vertex(b.minX, b.minY);
    this.vertex(b.maxX, b.minY);
    this.vertex(b.maxX, b.maxY);
    this.vertex(b.minX, b.maxY);
  }

  /** Adds the box corners met walking counter-clockwise from perimeter position `from` to `to`. */
  private walkBoundary(from: number, to: number): void {
    let delta = to - from;
    if (delta < 0) delta += 4;
    if (delta < SAME_POSITION || delta > 4 - SAME_POSITION) return;
    const b = this.box;
    const end = from + delta;
    for (let k = Math.floor(from) + 1; k < end; k++) {
      switch (k & 3) {
        case 0:
          this.vertex(b.minX, b.minY);
          break;
        case 1:
          this.vertex(b.maxX, b.minY);
          break;
        case 2:
          this.vertex(b.maxX, b.maxY);
          break;
        default:
          this.vertex(b.minX, b.maxY);
      }
    }
  }

  private grow(): void {
    const next = new Float64Array(this.coords.length * 2);
    next.set(this.coords.subarray(0, 2 * this.length));
    this.coords = next;
  }
}

/**
 * Finishes the open ring `c[start .. end)` (points, not array positions) in place, as
 * {@link CellRingWriter} does for every cell: a last point equal to the first is dropped, vertices
 * exactly on the line of their neighbours are removed ({@link convexify}), the ring is rotated to start at its lowest vertex and
 * closed by repeating that vertex. Returns the point index just past the closed ring (`start` for an
 * empty ring). `c` must have room for one more point than the open ring.
 */
export function closeRing(c: Float64Array, start: number, end: number): number {
  let n = end;
  const s = start;
  if (n - s > 1 && c[2 * n - 2] === c[2 * s] && c[2 * n - 1] === c[2 * s + 1]) n--;
  if (n - s >= 3) n = s + convexify(c, s, n - s);
  if (n - s >= 2) startAtLowest(c, s, n);
  if (n === s) return n;
  c[2 * n] = c[2 * s];
  c[2 * n + 1] = c[2 * s + 1];
  return n + 1;
}

/**
 * Rotates the ring `c[lo .. hi)` (not closed) in place so that it starts at its vertex of least
 * x, then least y: a start that depends on the cell only, not on the triangulation's numbering.
 */
function startAtLowest(c: Float64Array, lo: number, hi: number): void {
  let m = lo;
  for (let k = lo + 1; k < hi; k++) {
    const x = c[2 * k];
    if (x < c[2 * m] || (x === c[2 * m] && c[2 * k + 1] < c[2 * m + 1])) m = k;
  }
  if (m === lo) return;
  reversePoints(c, lo, m);
  reversePoints(c, m, hi);
  reversePoints(c, lo, hi);
}

/** Reverses the order of the points `c[lo .. hi)` in place. */
function reversePoints(c: Float64Array, lo: number, hi: number): void {
  for (let a = lo, b = hi - 1; a < b; a++, b--) {
    const x = c[2 * a];
    const y = c[2 * a + 1];
    c[2 * a] = c[2 * b];
    c[2 * a + 1] = c[2 * b + 1];
    c[2 * b] = x;
    c[2 * b + 1] = y;
  }
}

/**
 * Removes, in place, every vertex of the ring `coords[start .. start + count)` (not closed) that
 * lies exactly on the line through its neighbours (decided exactly: a straight vertex, or a
 * back-and-forth spike), and returns the new count. Dropping such a vertex leaves the cell's
 * region unchanged, so its neighbours, which keep the vertex, still match it. A vertex that turns
 * right (reflex) is kept: it comes from rounding, and dropping it from this ring only would make
 * the cell overlap its neighbours; `settleVertices` merged the vertices where rounding would make
 * a ring cross itself. Costs one filtered orientation test per vertex when nothing is removed.
 */
function convexify(c: Float64Array, start: number, count: number): number {
  // robust-predicates' orient2d is negative for a counter-clockwise (left) turn in y-up; its
  // floating-point filter is inlined here so the common certain case costs no call
  const turn = (i: number, j: number, k: number) => {
    const ax = c[2 * i];
    const ay = c[2 * i + 1];
    const bx = c[2 * j];
    const by = c[2 * j + 1];
    const cx = c[2 * k];
    const cy = c[2 * k + 1];
    const detleft = (ay - cy) * (bx - cx);
    const detright = (ax - cx) * (by - cy);
    const det = detleft - detright;
    if (Math.abs(det) >= ORIENT_ERRBOUND * Math.abs(detleft + detright)) return det;
    return orient2d(ax, ay, bx, by, cx, cy);
  };
  let top = start; // the kept vertices are c[start .. top]
  for (let r = start + 1; r < start + count; r++) {
    while (top > start && turn(top - 1, top, r) === 0) top--;
    top++;
    c[2 * top] = c[2 * r];
    c[2 * top + 1] = c[2 * r + 1];
  }
  // close the loop: the last vertices against the first, then the first against the last
  let first = start;
  let changed = true;
  while (changed && top - first >= 2) {
    changed = false;
    if (turn(top - 1, top, first) === 0) {
      top--;
      changed = true;
    } else if (turn(top, first, first + 1) === 0) {
      first++;
      changed = true;
    }
  }
  const kept = top - first + 1;
  if (first !== start) c.copyWithin(2 * start, 2 * first, 2 * top + 2);
  return kept;
}
