import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryType } from '../array/geometry-type.js';
import { flagsOfDimension, HAS_M, HAS_Z } from '../wkb/column-shape.js';
import { type RowLayout, rowLayoutOf } from '../wkb/row-layout.js';
import { checkPrecision, formatNumber } from './format-number.js';

/** Options of {@link formatWkt} and {@link writeWkt}. */
export interface WriteWktOptions {
  /**
   * Digits after the decimal point (integer 0 to 100), trailing zeros trimmed; default: the
   * shortest text that reads back to the same double.
   */
  precision?: number;
}

const KEYWORDS: Record<GeometryType, string> = {
  [GeometryType.Point]: 'POINT',
  [GeometryType.LineString]: 'LINESTRING',
  [GeometryType.Polygon]: 'POLYGON',
  [GeometryType.MultiPoint]: 'MULTIPOINT',
  [GeometryType.MultiLineString]: 'MULTILINESTRING',
  [GeometryType.MultiPolygon]: 'MULTIPOLYGON',
};

const MARKERS = ['', ' Z', ' M', ' ZM'];

/**
 * WKT of row `i` in the style of GeoPandas/shapely: `POINT (1 2)`, `LINESTRING (0 0, 1 1)`,
 * `POLYGON ((0 0, 1 0, 0 1, 0 0), (…))`, `MULTIPOINT ((0 0), (1 1))`, `POINT Z (1 2 3)`,
 * `POINT EMPTY`, `MULTIPOLYGON EMPTY`; an empty member is `EMPTY` (`MULTIPOINT (EMPTY, (1 1))`).
 * Numbers as {@link formatNumber} writes them.
 *
 * Dimension markers are per row: a row of an xyz/xym/xyzm column whose z (or m) values are all
 * NaN is written without them, so rows that were 2D when read come back 2D; an empty row takes
 * the column's marker (`POINT Z EMPTY`). Costs O(size of the row) — nothing column-wide is
 * computed — so it suits printing a few rows.
 *
 * @returns the text, or null for a null row.
 * @throws RangeError for a row index outside the array or a bad precision.
 */
export function formatWkt(array: GeometryArray, i: number, options: WriteWktOptions = {}): string | null {
  checkPrecision(options.precision);
  if (!Number.isInteger(i) || i < 0 || i >= array.length) {
    throw new RangeError(`formatWkt: row ${i} is outside 0..${array.length - 1}`);
  }
  if (!array.isValid(i)) return null;
  return new WktFormatter(array, options.precision).row(i);
}

/** WKT of every row, as {@link formatWkt} writes it; null rows are null. */
export function writeWkt(array: GeometryArray, options: WriteWktOptions = {}): (string | null)[] {
  checkPrecision(options.precision);
  const formatter = new WktFormatter(array, options.precision);
  const out: (string | null)[] = new Array(array.length);
  for (let i = 0; i < array.length; i++) out[i] = array.isValid(i) ? formatter.row(i) : null;
  return out;
}

/** Formats rows of one array; holds only the array's layout and the current row's settings. */
class WktFormatter {
  private readonly layout: RowLayout;
  private readonly coords: Float64Array;
  private readonly stride: number;
  private readonly columnFlags: number;
  private readonly zAt: number;
  private readonly mAt: number;
  /** Write z / m for the current row. */
  private z = false;
  private m = false;

  constructor(
    private readonly array: GeometryArray,
    private readonly precision: number | undefined,
  ) {
    this.layout = rowLayoutOf(array);
    this.coords = array.coords;
    this.stride = array.stride;
    this.columnFlags = flagsOfDimension(array.dimension);
    this.zAt = this.columnFlags & HAS_Z ? 2 : -1;
    this.mAt = this.columnFlags & HAS_M ? this.stride - 1 : -1;
  }

  /** WKT of valid row `i`. */
  row(i: number): string {
    const type = this.array.typeOf(i)!;
    const flags = this.rowFlags(i);
    this.z = (flags & HAS_Z) !== 0;
    this.m = (flags & HAS_M) !== 0;
    const body = this.body(type, i);
    return `${KEYWORDS[type]}${MARKERS[flags]} ${body}`;
  }

  /** Dimension flags of row `i`: those of the column, less z/m when all of the row's are NaN. */
  private rowFlags(i: number): number {
    const flags = this.columnFlags;
    if (flags === 0) return 0;
    const [c0, c1] = this.array.coordRange(i);
    if (c1 === c0) return flags;
    let seen = 0;
    const c = this.coords;
    for (let k = c0 * this.stride, end = c1 * this.stride; k < end && seen !== flags; k += this.stride) {
      if (this.zAt >= 0 && !Number.isNaN(c[k + this.zAt])) seen |= HAS_Z;
      if (this.mAt >= 0 && !Number.isNaN(c[k + this.mAt])) seen |= HAS_M;
    }
    return seen;
  }

  private body(type: GeometryType, i: number): string {
    const { parts, rings } = this.layout;
    const p0 = parts ? parts[i] : i;
    const p1 = parts ? parts[i + 1] : i + 1;
    switch (type) {
      case GeometryType.Point:
        return p1 > p0 ? this.point(this.firstCoord(p0)) : 'EMPTY';
      case GeometryType.MultiPoint: {
        if (p1 === p0) return 'EMPTY';
        let text = '(';
        for (let p = p0; p < p1; p++) {
          if (p > p0) text += ', ';
          text += this.point(this.firstCoord(p));
        }
        return `${text})`;
      }
      case GeometryType.LineString:
        return p1 > p0 ? this.run(rings ? rings[p0] : p0) : 'EMPTY';
      case GeometryType.MultiLineString: {
        if (p1 === p0) return 'EMPTY';
        let text = '(';
        for (let p = p0; p < p1; p++) {
          if (p > p0) text += ', ';
          text += this.run(rings ? rings[p] : p);
        }
        return `${text})`;
      }
      case GeometryType.Polygon:
        return p1 > p0 ? this.polygon(p0) : 'EMPTY';
      default: {
        if (p1 === p0) return 'EMPTY';
        let text = '(';
        for (let p = p0; p < p1; p++) {
          if (p > p0) text += ', ';
          text += this.polygon(p);
        }
        return `${text})`;
      }
    }
  }

  private firstCoord(p: number): number {
    const { rings, coords } = this.layout;
    const r = rings ? rings[p] : p;
    return coords ? coords[r] : r;
  }

  /** `(x y)` or `EMPTY` for a coordinate whose x and y are NaN. */
  private point(k: number): string {
    const at = k * this.stride;
    if (Number.isNaN(this.coords[at]) && Number.isNaN(this.coords[at + 1])) return 'EMPTY';
    return `(${this.coord(at)})`;
  }

  /** `(x y, x y, …)` of ring or linestring `r`, or `EMPTY`. */
  private run(r: number): string {
    const coords = this.layout.coords;
    const c0 = coords ? coords[r] : r;
    const c1 = coords ? coords[r + 1] : r + 1;
    if (c1 === c0) return 'EMPTY';
    let text = '(';
    for (let k = c0; k < c1; k++) {
      if (k > c0) text += ', ';
      text += this.coord(k * this.stride);
    }
    return `${text})`;
  }

  /** `((ring), (ring))` of part `p`, or `EMPTY`. */
  private polygon(p: number): string {
    const rings = this.layout.rings;
    const r0 = rings ? rings[p] : p;
    const r1 = rings ? rings[p + 1] : p + 1;
    if (r1 === r0) return 'EMPTY';
    let text = '(';
    for (let r = r0; r < r1; r++) {
      if (r > r0) text += ', ';
      text += this.run(r);
    }
    return `${text})`;
  }

  /** `x y [z] [m]` of the coordinate at value position `at`. */
  private coord(at: number): string {
    const c = this.coords;
    const precision = this.precision;
    let text = `${formatNumber(c[at], precision)} ${formatNumber(c[at + 1], precision)}`;
    if (this.z) text += ` ${formatNumber(c[at + this.zAt], precision)}`;
    if (this.m) text += ` ${formatNumber(c[at + this.mAt], precision)}`;
    return text;
  }
}
