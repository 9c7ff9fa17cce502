import { InvalidGeometryError } from '../errors.js';
import type { GeometryArray } from './geometry-array.js';
import { GeometryType, geometryTypeName } from './geometry-type.js';

/** Options of {@link validateGeometryArray}. */
export interface ValidateOptions {
  /** Added to row indices in error messages, e.g. the position of this chunk in a larger column. */
  rowOffset?: number;
}

/** What the items of each offset level are called in messages, outer to inner, per column type. */
const LEVEL_ITEMS: Record<GeometryType | 'mixed', readonly string[]> = {
  [GeometryType.Point]: [],
  [GeometryType.LineString]: ['coordinate'],
  [GeometryType.Polygon]: ['ring', 'coordinate'],
  [GeometryType.MultiPoint]: ['point'],
  [GeometryType.MultiLineString]: ['linestring', 'coordinate'],
  [GeometryType.MultiPolygon]: ['polygon', 'ring', 'coordinate'],
  mixed: ['part', 'ring', 'coordinate'],
};

/**
 * Checks that a GeometryArray's buffers describe well-formed geometries and throws an
 * InvalidGeometryError naming the first bad row (plus `rowOffset`). Checked:
 *
 * - offsets: non-decreasing, non-negative and within the next level (or the coordinates), at
 *   every level reached from the rows; the row-level offsets are checked for null rows too;
 * - polygon rings: at least 4 coordinates, closed (first and last coordinate have equal x and y);
 * - linestrings: 0 or at least 2 coordinates;
 * - x and y finite (z and m are not checked), except a Point row whose x and y are both NaN
 *   (the empty point);
 * - mixed columns: every valid row's type id is a geometry type (1–6) and its parts and rings
 *   have the mixed layout's shape (a point is one part with one ring of one coordinate, a
 *   linestring one part with one ring, a polygon one part; multipoint parts hold one coordinate
 *   each and multilinestring parts one ring each).
 *
 * Null rows' geometries are not inspected. Runs in time linear in the buffers and allocates
 * nothing per row.
 */
export function validateGeometryArray(array: GeometryArray, options: ValidateOptions = {}): void {
  new Validator(array, options.rowOffset ?? 0).run();
}

class Validator {
  private readonly coords: Float64Array;
  private readonly stride: number;
  private readonly offsets: readonly Int32Array[];
  /** Number of items each offset level may point at (next level's items, or coordinates). */
  private readonly limits: number[];
  private readonly items: readonly string[];
  private row = 0;

  constructor(
    private readonly array: GeometryArray,
    private readonly rowOffset: number,
  ) {
    this.coords = array.coords;
    this.stride = array.stride;
    this.offsets = array.offsets;
    const coordCount = Math.floor(array.coords.length / array.stride);
    this.limits = this.offsets.map((_, k) =>
      k + 1 < this.offsets.length ? this.offsets[k + 1].length - 1 : coordCount,
    );
    this.items = LEVEL_ITEMS[array.type];
  }

  run(): void {
    const a = this.array;
    if (a.type === GeometryType.Point) {
      if (a.coords.length < a.length * this.stride) {
        this.row = 0;
        this.fail(
          `the coordinate buffer holds ${Math.floor(a.coords.length / this.stride)} points for ${a.length} rows`,
        );
      }
      for (let i = 0; i < a.length; i++) {
        if (!a.isValid(i)) continue;
        this.row = i;
        this.checkPointCoordinate(i, 'the point');
      }
      return;
    }
    const o0 = this.offsets[0];
    for (let i = 0; i < a.length; i++) {
      this.row = i;
      this.checkItem(0, i);
      if (!a.isValid(i)) continue;
      const lo = o0[i];
      const hi = o0[i + 1];
      switch (a.type) {
        case GeometryType.LineString:
          this.checkLineString(lo, hi, 'the linestring');
          break;
        case GeometryType.MultiPoint:
          for (let k = lo; k < hi; k++) this.checkFinite(k, `point ${k - lo}`);
          break;
        case GeometryType.Polygon:
          this.checkPolygon(1, lo, hi, -1);
          break;
        case GeometryType.MultiLineString:
          for (let p = lo; p < hi; p++) {
            this.checkItem(1, p);
            this.checkLineString(this.offsets[1][p], this.offsets[1][p + 1], `linestring ${p - lo}`);
          }
          break;
        case GeometryType.MultiPolygon:
          for (let p = lo; p < hi; p++) {
            this.checkItem(1, p);
            this.checkPolygon(2, this.offsets[1][p], this.offsets[1][p + 1], p - lo);
          }
          break;
        default:
          this.checkMixedRow(i, lo, hi);
      }
    }
  }

  /** Offsets of item `j` at `level`: ordered, and pointing inside the next level. */
  private checkItem(level: number, j: number): void {
    const o = this.offsets[level];
    const lo = o[j];
    const hi = o[j + 1];
    const what = this.items[level];
    if (hi < lo) this.fail(`${what} offsets decrease (${lo} then ${hi})`);
    if (lo < 0) this.fail(`${what} offset ${lo} is negative`);
    if (hi > this.limits[level]) {
      this.fail(`${what} offset ${hi} is past the end (${this.limits[level]} ${what}s)`);
    }
  }

  /** Rings `[lo, hi)` of a polygon (ring offsets at `ringLevel`); `polygon` ≥ 0 names it in a multipolygon. */
  private checkPolygon(ringLevel: number, lo: number, hi: number, polygon: number): void {
    const ro = this.offsets[ringLevel];
    for (let r = lo; r < hi; r++) {
      this.checkItem(ringLevel, r);
      const c0 = ro[r];
      const c1 = ro[r + 1];
      const count = c1 - c0;
      const ring = r - lo;
      for (let k = c0; k < c1; k++) {
        if (!this.finite(k))
          this.fail(`coordinate ${k - c0} of ${ringName(ring, polygon)} is not finite ${this.xy(k)}`);
      }
      if (count < 4) {
        this.fail(
          `${ringName(ring, polygon)} has ${count} coordinate${count === 1 ? '' : 's'}; a ring needs at least 4`,
        );
      }
      const s = this.stride;
      const c = this.coords;
      if (c[c0 * s] !== c[(c1 - 1) * s] || c[c0 * s + 1] !== c[(c1 - 1) * s + 1]) {
        this.fail(`${ringName(ring, polygon)} is not closed (first ${this.xy(c0)}, last ${this.xy(c1 - 1)})`);
      }
    }
  }

  /** Coordinates `[lo, hi)` of a linestring named `label`. */
  private checkLineString(lo: number, hi: number, label: string): void {
    const count = hi - lo;
    if (count === 1) this.fail(`${label} has 1 coordinate; a linestring needs 0 or at least 2`);
    for (let k = lo; k < hi; k++) {
      if (!this.finite(k)) this.fail(`coordinate ${k - lo} of ${label} is not finite ${this.xy(k)}`);
    }
  }

  private checkMixedRow(i: number, lo: number, hi: number): void {
    const type = this.array.typeIds![i];
    if (type < GeometryType.Point || type > GeometryType.MultiPolygon) {
      this.fail(`type id ${type} is not a geometry type (1 to 6)`);
    }
    const name = geometryTypeName(type as GeometryType);
    const parts = hi - lo;
    const single =
      type === GeometryType.Point || type === GeometryType.LineString || type === GeometryType.Polygon;
    if (single && parts > 1) this.fail(`a ${name} has ${parts} parts; it can have at most 1`);
    const po = this.offsets[1];
    const ro = this.offsets[2];
    for (let p = lo; p < hi; p++) {
      this.checkItem(1, p);
      const r0 = po[p];
      const r1 = po[p + 1];
      if (type === GeometryType.Polygon || type === GeometryType.MultiPolygon) {
        this.checkPolygon(2, r0, r1, type === GeometryType.MultiPolygon ? p - lo : -1);
        continue;
      }
      if (r1 - r0 > 1) this.fail(`part ${p - lo} of a ${name} has ${r1 - r0} rings; it can have at most 1`);
      for (let r = r0; r < r1; r++) {
        this.checkItem(2, r);
        const c0 = ro[r];
        const c1 = ro[r + 1];
        switch (type) {
          case GeometryType.Point:
            if (c1 - c0 > 1) this.fail(`a Point has ${c1 - c0} coordinates`);
            if (c1 > c0) this.checkPointCoordinate(c0, 'the point');
            break;
          case GeometryType.MultiPoint:
            if (c1 - c0 !== 1)
              this.fail(`point ${p - lo} of a MultiPoint has ${c1 - c0} coordinates; it needs 1`);
            this.checkFinite(c0, `point ${p - lo}`);
            break;
          case GeometryType.LineString:
            this.checkLineString(c0, c1, 'the linestring');
            break;
          default:
            this.checkLineString(c0, c1, `linestring ${p - lo}`);
        }
      }
    }
  }

  /** A point's coordinate: finite, or x and y both NaN (empty point). */
  private checkPointCoordinate(k: number, label: string): void {
    const x = this.coords[k * this.stride];
    const y = this.coords[k * this.stride + 1];
    if (Number.isNaN(x) && Number.isNaN(y)) return;
    this.checkFinite(k, label);
  }

  private checkFinite(k: number, label: string): void {
    if (!this.finite(k)) this.fail(`${label} is not finite ${this.xy(k)}`);
  }

  private finite(k: number): boolean {
    return Number.isFinite(this.coords[k * this.stride]) && Number.isFinite(this.coords[k * this.stride + 1]);
  }

  private xy(k: number): string {
    return `(${this.coords[k * this.stride]}, ${this.coords[k * this.stride + 1]})`;
  }

  private fail(problem: string): never {
    throw new InvalidGeometryError(this.row + this.rowOffset, problem);
  }
}

function ringName(ring: number, polygon: number): string {
  return polygon >= 0 ? `ring ${ring} of polygon ${polygon}` : `ring ${ring}`;
}
