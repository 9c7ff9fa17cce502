import type { Crs } from './crs.js';
import { GeometryArray } from './geometry-array.js';
import {
  type ColumnType,
  type Dimension,
  GeometryType,
  geometryTypeName,
  offsetLevels,
  strideOf,
} from './geometry-type.js';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from './growable.js';

/** Native column type that can hold a row of `row` type (a Point fits a MultiPoint column, …). */
function fits(column: ColumnType, row: GeometryType): boolean {
  if (column === 'mixed' || column === row) return true;
  return (
    (column === GeometryType.MultiPoint && row === GeometryType.Point) ||
    (column === GeometryType.MultiLineString && row === GeometryType.LineString) ||
    (column === GeometryType.MultiPolygon && row === GeometryType.Polygon)
  );
}

/**
 * Which offset level (or -1: none) a part and a ring of the normalized row → part → ring →
 * coordinate nesting write to, per column type. Single types collapse the levels they lack.
 */
function levelMap(type: ColumnType): { part: number; ring: number } {
  switch (type) {
    case GeometryType.Point:
      return { part: -1, ring: -1 };
    case GeometryType.LineString:
      return { part: -1, ring: -1 };
    case GeometryType.MultiPoint:
      return { part: -1, ring: -1 };
    case GeometryType.Polygon:
      return { part: -1, ring: 1 };
    case GeometryType.MultiLineString:
      return { part: 1, ring: -1 };
    default:
      return { part: 1, ring: 2 };
  }
}

/**
 * Appends geometries into growable typed arrays and `finish()`es a {@link GeometryArray}; no
 * per-geometry objects. Every geometry is described in the normalized nesting row → part →
 * ring → coordinate, and the builder collapses the levels the column type does not have:
 *
 * ```ts
 * const b = new GeometryBuilder(GeometryType.Polygon);
 * b.beginGeometry(GeometryType.Polygon);
 * b.beginPart();
 * b.beginRing(); b.pushXY(0, 0); b.pushXY(1, 0); b.pushXY(0, 1); b.pushXY(0, 0);
 * b.endGeometry();
 * b.appendNull();
 * const polygons = b.finish();
 * ```
 *
 * A Point, LineString or Polygon row may be appended to a column of its Multi type. In a
 * MultiPoint row each point is a part (call `beginPart` before each coordinate; `beginRing` is
 * optional). Convenience methods cover points and whole coordinate runs.
 */
export class GeometryBuilder {
  readonly type: ColumnType;
  readonly dimension: Dimension;
  readonly stride: number;
  private readonly coords: GrowableFloat64;
  private readonly offsets: GrowableInt32[];
  private readonly validity = new GrowableUint8();
  private readonly typeIds: GrowableUint8 | null;
  private readonly partLevel: number;
  private readonly ringLevel: number;
  private rows = 0;
  private nulls = 0;
  private open: GeometryType | null = null;
  private coordsAtBegin = 0;
  private partsInRow = 0;
  private ringsInPart = 0;

  constructor(type: ColumnType, dimension: Dimension = 'xy', capacity = 16) {
    this.type = type;
    this.dimension = dimension;
    this.stride = strideOf(dimension);
    this.coords = new GrowableFloat64(capacity * this.stride);
    this.offsets = [];
    for (let level = 0; level < offsetLevels(type); level++) {
      const o = new GrowableInt32(capacity + 1);
      o.push(0);
      this.offsets.push(o);
    }
    this.typeIds = type === 'mixed' ? new GrowableUint8(capacity) : null;
    const map = levelMap(type);
    this.partLevel = map.part;
    this.ringLevel = map.ring;
  }

  /** Rows appended so far. */
  get length(): number {
    return this.rows;
  }

  /** Starts a row holding a geometry of `type`. */
  beginGeometry(type: GeometryType): void {
    if (this.open !== null) throw new Error('beginGeometry: the previous geometry was not ended');
    if (!fits(this.type, type)) {
      const column = this.type === 'mixed' ? 'mixed' : geometryTypeName(this.type);
      throw new TypeError(`row ${this.rows}: a ${geometryTypeName(type)} does not fit a ${column} column`);
    }
    this.open = type;
    this.coordsAtBegin = this.coords.length;
    this.partsInRow = 0;
    this.ringsInPart = 0;
    this.setValid(true);
    this.typeIds?.push(type);
    if (this.offsets.length > 0) this.openChild(-1);
  }

  /** Starts a part (a point of a MultiPoint, a line of a MultiLineString, a polygon of a MultiPolygon). */
  beginPart(): void {
    this.partsInRow++;
    this.ringsInPart = 0;
    if (this.partLevel >= 0) {
      this.openChild(this.partLevel - 1);
      // a point's coordinate sits in a ring of its own in the mixed layout
      if (this.isPointRow() && this.ringLevel >= 0) this.openChild(this.ringLevel - 1);
    } else if (this.partsInRow > 1 && this.open !== GeometryType.MultiPoint) {
      throw new Error(`row ${this.rows}: a ${geometryTypeName(this.open!)} has one part`);
    }
  }

  /** Starts a ring (of a polygon) or the coordinate run of a linestring. */
  beginRing(): void {
    if (this.isPointRow()) return;
    this.ringsInPart++;
    if (this.ringLevel >= 0) {
      this.openChild(this.ringLevel - 1);
    } else if (this.ringsInPart > 1) {
      throw new Error(`row ${this.rows}: a ${geometryTypeName(this.open!)} part has one coordinate run`);
    }
  }

  /** Appends a 2D coordinate (z and m, if the column has them, are NaN). */
  pushXY(x: number, y: number): void {
    this.pushCoord(x, y, Number.NaN, Number.NaN);
  }

  /** Appends a coordinate; `z`/`m` are used only if the column has those dimensions. */
  pushCoord(x: number, y: number, z = Number.NaN, m = Number.NaN): void {
    const c = this.coords;
    c.push(x);
    c.push(y);
    if (this.dimension === 'xyz' || this.dimension === 'xyzm') c.push(z);
    if (this.dimension === 'xym' || this.dimension === 'xyzm') c.push(m);
    this.countCoords(1);
  }

  /** Appends `values.length / stride` coordinates already interleaved in this column's stride. */
  pushCoords(values: ArrayLike<number>): void {
    if (values.length % this.stride !== 0) {
      throw new RangeError(`pushCoords: ${values.length} values is not a multiple of stride ${this.stride}`);
    }
    this.coords.pushAll(values);
    this.countCoords(values.length / this.stride);
  }

  /** Ends the current row. A Point column gets NaN coordinates for an empty point. */
  endGeometry(): void {
    if (this.open === null) throw new Error('endGeometry: no geometry was begun');
    if (this.type === GeometryType.Point) {
      const written = (this.coords.length - this.coordsAtBegin) / this.stride;
      if (written === 0) for (let d = 0; d < this.stride; d++) this.coords.push(Number.NaN);
      else if (written > 1) throw new Error(`row ${this.rows}: a Point has one coordinate, got ${written}`);
    }
    this.open = null;
    this.rows++;
  }

  /** Appends a point row. */
  appendPoint(x: number, y: number, z?: number, m?: number): void {
    this.beginGeometry(GeometryType.Point);
    this.beginPart();
    this.beginRing();
    this.pushCoord(x, y, z, m);
    this.endGeometry();
  }

  /** Appends an empty geometry of `type` (POINT EMPTY is NaN coordinates in a Point column). */
  appendEmpty(type: GeometryType): void {
    this.beginGeometry(type);
    this.endGeometry();
  }

  /** Appends a null (missing) row. */
  appendNull(): void {
    if (this.open !== null) throw new Error('appendNull: the previous geometry was not ended');
    this.setValid(false);
    this.nulls++;
    this.typeIds?.push(0);
    if (this.offsets.length > 0) this.openChild(-1);
    if (this.type === GeometryType.Point) for (let d = 0; d < this.stride; d++) this.coords.push(Number.NaN);
    this.rows++;
  }

  /** The built array. The builder must not be used afterwards. */
  finish(crs: Crs | null = null): GeometryArray {
    if (this.open !== null) throw new Error('finish: the last geometry was not ended');
    return new GeometryArray({
      type: this.type,
      dimension: this.dimension,
      coords: this.coords.finish(),
      offsets: this.offsets.map((o) => o.finish()),
      length: this.rows,
      validity: this.nulls > 0 ? this.validity.finish() : null,
      typeIds: this.typeIds?.finish() ?? null,
      crs,
    });
  }

  private isPointRow(): boolean {
    return this.open === GeometryType.Point || this.open === GeometryType.MultiPoint;
  }

  /** Adds a child to the last item of offset level `parent` (-1: a new row at level 0). */
  private openChild(parent: number): void {
    if (parent >= 0) {
      const o = this.offsets[parent];
      o.set(o.length - 1, o.get(o.length - 1) + 1);
    }
    const level = this.offsets[parent + 1];
    level.push(level.get(level.length - 1));
  }

  /** Adds `count` coordinates to the innermost open item. */
  private countCoords(count: number): void {
    if (this.open === null)
      throw new Error('coordinates must be pushed between beginGeometry and endGeometry');
    const inner = this.offsets[this.offsets.length - 1];
    if (inner) inner.set(inner.length - 1, inner.get(inner.length - 1) + count);
  }

  private setValid(valid: boolean): void {
    const row = this.rows;
    if ((row & 7) === 0) this.validity.push(0);
    if (valid) this.validity.set(row >> 3, this.validity.get(row >> 3) | (1 << (row & 7)));
  }
}
