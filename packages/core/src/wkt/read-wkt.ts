import type { BinaryColumn } from '../array/binary-column.js';
import type { Crs } from '../array/crs.js';
import type { GeometryArray } from '../array/geometry-array.js';
import { GeometryBuilder } from '../array/geometry-builder.js';
import { GeometryType } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';
import { binaryRowIsValid, binaryRowOffset, checkBinaryColumn } from '../wkb/binary-rows.js';
import { columnTypeOfMask, dimensionOfFlags, HAS_M, HAS_Z } from '../wkb/column-shape.js';
import { WktScanner } from './wkt-scanner.js';

/** Options of {@link readWkt}. */
export interface ReadWktOptions {
  /** CRS label carried by the result (an EWKT `SRID=…;` prefix is ignored). */
  crs?: Crs | null;
}

const COMMA = 44;
const LPAREN = 40;
const RPAREN = 41;

/** Rows as strings no longer than this are decoded from a BinaryColumn in one piece. */
const WHOLE_DECODE_LIMIT = 1 << 28;

/**
 * Parses WKT into a {@link GeometryArray}. `values` is an array of strings (null/undefined rows
 * are null) or a UTF-8 BinaryColumn (as Arrow's Utf8 type; nulls from its validity).
 *
 * Grammar: POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON keywords in
 * any case; an optional `Z`, `M` or `ZM` marker (also glued on: `POINTZ`); without a marker a
 * row's first coordinate decides its dimension (3 numbers: xyz, 4: xyzm) and every coordinate
 * of the row must have as many numbers; `EMPTY` at any level (`POINT EMPTY`, `MULTIPOINT
 * (EMPTY, 1 1)`, a ring or member `EMPTY`); MULTIPOINT members with or without parentheses;
 * numbers with optional sign, fraction and exponent (`-1.5e-3`, `.5`, `2.`), read to the
 * correctly rounded double; an EWKT `SRID=4326;` prefix is skipped.
 *
 * Column type and dimension follow the same rules as {@link readWkb} (one type; a type and its
 * Multi type → Multi; else mixed; widest dimension, missing values NaN). An empty point is NaN
 * coordinates in a Point column and a geometry without parts otherwise; an `EMPTY` member of
 * a MULTIPOINT is a NaN coordinate.
 *
 * @throws InvalidGeometryError naming the row and the 0-based character position, with a piece
 *   of the text (`row 2: expected ')' at position 17 in 'POLYGON ((0 0, 1 …'`), for syntax
 *   errors, NaN/infinite coordinates, inconsistent coordinate sizes, empty strings,
 *   non-string values and GEOMETRYCOLLECTION (not supported yet).
 */
export function readWkt(
  values: ArrayLike<string | null | undefined> | BinaryColumn,
  options: ReadWktOptions = {},
): GeometryArray {
  const source = isBinaryColumn(values) ? new BinaryRows(values) : new StringRows(values);
  const n = source.length;
  const scanner = new WktScanner();

  // Pass 1: keyword, marker and first coordinate of each row give the types and dimensions.
  let typeMask = 0;
  let dimFlags = 0;
  for (let i = 0; i < n; i++) {
    if (!source.load(scanner, i)) continue;
    scanner.preamble();
    typeMask |= 1 << scanner.type;
    if (scanner.hasMarker) dimFlags |= scanner.markerDims;
    else if (!scanner.empty) dimFlags |= flagsOfWidth(scanner.firstCoordWidth());
  }

  // Pass 2: parse each row into the builder.
  const builder = new GeometryBuilder(columnTypeOfMask(typeMask), dimensionOfFlags(dimFlags), Math.max(n, 1));
  const parser = new WktParser(scanner, builder);
  for (let i = 0; i < n; i++) {
    if (source.load(scanner, i)) parser.row();
    else builder.appendNull();
  }
  return builder.finish(options.crs ?? null);
}

function isBinaryColumn(values: unknown): values is BinaryColumn {
  const v = values as Partial<BinaryColumn>;
  return typeof v === 'object' && v !== null && v.values instanceof Uint8Array && v.offsets !== undefined;
}

/** Dimension flags for a coordinate of `width` numbers without a marker. */
function flagsOfWidth(width: number): number {
  return width === 3 ? HAS_Z : width === 4 ? HAS_Z | HAS_M : 0;
}

/** Rows from an array of strings. */
class StringRows {
  readonly length: number;
  constructor(private readonly values: ArrayLike<string | null | undefined>) {
    this.length = values.length;
  }

  /** Points the scanner at row `i`; false for a null row. */
  load(scanner: WktScanner, i: number): boolean {
    const text = this.values[i];
    if (text === null || text === undefined) return false;
    if (typeof text !== 'string')
      throw new InvalidGeometryError(i, `expected a WKT string, got ${typeof text}`);
    scanner.setRow(i, text, 0, text.length);
    return true;
  }
}

/**
 * Rows from a UTF-8 column. WKT is ASCII, so the whole value buffer is decoded once and rows
 * are ranges of that string; if it holds multi-byte characters (byte and character positions
 * differ), each row is decoded on its own instead.
 */
class BinaryRows {
  readonly length: number;
  private readonly whole: string | null = null;
  private readonly base: number;
  private readonly decoder = new TextDecoder();

  constructor(private readonly column: BinaryColumn) {
    checkBinaryColumn(column, 'readWkt');
    this.length = column.length;
    this.base = column.length > 0 ? binaryRowOffset(column, 0) : 0;
    const last = column.length > 0 ? binaryRowOffset(column, column.length) : 0;
    if (last - this.base <= WHOLE_DECODE_LIMIT) {
      const text = this.decoder.decode(column.values.subarray(this.base, last));
      if (text.length === last - this.base) this.whole = text;
    }
  }

  load(scanner: WktScanner, i: number): boolean {
    if (!binaryRowIsValid(this.column, i)) return false;
    const start = binaryRowOffset(this.column, i);
    const end = binaryRowOffset(this.column, i + 1);
    if (end < start) throw new InvalidGeometryError(i, `value offsets decrease (${start} to ${end})`);
    if (this.whole !== null) {
      scanner.setRow(i, this.whole, start - this.base, end - this.base);
    } else {
      const text = this.decoder.decode(this.column.values.subarray(start, end));
      scanner.setRow(i, text, 0, text.length);
    }
    return true;
  }
}

/** Parses rows (the scanner set to each in turn) into a builder. */
class WktParser {
  /** Numbers per coordinate in the current row; 0 until the first coordinate decides it. */
  private width = 0;
  /** Dimension flags of the current row's coordinates. */
  private flags = 0;

  constructor(
    private readonly s: WktScanner,
    private readonly b: GeometryBuilder,
  ) {}

  row(): void {
    const s = this.s;
    const b = this.b;
    s.preamble();
    const type = s.type as GeometryType;
    if (s.empty) {
      b.appendEmpty(type);
      s.finish();
      return;
    }
    this.flags = s.hasMarker ? s.markerDims : 0;
    this.width = s.hasMarker ? 2 + (this.flags & HAS_Z) + ((this.flags & HAS_M) >> 1) : 0;
    b.beginGeometry(type);
    switch (type) {
      case GeometryType.Point:
        s.expect(LPAREN);
        b.beginPart();
        b.beginRing();
        this.coord();
        s.expect(RPAREN);
        break;
      case GeometryType.LineString:
        b.beginPart();
        b.beginRing();
        this.sequence();
        break;
      case GeometryType.Polygon:
        b.beginPart();
        this.polygon();
        break;
      case GeometryType.MultiPoint:
        s.expect(LPAREN);
        do {
          b.beginPart();
          b.beginRing();
          if (s.acceptWord('EMPTY')) {
            b.pushCoord(Number.NaN, Number.NaN);
          } else if (s.accept(LPAREN)) {
            this.coord();
            s.expect(RPAREN);
          } else {
            this.coord();
          }
        } while (this.next());
        break;
      case GeometryType.MultiLineString:
        s.expect(LPAREN);
        do {
          b.beginPart();
          b.beginRing();
          if (!s.acceptWord('EMPTY')) this.sequence();
        } while (this.next());
        break;
      default:
        s.expect(LPAREN);
        do {
          b.beginPart();
          if (!s.acceptWord('EMPTY')) this.polygon();
        } while (this.next());
    }
    b.endGeometry();
    s.finish();
  }

  /** After a list item: true on ',', false on ')' (both consumed), else throws. */
  private next(): boolean {
    if (this.s.accept(COMMA)) return true;
    if (this.s.accept(RPAREN)) return false;
    throw this.s.fail("expected ',' or ')'");
  }

  /** `(x y, x y, …)` into the open ring. */
  private sequence(): void {
    this.s.expect(LPAREN);
    do this.coord();
    while (this.next());
  }

  /** `((…), (…))` or with `EMPTY` rings, into the open part. */
  private polygon(): void {
    const s = this.s;
    s.expect(LPAREN);
    do {
      this.b.beginRing();
      if (!s.acceptWord('EMPTY')) this.sequence();
    } while (this.next());
  }

  /** One coordinate of 2 to 4 numbers, consistent with the row's. */
  private coord(): void {
    const s = this.s;
    s.skipSpace();
    const at = s.pos;
    const x = s.number();
    const y = s.number();
    let count = 2;
    let third = Number.NaN;
    let fourth = Number.NaN;
    if (s.moreInCoord()) {
      third = s.number();
      count++;
      if (s.moreInCoord()) {
        fourth = s.number();
        count++;
        if (s.moreInCoord()) throw s.fail('a coordinate has at most 4 numbers');
      }
    }
    if (this.width === 0) {
      this.width = count;
      this.flags = flagsOfWidth(count);
    } else if (count !== this.width) {
      throw s.fail(`expected ${this.width} numbers in each coordinate, got ${count}`, at);
    }
    switch (this.flags) {
      case 0:
        this.b.pushCoord(x, y);
        break;
      case HAS_Z:
        this.b.pushCoord(x, y, third);
        break;
      case HAS_M:
        this.b.pushCoord(x, y, Number.NaN, third);
        break;
      default:
        this.b.pushCoord(x, y, third, fourth);
    }
  }
}
