import { BoxRingClipper } from '../clip/box-clip-ring.js';
import type { ClipRegion } from '../clip/clip-region.js';
import { regionContains } from '../clip/clip-region.js';
import { column, row } from '../clip/edge-grid.js';
import { addUniformMoments, type CellMoments, type RingSpan } from './cell-moments.js';
import { RegionTiles } from './region-tiles.js';

/**
 * Uniform-density moments of (convex cell ∩ region), without building the intersection: the
 * region's rings near the cell are cut to a box around it, then to the cell by Sutherland–Hodgman,
 * and Green's theorem integrates the results. Clipping a closed ring to a half-plane keeps its
 * winding number at every point inside the half-plane and makes it zero outside (the cut-off
 * excursions and the chords replacing them lie in the outer closed half-plane), so the rings
 * clipped to the convex cell integrate to exactly the region's part of the cell — holes (clockwise)
 * subtract, islands add — even where the clipped ring has zero-width spikes along the cell's
 * sides. New points are rounded intersections, as in `clipCellsToRegion`; no polyclip-ts call
 * (1 ms a crossing cell there).
 */
export class RegionCellMoments {
  private readonly box = new BoxRingClipper();
  private a = new Float64Array(64);
  private b = new Float64Array(64);
  private readonly span: RingSpan = {
    coords: new Float64Array(0),
    ringOffsets: new Int32Array(0),
    first: 0,
    last: 0,
  };

  private readonly tiles: RegionTiles | null;
  /** Cells cut from a tile's pieces so far (the others from the region's whole rings). */
  tiledCells = 0;

  /**
   * `tileSide`, when given, cuts the region's rings to tiles of that side once (`RegionTiles`), so
   * each cell's cut starts from the vertices near it (a few cells' widths suit it).
   */
  constructor(
    private readonly region: ClipRegion,
    tileSide?: number,
  ) {
    this.tiles = tileSide !== undefined && tileSide > 0 ? new RegionTiles(region, tileSide) : null;
  }

  /**
   * Adds the moments of (cell ∩ region) about (x, y) to cell `i` of `out`. The cell is the
   * closed convex counter-clockwise ring `[lo, hi)` of `coords` (repeated points allowed).
   */
  add(
    coords: Float64Array,
    ringOffsets: Int32Array,
    ring: number,
    x: number,
    y: number,
    out: CellMoments,
    i: number,
  ): void {
    const lo = ringOffsets[ring];
    const hi = ringOffsets[ring + 1];
    if (hi - lo < 4) return;
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (let k = lo; k < hi; k++) {
      x0 = Math.min(x0, coords[2 * k]);
      x1 = Math.max(x1, coords[2 * k]);
      y0 = Math.min(y0, coords[2 * k + 1]);
      y1 = Math.max(y1, coords[2 * k + 1]);
    }
    const r = this.region;
    if (x1 < r.minX || x0 > r.maxX || y1 < r.minY || y0 > r.maxY) return;
    if (!this.edgeNear(x0, y0, x1, y1)) {
      // no region boundary within the cell's box: the cell is wholly inside or wholly outside
      if (!regionContains(r, coords[2 * lo], coords[2 * lo + 1])) return;
      this.span.coords = coords;
      this.span.ringOffsets = ringOffsets;
      this.span.first = ring;
      this.span.last = ring + 1;
      addUniformMoments(this.span, x, y, 1, out, i);
      return;
    }
    // a box strictly larger than the cell, so the box cut's spikes stay off the cell
    const scale = Math.max(Math.abs(x0), Math.abs(x1), Math.abs(y0), Math.abs(y1));
    const margin = 0.01 * Math.max(x1 - x0, y1 - y0) + scale * 2 ** -40;
    const bx0 = x0 - margin;
    const by0 = y0 - margin;
    const bx1 = x1 + margin;
    const by1 = y1 + margin;
    const tile = this.tiles?.pieces(bx0, by0, bx1, by1) ?? null;
    if (tile !== null) this.tiledCells++;
    const { ringBoxes, ringOffsets: rOff, coords: rc } = tile ?? r;
    for (let q = 0; q + 1 < rOff.length; q++) {
      if (ringBoxes[4 * q] > bx1 || ringBoxes[4 * q + 2] < bx0) continue;
      if (ringBoxes[4 * q + 1] > by1 || ringBoxes[4 * q + 3] < by0) continue;
      // a tile's pieces are small already (their cut points lie on the tile's sides, off the cell)
      let m: number;
      if (tile !== null) m = this.loadRing(rc, rOff[q], rOff[q + 1]);
      else {
        const cut = this.box.clip(rc, rOff[q], rOff[q + 1], bx0, by0, bx1, by1);
        if (cut.length < 3) continue;
        m = this.load(cut);
      }
      for (let k = lo; k + 1 < hi && m > 0; k++) {
        m = this.halfPlane(m, coords[2 * k], coords[2 * k + 1], coords[2 * k + 2], coords[2 * k + 3]);
      }
      if (m >= 3) addOpenRing(this.a, m, x, y, out, i);
    }
  }

  /** Whether a region edge's box overlaps the box (from the region's edge grid). */
  private edgeNear(x0: number, y0: number, x1: number, y1: number): boolean {
    const { grid, coords } = this.region;
    const ix1 = column(grid, x1);
    const iy1 = row(grid, y1);
    for (let iy = row(grid, y0); iy <= iy1; iy++) {
      for (let ix = column(grid, x0); ix <= ix1; ix++) {
        const bucket = iy * grid.nx + ix;
        for (let j = grid.bucketOffsets[bucket]; j < grid.bucketOffsets[bucket + 1]; j++) {
          const k = grid.edges[j];
          const ax = coords[2 * k];
          const ay = coords[2 * k + 1];
          const bx = coords[2 * k + 2];
          const by = coords[2 * k + 3];
          if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1) continue;
          if (Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
          return true;
        }
      }
    }
    return false;
  }

  /** Loads the closed ring `[lo, hi)` of `c` into `a`, open; returns its point count. */
  private loadRing(c: Float64Array, lo: number, hi: number): number {
    const m = hi - lo - 1;
    this.reserve(m);
    this.a.set(c.subarray(2 * lo, 2 * (hi - 1)));
    return m;
  }

  private load(points: [number, number][]): number {
    this.reserve(points.length);
    for (let k = 0; k < points.length; k++) {
      this.a[2 * k] = points[k][0];
      this.a[2 * k + 1] = points[k][1];
    }
    return points.length;
  }

  private reserve(points: number): void {
    if (this.a.length >= 2 * points) return;
    const size = 2 * Math.max(points, this.a.length);
    const grown = new Float64Array(size);
    grown.set(this.a);
    this.a = grown;
    this.b = new Float64Array(size);
  }

  /** Keeps the part of the open ring `a` (m points) left of u→v; returns the new count. */
  private halfPlane(m: number, ux: number, uy: number, vx: number, vy: number): number {
    if (ux === vx && uy === vy) return m; // a repeated point of the cell: no edge
    this.reserve(2 * m);
    const a = this.a;
    const b = this.b;
    const dx = vx - ux;
    const dy = vy - uy;
    let k = 0;
    let px = a[2 * (m - 1)];
    let py = a[2 * m - 1];
    let ps = dx * (py - uy) - dy * (px - ux);
    for (let j = 0; j < m; j++) {
      const cx = a[2 * j];
      const cy = a[2 * j + 1];
      const cs = dx * (cy - uy) - dy * (cx - ux);
      if (cs >= 0 !== ps >= 0) {
        const t = ps / (ps - cs);
        b[2 * k] = px + t * (cx - px);
        b[2 * k + 1] = py + t * (cy - py);
        k++;
      }
      if (cs >= 0) {
        b[2 * k] = cx;
        b[2 * k + 1] = cy;
        k++;
      }
      px = cx;
      py = cy;
      ps = cs;
    }
    this.a = b;
    this.b = a;
    return k;
  }
}

/** Green's theorem moments of the open ring `p` (m points, closed implicitly) about (x, y). */
function addOpenRing(p: Float64Array, m: number, x: number, y: number, out: CellMoments, i: number): void {
  let a = 0;
  let sx = 0;
  let sy = 0;
  let e = 0;
  let ax = p[2 * (m - 1)] - x;
  let ay = p[2 * m - 1] - y;
  for (let k = 0; k < m; k++) {
    const bx = p[2 * k] - x;
    const by = p[2 * k + 1] - y;
    const cross = ax * by - bx * ay;
    a += cross;
    sx += (ax + bx) * cross;
    sy += (ay + by) * cross;
    e += (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by) * cross;
    ax = bx;
    ay = by;
  }
  out.mass[i] += a / 2;
  out.sx[i] += sx / 6;
  out.sy[i] += sy / 6;
  out.energy[i] += e / 12;
}
