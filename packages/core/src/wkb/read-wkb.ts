import type { BinaryColumn } from '../array/binary-column.js';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryBuilder } from '../array/geometry-builder.js';
import { type ColumnType, GeometryType } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';
import { binaryRowIsValid, binaryRowOffset, checkBinaryColumn } from './binary-rows.js';
import { columnTypeOfMask, dimensionOfFlags, HAS_M, HAS_Z } from './column-shape.js';
import { WkbCursor } from './wkb-cursor.js';

/** Options of {@link readWkb}. */
export interface ReadWkbOptions {
  /** CRS label carried by the result (WKB itself carries none; an EWKB SRID is ignored). */
  crs?: Crs | null;
}

const PLATFORM_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Decodes a WKB column into a {@link GeometryArray}.
 *
 * Accepts ISO WKB (type code + 1000/2000/3000 for Z/M/ZM) and extended WKB as PostGIS writes it
 * (flags 0x80000000 Z, 0x40000000 M, 0x20000000 SRID; the 4-byte SRID is skipped), in either
 * byte order; every nested geometry carries, and is read with, its own byte order.
 *
 * Column type: when all non-null rows have one type, that native type; when they are a single
 * type and its Multi type only, the Multi type (single geometries become one-part Multi
 * geometries); otherwise `'mixed'`. A column with no non-null rows is a Point column.
 * Dimension: the widest over all rows and nested geometries (xy < xyz, xym < xyzm; xyz with
 * xym gives xyzm); values a row lacks are NaN.
 *
 * Empty points: WKB writes them as NaN coordinates. In a Point column they stay NaN
 * coordinates (GeoArrow's empty point); in a MultiPoint or mixed column a top-level point with
 * NaN x and y becomes an empty geometry (no parts), and a NaN member of a MultiPoint stays a
 * NaN coordinate.
 *
 * Nulls come from the column's validity bitmap (its bit offset respected). Works in two
 * passes: a structural scan (types, dimensions, bounds) and a decode straight into a
 * {@link GeometryBuilder}, with no per-geometry objects.
 *
 * @throws InvalidGeometryError naming the row for a GeometryCollection or unknown type code, a
 *   bad byte-order byte, a MultiX holding something other than X, a truncated value ("WKB ends
 *   after 17 of 21 bytes"), trailing bytes, or a zero-length non-null value.
 */
export function readWkb(column: BinaryColumn, options: ReadWkbOptions = {}): GeometryArray {
  checkBinaryColumn(column, 'readWkb');
  const n = column.length;
  const cursor = new WkbCursor(column.values);

  // Pass 1: validate structure, collect the row types and dimensions.
  let typeMask = 0;
  let dimFlags = 0;
  for (let i = 0; i < n; i++) {
    if (!binaryRowIsValid(column, i)) continue;
    setRow(cursor, column, i);
    dimFlags |= scanGeometry(cursor);
    typeMask |= 1 << cursor.type;
    if (cursor.pos !== cursor.end) {
      const extra = cursor.end - cursor.pos;
      throw cursor.fail(
        `WKB has ${extra} trailing byte${extra === 1 ? '' : 's'} after a geometry of ${cursor.pos - cursor.start} bytes`,
      );
    }
  }

  // Pass 2: decode into the builder (structure already checked).
  const type = columnTypeOfMask(typeMask);
  const dimension = dimensionOfFlags(dimFlags);
  const builder = new GeometryBuilder(type, dimension, Math.max(n, 1));
  const decoder = new WkbDecoder(cursor, builder, type, dimFlags);
  for (let i = 0; i < n; i++) {
    if (!binaryRowIsValid(column, i)) {
      builder.appendNull();
      continue;
    }
    setRow(cursor, column, i);
    decoder.decodeRow();
  }
  return builder.finish(options.crs ?? null);
}

function setRow(cursor: WkbCursor, column: BinaryColumn, i: number): void {
  const start = binaryRowOffset(column, i);
  const end = binaryRowOffset(column, i + 1);
  if (end < start) throw new InvalidGeometryError(i, `value offsets decrease (${start} to ${end})`);
  if (end === start) throw new InvalidGeometryError(i, 'empty WKB value (0 bytes) in a non-null row');
  cursor.setRow(i, start, end);
}

/**
 * Walks one geometry's structure with bounds checks, skipping coordinates. Leaves the top-level
 * type in `cursor.type` and returns the union of the dimension flags of all its headers.
 */
function scanGeometry(cursor: WkbCursor): number {
  cursor.header();
  const type = cursor.type;
  let dims = cursor.dims;
  switch (type) {
    case GeometryType.Point:
      cursor.skipCoords(1);
      break;
    case GeometryType.LineString:
      cursor.skipCoords(cursor.count());
      break;
    case GeometryType.Polygon:
      scanRings(cursor);
      break;
    default: {
      const member = type - 3;
      const parts = cursor.count();
      for (let p = 0; p < parts; p++) {
        cursor.memberHeader(member, type);
        dims |= cursor.dims;
        if (member === GeometryType.Point) cursor.skipCoords(1);
        else if (member === GeometryType.LineString) cursor.skipCoords(cursor.count());
        else scanRings(cursor);
      }
    }
  }
  cursor.type = type;
  return dims;
}

function scanRings(cursor: WkbCursor): void {
  const rings = cursor.count();
  for (let r = 0; r < rings; r++) cursor.skipCoords(cursor.count());
}

/** Runs at least this long are copied as bytes (when the layout allows); shorter ones per value. */
const COPY_RUN = 8;

/**
 * Decodes rows whose structure {@link scanGeometry} has checked into a builder, reading doubles
 * with a DataView. A long coordinate run whose byte order and dimension match the platform and
 * the column is instead copied as bytes through one scratch buffer (reused for the column).
 */
class WkbDecoder {
  private scratch = new Float64Array(256);
  private scratchBytes = new Uint8Array(this.scratch.buffer);
  // the coordinate read last by readCoord
  private x = 0;
  private y = 0;
  private z = 0;
  private m = 0;

  constructor(
    private readonly cursor: WkbCursor,
    private readonly builder: GeometryBuilder,
    private readonly columnType: ColumnType,
    private readonly columnDims: number,
  ) {}

  decodeRow(): void {
    const c = this.cursor;
    const b = this.builder;
    c.header();
    const type = c.type;
    b.beginGeometry(type);
    switch (type) {
      case GeometryType.Point:
        this.readCoord();
        // a NaN point is an empty point: a Point column keeps the NaN coordinate, others no part
        if (!Number.isNaN(this.x) || !Number.isNaN(this.y) || this.columnType === GeometryType.Point) {
          b.beginPart();
          b.beginRing();
          b.pushCoord(this.x, this.y, this.z, this.m);
        }
        break;
      case GeometryType.LineString:
        b.beginPart();
        b.beginRing();
        this.readRun(c.count());
        break;
      case GeometryType.Polygon:
        b.beginPart();
        this.decodeRings();
        break;
      default: {
        const parts = c.count();
        for (let p = 0; p < parts; p++) {
          c.header();
          b.beginPart();
          if (type === GeometryType.MultiPoint) {
            b.beginRing();
            this.readCoord();
            b.pushCoord(this.x, this.y, this.z, this.m);
          } else if (type === GeometryType.MultiLineString) {
            b.beginRing();
            this.readRun(c.count());
          } else {
            this.decodeRings();
          }
        }
      }
    }
    b.endGeometry();
  }

  private decodeRings(): void {
    const rings = this.cursor.count();
    for (let r = 0; r < rings; r++) {
      this.builder.beginRing();
      this.readRun(this.cursor.count());
    }
  }

  /** Reads one coordinate of the current header's dimension into x, y, z, m (NaN where absent). */
  private readCoord(): void {
    const c = this.cursor;
    const view = c.view;
    const le = c.littleEndian;
    let pos = c.pos;
    this.x = view.getFloat64(pos, le);
    this.y = view.getFloat64(pos + 8, le);
    pos += 16;
    if (c.dims & HAS_Z) {
      this.z = view.getFloat64(pos, le);
      pos += 8;
    } else this.z = Number.NaN;
    if (c.dims & HAS_M) {
      this.m = view.getFloat64(pos, le);
      pos += 8;
    } else this.m = Number.NaN;
    c.pos = pos;
  }

  /** Reads `count` coordinates of the current header's dimension into the builder. */
  private readRun(count: number): void {
    const c = this.cursor;
    const b = this.builder;
    if (count < COPY_RUN || c.dims !== this.columnDims || c.littleEndian !== PLATFORM_LITTLE_ENDIAN) {
      for (let k = 0; k < count; k++) {
        this.readCoord();
        b.pushCoord(this.x, this.y, this.z, this.m);
      }
      return;
    }
    const size = count * b.stride;
    if (size > this.scratch.length) {
      let capacity = this.scratch.length * 2;
      while (capacity < size) capacity *= 2;
      this.scratch = new Float64Array(capacity);
      this.scratchBytes = new Uint8Array(this.scratch.buffer);
    }
    this.scratchBytes.set(c.bytes.subarray(c.pos, c.pos + size * 8));
    c.pos += size * 8;
    b.pushCoords(this.scratch.subarray(0, size));
  }
}
