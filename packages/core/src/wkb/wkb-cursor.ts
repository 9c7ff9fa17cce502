import { GeometryType, geometryTypeName } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';
import { HAS_M, HAS_Z } from './column-shape.js';

/** WKB type code of GeometryCollection, which GeoArrow's native types cannot hold. */
const GEOMETRY_COLLECTION = 7;

// EWKB (PostGIS) flags in the high bits of the type code.
const EWKB_Z = 0x80000000;
const EWKB_M = 0x40000000;
const EWKB_SRID = 0x20000000;
const EWKB_FLAGS = 0xf0000000;

/**
 * Reads WKB headers, counts and doubles from one byte buffer, one row (one value) at a time,
 * with bounds checks that name the row. One cursor serves a whole column; nothing is allocated
 * per geometry. Every nested geometry's header sets the byte order used until the next header.
 */
export class WkbCursor {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Current byte position in `bytes`. */
  pos = 0;
  /** First byte of the current row's value. */
  start = 0;
  /** End (exclusive) of the current row's value. */
  end = 0;
  /** Row index, for error messages. */
  row = 0;
  /** Byte order of the last header read: true for little endian (NDR). */
  littleEndian = true;
  /** Geometry type of the last header read. */
  type: GeometryType = GeometryType.Point;
  /** {@link HAS_Z}/{@link HAS_M} flags of the last header read. */
  dims = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Moves to the value `[start, end)` of `row`. */
  setRow(row: number, start: number, end: number): void {
    this.row = row;
    this.start = start;
    this.end = end;
    this.pos = start;
  }

  /** An InvalidGeometryError for the current row. */
  fail(problem: string): InvalidGeometryError {
    return new InvalidGeometryError(this.row, problem);
  }

  /** Throws unless `count` more bytes are left in the value. */
  need(count: number): void {
    if (this.pos + count > this.end) {
      throw this.fail(`WKB ends after ${this.end - this.start} of ${this.pos + count - this.start} bytes`);
    }
  }

  /**
   * Reads a geometry header (byte order, type code, optional EWKB SRID, which is skipped) and
   * sets `littleEndian`, `type` and `dims`. Accepts ISO codes (1000/2000/3000 added for Z/M/ZM)
   * and EWKB flags, alone or together.
   */
  header(): void {
    this.need(5);
    const at = this.pos - this.start;
    const order = this.bytes[this.pos];
    if (order > 1) throw this.fail(`unknown WKB byte order ${order} at byte ${at}`);
    this.littleEndian = order === 1;
    const code = this.view.getUint32(this.pos + 1, this.littleEndian);
    this.pos += 5;
    let dims = 0;
    if (code & EWKB_Z) dims |= HAS_Z;
    if (code & EWKB_M) dims |= HAS_M;
    const iso = code & ~EWKB_FLAGS;
    const kind = iso % 1000;
    const isoDims = (iso - kind) / 1000;
    if (kind === GEOMETRY_COLLECTION && isoDims <= 3) {
      throw this.fail(`GeometryCollection (WKB type ${iso} at byte ${at}) is not supported`);
    }
    if (kind < GeometryType.Point || kind > GeometryType.MultiPolygon || isoDims > 3) {
      throw this.fail(`unknown WKB geometry type ${iso} at byte ${at}`);
    }
    if (isoDims === 1 || isoDims === 3) dims |= HAS_Z;
    if (isoDims === 2 || isoDims === 3) dims |= HAS_M;
    this.type = kind as GeometryType;
    this.dims = dims;
    if (code & EWKB_SRID) {
      this.need(4);
      this.pos += 4;
    }
  }

  /** Reads a count (uint32 in the current byte order). */
  count(): number {
    this.need(4);
    const value = this.view.getUint32(this.pos, this.littleEndian);
    this.pos += 4;
    return value;
  }

  /** Checks that `coords` coordinates of the current header's dimension follow, and skips them. */
  skipCoords(coords: number): void {
    const bytes = coords * 8 * coordWidth(this.dims);
    this.need(bytes);
    this.pos += bytes;
  }

  /** Reads a header and throws unless it is a `expected` (the members of a Multi geometry). */
  memberHeader(expected: GeometryType, parent: GeometryType): void {
    const at = this.pos - this.start;
    this.header();
    if (this.type !== expected) {
      throw this.fail(`a ${geometryTypeName(parent)} holds a ${geometryTypeName(this.type)} at byte ${at}`);
    }
  }
}

/** Values per coordinate for a set of dimension flags. */
export function coordWidth(dims: number): number {
  return 2 + (dims & HAS_Z) + ((dims & HAS_M) >> 1);
}
