import { type GeometryArray, GeometryType, GrowableInt32 } from '@geoframe/core';
import { pointDistance } from '@geoframe/cpu';

/**
 * Nearest neighbours between two point columns on a uniform grid of the tree's points: the fast
 * path of `SpatialIndex.nearest` when both sides hold only points (the common `sjoinNearest` of
 * points to sites). Same answers as the general path — the same distance formula (GEOS'
 * √(dx² + dy²) in f64), every tree row at exactly the minimum distance with `returnAll`, the
 * lowest such row without — but each query visits the grid cells around it instead of a flatbush
 * `neighbors` call (a priority queue per query) and a box query.
 */
export class PointGrid {
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  /** Tree item → row, items sorted by cell, each cell's items by row. */
  private readonly rows: Int32Array;
  private readonly start: Int32Array;
  private readonly minX: number;
  private readonly minY: number;
  private readonly cell: number;
  private readonly nx: number;
  private readonly ny: number;

  /** The grid of `array`'s rows `rows` (each a non-empty point), or null when a row is not one. */
  static of(array: GeometryArray, rows: Int32Array): PointGrid | null {
    const xy = pointCoords(array, rows);
    return xy === null ? null : new PointGrid(xy, rows);
  }

  private constructor(xy: Float64Array, rows: Int32Array) {
    const n = rows.length;
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let k = 0; k < n; k++) {
      minX = Math.min(minX, xy[2 * k]);
      maxX = Math.max(maxX, xy[2 * k]);
      minY = Math.min(minY, xy[2 * k + 1]);
      maxY = Math.max(maxY, xy[2 * k + 1]);
    }
    const w = maxX - minX;
    const h = maxY - minY;
    // about one point a cell; square cells; a degenerate extent gets one cell across
    const side = Math.sqrt((w * h) / n) || Math.max(w, h) / n || 1;
    this.cell = Number.isFinite(side) && side > 0 ? side : 1;
    this.nx = Math.min(Math.max(1, Math.ceil(w / this.cell)), 1 << 15);
    this.ny = Math.min(Math.max(1, Math.ceil(h / this.cell)), 1 << 15);
    this.minX = minX;
    this.minY = minY;
    const cellOf = new Int32Array(n);
    const start = new Int32Array(this.nx * this.ny + 1);
    for (let k = 0; k < n; k++) {
      cellOf[k] = this.cellIndex(xy[2 * k], xy[2 * k + 1]);
      start[cellOf[k] + 1]++;
    }
    for (let c = 0; c < this.nx * this.ny; c++) start[c + 1] += start[c];
    const fill = start.slice(0, -1);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.rows = new Int32Array(n);
    // rows ascend in `rows`, so each cell's items come out by row
    for (let k = 0; k < n; k++) {
      const at = fill[cellOf[k]]++;
      this.x[at] = xy[2 * k];
      this.y[at] = xy[2 * k + 1];
      this.rows[at] = rows[k];
    }
    this.start = start;
  }

  /**
   * For each point row of `input` (null and empty rows have none; null when another geometry
   * type is there), its nearest rows within `maxDistance`: pairs sorted by input row, then row.
   */
  nearest(
    input: GeometryArray,
    maxDistance: number,
    returnAll: boolean,
  ): { input: Int32Array; tree: Int32Array; distance: Float64Array } | null {
    const all = Int32Array.from({ length: input.length }, (_, i) => i);
    const xy = pointCoords(input, all, true);
    if (xy === null) return null;
    const a = new GrowableInt32(input.length);
    const b = new GrowableInt32(input.length);
    const d: number[] = [];
    const found: number[] = [];
    for (let i = 0; i < input.length; i++) {
      const qx = xy[2 * i];
      if (Number.isNaN(qx)) continue;
      const best = this.search(qx, xy[2 * i + 1], maxDistance, found);
      if (found.length === 0) continue;
      if (found.length > 1) found.sort((p, q) => p - q);
      for (let k = 0; k < (returnAll ? found.length : 1); k++) {
        a.push(i);
        b.push(found[k]);
        d.push(best);
      }
    }
    return { input: a.finish(), tree: b.finish(), distance: Float64Array.from(d) };
  }

  /** The minimum distance from (qx, qy) (≤ maxDistance) and, in `found`, the rows at it. */
  private search(qx: number, qy: number, maxDistance: number, found: number[]): number {
    found.length = 0;
    let best = Number.POSITIVE_INFINITY;
    const ci = this.clampX(qx);
    const cj = this.clampY(qy);
    for (let r = 0; ; r++) {
      // every point not yet visited lies outside the cells within r − 1 of (ci, cj): beyond one
      // of that block's sides that is not the grid's border
      const bound = this.outsideBound(qx, qy, ci, cj, r);
      if (bound > Math.min(best, maxDistance) || bound === Number.POSITIVE_INFINITY) break;
      for (let j = cj - r; j <= cj + r; j++) {
        if (j < 0 || j >= this.ny) continue;
        const ring = j === cj - r || j === cj + r;
        for (let i = ci - r; i <= ci + r; i += ring ? 1 : 2 * r) {
          if (i >= 0 && i < this.nx) best = this.visit(j * this.nx + i, qx, qy, best, maxDistance, found);
          if (r === 0) break;
        }
      }
    }
    return best;
  }

  private visit(
    c: number,
    qx: number,
    qy: number,
    best: number,
    maxDistance: number,
    found: number[],
  ): number {
    for (let k = this.start[c]; k < this.start[c + 1]; k++) {
      const dist = pointDistance(qx, qy, this.x[k], this.y[k]);
      if (dist > maxDistance || dist > best) continue;
      if (dist < best) {
        best = dist;
        found.length = 0;
      }
      found.push(this.rows[k]);
    }
    return best;
  }

  /**
   * A lower bound of the distance from (qx, qy) to any point outside the block of cells within
   * r − 1 of (ci, cj); Infinity when that block covers the grid. Shrunk by a relative hair so
   * that rounding of the cell edges cannot skip a point at exactly the best distance (a tie).
   */
  private outsideBound(qx: number, qy: number, ci: number, cj: number, r: number): number {
    if (r === 0) return 0;
    let bound = Number.POSITIVE_INFINITY;
    const { minX, minY, cell } = this;
    if (ci - r + 1 > 0) bound = Math.min(bound, Math.max(0, qx - (minX + (ci - r + 1) * cell)));
    if (ci + r < this.nx) bound = Math.min(bound, Math.max(0, minX + (ci + r) * cell - qx));
    if (cj - r + 1 > 0) bound = Math.min(bound, Math.max(0, qy - (minY + (cj - r + 1) * cell)));
    if (cj + r < this.ny) bound = Math.min(bound, Math.max(0, minY + (cj + r) * cell - qy));
    return bound === Number.POSITIVE_INFINITY ? bound : bound * (1 - 1e-9) - 1e-9 * cell;
  }

  private cellIndex(x: number, y: number): number {
    return this.clampY(y) * this.nx + this.clampX(x);
  }

  private clampX(x: number): number {
    return Math.min(this.nx - 1, Math.max(0, Math.floor((x - this.minX) / this.cell)));
  }

  private clampY(y: number): number {
    return Math.min(this.ny - 1, Math.max(0, Math.floor((y - this.minY) / this.cell)));
  }
}

/**
 * The coordinates of `rows` of `array`, interleaved; null when a row is not a finite point (with
 * `skipMissing`, null and empty rows and NaN points give NaN instead).
 */
function pointCoords(array: GeometryArray, rows: Int32Array, skipMissing = false): Float64Array | null {
  const xy = new Float64Array(2 * rows.length);
  const pointColumn = array.type === GeometryType.Point;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    if (skipMissing && (array.isNull(i) || array.isEmpty(i))) {
      xy[2 * k] = Number.NaN;
      continue;
    }
    if (array.typeOf(i) !== GeometryType.Point) return null;
    // a point column holds row i's coordinate at i (empty rows, NaN, were handled above)
    const p = pointColumn ? i : array.coordRange(i)[0];
    const x = array.coords[p * array.stride];
    const y = array.coords[p * array.stride + 1];
    // NaN: no bounds, no neighbour (as the general path); ±Infinity: left to the general path
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (!skipMissing) return null;
      xy[2 * k] = Number.NaN;
      continue;
    }
    if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
    xy[2 * k] = x;
    xy[2 * k + 1] = y;
  }
  return xy;
}
