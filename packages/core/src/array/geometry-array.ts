import type { Crs } from './crs.js';
import { type ColumnType, type Dimension, GeometryType, offsetLevels, strideOf } from './geometry-type.js';
import { gatherRows } from './take.js';

/** What a {@link GeometryArray} is made of. Buffers are referenced, never copied. */
export interface GeometryArrayParts {
  type: ColumnType;
  dimension: Dimension;
  /** Interleaved coordinates, `strideOf(dimension)` values each. */
  coords: Float64Array;
  /**
   * Offsets from outer to inner level, `offsetLevels(type)` arrays. `offsets[0]` has `length + 1`
   * entries (row → first child); it need not start at 0 (a slice shares its parent's buffers).
   */
  offsets: readonly Int32Array[];
  /** Number of rows. */
  length: number;
  /** Arrow validity bitmap (bit set = valid), or null when every row is valid. */
  validity?: Uint8Array | null;
  /** Bit position of row 0 in `validity`. */
  validityOffset?: number;
  /** Per-row geometry type; required for `'mixed'` columns, ignored otherwise. */
  typeIds?: Uint8Array | null;
  crs?: Crs | null;
}

/** The normalized nesting every geometry type fits: row → part → ring → coordinate. */
export interface NestedOffsets {
  /** Row → first part; `length + 1` entries. */
  geometryOffsets: Int32Array;
  /** Part → first ring. */
  partOffsets: Int32Array;
  /** Ring → first coordinate. */
  ringOffsets: Int32Array;
}

/**
 * An immutable view over GeoArrow buffers: one geometry per row, of one native type or mixed.
 *
 * Layout (GeoArrow native, interleaved): a point row is one coordinate, `coords[i * stride]`;
 * an empty point is a coordinate of NaNs. Other types reach their coordinates through
 * `offsetLevels(type)` offset arrays: linestring/multipoint row → coordinate; polygon row →
 * ring → coordinate; multilinestring row → linestring → coordinate; multipolygon row →
 * polygon → ring → coordinate. Mixed columns (from WKB/WKT with several types) use all three
 * levels for every row and carry a per-row `typeIds`; a point row there is one part with one
 * ring of one coordinate, a linestring one part with one ring, a polygon one part.
 *
 * Z and M are kept in `coords` (stride 3 or 4); 2D operations read x and y only.
 */
export class GeometryArray {
  readonly type: ColumnType;
  readonly dimension: Dimension;
  readonly stride: number;
  readonly coords: Float64Array;
  readonly offsets: readonly Int32Array[];
  readonly length: number;
  readonly validity: Uint8Array | null;
  readonly validityOffset: number;
  readonly typeIds: Uint8Array | null;
  readonly crs: Crs | null;
  private nested?: NestedOffsets;

  constructor(parts: GeometryArrayParts) {
    this.type = parts.type;
    this.dimension = parts.dimension;
    this.stride = strideOf(parts.dimension);
    this.coords = parts.coords;
    this.offsets = parts.offsets;
    this.length = parts.length;
    this.validity = parts.validity ?? null;
    this.validityOffset = parts.validityOffset ?? 0;
    this.typeIds = parts.type === 'mixed' ? (parts.typeIds ?? null) : null;
    this.crs = parts.crs ?? null;
    const levels = offsetLevels(parts.type);
    if (parts.offsets.length !== levels) {
      throw new RangeError(
        `a ${String(parts.type)} array needs ${levels} offset arrays, got ${parts.offsets.length}`,
      );
    }
    if (levels > 0 && parts.offsets[0].length < parts.length + 1) {
      throw new RangeError(
        `geometry offsets have ${parts.offsets[0].length} entries for ${parts.length} rows`,
      );
    }
    if (parts.type === 'mixed' && (!this.typeIds || this.typeIds.length < parts.length)) {
      throw new RangeError('a mixed array needs one type id per row');
    }
  }

  /** Whether row `i` holds a geometry (possibly empty). */
  isValid(i: number): boolean {
    if (this.validity === null) return true;
    const bit = i + this.validityOffset;
    return (this.validity[bit >> 3] & (1 << (bit & 7))) !== 0;
  }

  /** Whether row `i` is null (missing), as opposed to an empty geometry. */
  isNull(i: number): boolean {
    return !this.isValid(i);
  }

  /** Number of null rows. */
  nullCount(): number {
    if (this.validity === null) return 0;
    let nulls = 0;
    for (let i = 0; i < this.length; i++) if (!this.isValid(i)) nulls++;
    return nulls;
  }

  /** The geometry type of row `i`, or null for a null row. */
  typeOf(i: number): GeometryType | null {
    if (!this.isValid(i)) return null;
    return this.type === 'mixed' ? (this.typeIds![i] as GeometryType) : this.type;
  }

  /** Whether row `i` is an empty geometry (false for null rows, as in GeoPandas). */
  isEmpty(i: number): boolean {
    if (!this.isValid(i)) return false;
    if (this.type === GeometryType.Point) {
      const k = i * this.stride;
      return Number.isNaN(this.coords[k]) && Number.isNaN(this.coords[k + 1]);
    }
    const o = this.offsets[0];
    return o[i + 1] === o[i];
  }

  /**
   * The coordinates of row `i` as a half-open range `[start, end)` of coordinate indices
   * (multiply by `stride` for positions in `coords`). Empty for empty geometries; the range of a
   * null row is whatever its offsets say (usually empty) and should not be read.
   */
  coordRange(i: number): [number, number] {
    if (this.type === GeometryType.Point) return this.isEmpty(i) ? [i, i] : [i, i + 1];
    let lo = i;
    let hi = i + 1;
    for (const level of this.offsets) {
      lo = level[lo];
      hi = level[hi];
    }
    return [lo, hi];
  }

  /** x of coordinate `k` (a coordinate index, not a row). */
  x(k: number): number {
    return this.coords[k * this.stride];
  }

  /** y of coordinate `k`. */
  y(k: number): number {
    return this.coords[k * this.stride + 1];
  }

  /** Number of coordinates in the buffers reachable from these rows' offsets. */
  get coordCount(): number {
    return this.coords.length / this.stride;
  }

  /**
   * The offsets in the normalized row → part → ring → coordinate nesting, whatever the type,
   * so one loop serves every type (area, length, bounds, centroid, writers). Levels the native
   * layout lacks are identity arrays (one part per row, one ring per part). Points keep their
   * layout: an empty point is one ring holding one NaN coordinate, so check `isEmpty` first.
   * Computed once and cached.
   */
  nestedOffsets(): NestedOffsets {
    if (this.nested) return this.nested;
    const n = this.length;
    const identity = (start: number, count: number) => {
      const a = new Int32Array(count + 1);
      for (let i = 0; i <= count; i++) a[i] = start + i;
      return a;
    };
    const o = this.offsets;
    let nested: NestedOffsets;
    switch (this.type) {
      case GeometryType.Point: {
        const ids = identity(0, this.coordCount);
        nested = { geometryOffsets: identity(0, n), partOffsets: ids, ringOffsets: ids };
        break;
      }
      case GeometryType.LineString: {
        // rows are parts and parts are rings: both identity over row indices
        const rows = identity(0, o[0].length - 1);
        nested = { geometryOffsets: rows, partOffsets: rows, ringOffsets: o[0] };
        break;
      }
      case GeometryType.MultiPoint: {
        const coords = identity(0, this.coordCount);
        nested = { geometryOffsets: o[0], partOffsets: coords, ringOffsets: coords };
        break;
      }
      case GeometryType.Polygon:
        nested = { geometryOffsets: identity(0, o[0].length - 1), partOffsets: o[0], ringOffsets: o[1] };
        break;
      case GeometryType.MultiLineString:
        nested = { geometryOffsets: o[0], partOffsets: identity(0, o[1].length - 1), ringOffsets: o[1] };
        break;
      default:
        nested = { geometryOffsets: o[0], partOffsets: o[1], ringOffsets: o[2] };
    }
    this.nested = nested;
    return nested;
  }

  /** Rows `[start, end)` sharing this array's buffers (no copy). Negative indices count from the end. */
  slice(start = 0, end = this.length): GeometryArray {
    const norm = (v: number) => Math.min(this.length, Math.max(0, v < 0 ? this.length + v : v));
    const s = norm(start);
    const e = Math.max(s, norm(end));
    const isPoint = this.type === GeometryType.Point;
    return new GeometryArray({
      type: this.type,
      dimension: this.dimension,
      coords: isPoint ? this.coords.subarray(s * this.stride, e * this.stride) : this.coords,
      offsets: this.offsets.map((level, index) => (index === 0 ? level.subarray(s, e + 1) : level)),
      length: e - s,
      validity: this.validity,
      validityOffset: this.validityOffset + s,
      typeIds: this.typeIds ? this.typeIds.subarray(s, e) : null,
      crs: this.crs,
    });
  }

  /** The rows at `indices`, in that order (repeats allowed), copied into compact buffers. */
  take(indices: ArrayLike<number>): GeometryArray {
    for (let j = 0; j < indices.length; j++) {
      const i = indices[j];
      if (!Number.isInteger(i) || i < 0 || i >= this.length) {
        throw new RangeError(`take: index ${i} at position ${j} is outside 0..${this.length - 1}`);
      }
    }
    return gatherRows(this, indices);
  }

  /** The rows where `mask` is true (or non-zero). `mask` must have one entry per row. */
  filter(mask: ArrayLike<boolean | number>): GeometryArray {
    if (mask.length !== this.length) {
      throw new RangeError(`filter: mask has ${mask.length} entries for ${this.length} rows`);
    }
    let count = 0;
    for (let i = 0; i < mask.length; i++) if (mask[i]) count++;
    const indices = new Int32Array(count);
    for (let i = 0, j = 0; i < mask.length; i++) if (mask[i]) indices[j++] = i;
    return gatherRows(this, indices);
  }

  /** The same rows with another CRS label (coordinates are not transformed). */
  withCrs(crs: Crs | null): GeometryArray {
    return new GeometryArray({ ...this.parts(), crs });
  }

  /** The buffers and settings this array is made of, for building a modified copy. */
  parts(): GeometryArrayParts {
    return {
      type: this.type,
      dimension: this.dimension,
      coords: this.coords,
      offsets: this.offsets,
      length: this.length,
      validity: this.validity,
      validityOffset: this.validityOffset,
      typeIds: this.typeIds,
      crs: this.crs,
    };
  }
}
