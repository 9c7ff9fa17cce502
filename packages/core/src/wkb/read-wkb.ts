import type { BinaryColumn } from '../array/binary-column.js';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryBuilder } from '../array/geometry-builder.js';
import { type ColumnType, GeometryType, strideOf } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';
import { binaryRowIsValid, binaryRowOffset, checkBinaryColumn } from './binary-rows.js';
import { columnTypeOfMask, dimensionOfFlags, flagsOfDimension, HAS_M, HAS_Z } from './column-shape.js';
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

/**
 * Decodes rows whose structure {@link scanGeometry} has checked into a builder. Coordinate runs
 * go through one scratch buffer: a straight byte copy when the run's byte order and dimension
 * match the platform and column, else a DataView read per value.
 */
class WkbDecoder {
  private scratch = new Float64Array(64);
  private scratchBytes = new Uint8Array(this.scratch.buffer);
  private readonly stride: number;
  private readonly zAt: number;
  private readonly mAt: number;

  constructor(
    private readonly cursor: WkbCursor,
    private readonly builder: GeometryBuilder,
    private readonly columnType: ColumnType,
    private readonly columnDims: number,
  ) {
    this.stride = strideOf(dimensionOfFlags(columnDims));
    this.zAt = columnDims & HAS_Z ? 2 : -1;
    this.mAt = columnDims & HAS_M ? this.stride - 1 : -1;
    // keep the dimension flags and the builder's dimension in step
    if (flagsOfDimension(builder.dimension) !== columnDims) throw new Error('WkbDecoder: dimension mismatch');
  }

  decodeRow(): void {
    const c = this.cursor;
    const b = this.builder;
    c.header();
    const type = c.type;
    switch (type) {
      case GeometryType.Point: {
        const values = this.readCoords(1);
        b.beginGeometry(type);
        const empty = Number.isNaN(values[0]) && Number.isNaN(values[1]);
        if (!empty || this.columnType === GeometryType.Point) {
          b.beginPart();
          b.beginRing();
          b.pushCoords(values);
        }
        break;
      }
      case GeometryType.LineString:
        b.beginGeometry(type);
        b.beginPart();
        b.beginRing();
        b.pushCoords(this.readCoords(c.count()));
        break;
      case GeometryType.Polygon:
        b.beginGeometry(type);
        b.beginPart();
        this.decodeRings();
        break;
      default: {
        b.beginGeometry(type);
        const parts = c.count();
        for (let p = 0; p < parts; p++) {
          c.header();
          b.beginPart();
          if (type === GeometryType.MultiPoint) {
            b.beginRing();
            b.pushCoords(this.readCoords(1));
          } else if (type === GeometryType.MultiLineString) {
            b.beginRing();
            b.pushCoords(this.readCoords(c.count()));
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
      this.builder.pushCoords(this.readCoords(this.cursor.count()));
    }
  }

  /** Reads `count` coordinates of the current header's dimension, laid out in the column's stride. */
  private readCoords(count: number): Float64Array {
    const c = this.cursor;
    const stride = this.stride;
    const size = count * stride;
    if (size > this.scratch.length) {
      let capacity = this.scratch.length * 2;
      while (capacity < size) capacity *= 2;
      this.scratch = new Float64Array(capacity);
      this.scratchBytes = new Uint8Array(this.scratch.buffer);
    }
    const out = this.scratch;
    const dims = c.dims;
    if (dims === this.columnDims && c.littleEndian === PLATFORM_LITTLE_ENDIAN) {
      this.scratchBytes.set(c.bytes.subarray(c.pos, c.pos + size * 8));
      c.pos += size * 8;
      return out.subarray(0, size);
    }
    const view = c.view;
    const le = c.littleEndian;
    const zAt = this.zAt;
    const mAt = this.mAt;
    let pos = c.pos;
    for (let k = 0, o = 0; k < count; k++, o += stride) {
      out[o] = view.getFloat64(pos, le);
      out[o + 1] = view.getFloat64(pos + 8, le);
      pos += 16;
      if (dims & HAS_Z) {
        out[o + 2] = view.getFloat64(pos, le);
        pos += 8;
      } else if (zAt >= 0) {
        out[o + zAt] = Number.NaN;
      }
      if (dims & HAS_M) {
        out[o + mAt] = view.getFloat64(pos, le);
        pos += 8;
      } else if (mAt >= 0) {
        out[o + mAt] = Number.NaN;
      }
    }
    c.pos = pos;
    return out.subarray(0, size);
  }
}
