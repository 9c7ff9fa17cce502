import { GeometryType } from '../array/geometry-type.js';
import { InvalidGeometryError } from '../errors.js';
import { HAS_M, HAS_Z } from '../wkb/column-shape.js';

// Character codes.
const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const EQUALS = 61;
const LPAREN = 40;
const RPAREN = 41;
const UPPER_E = 69;

/** Type code returned by {@link WktScanner.keyword} for GEOMETRYCOLLECTION (not supported). */
export const WKT_COLLECTION = 7;

/** Exact powers of ten, for the fast path of {@link WktScanner.number}. */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
];

const KEYWORDS = [
  'POINT',
  'LINESTRING',
  'POLYGON',
  'MULTIPOINT',
  'MULTILINESTRING',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
];
/** Type codes of {@link KEYWORDS}, in the same order. */
const KEYWORD_TYPES = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
  WKT_COLLECTION,
];

function isLetter(c: number): boolean {
  const u = c & ~0x20;
  return u >= 65 && u <= 90;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

/** Whether `c` can start a number (digit, sign or point). */
function startsNumber(c: number): boolean {
  return (c >= ZERO && c <= NINE) || c === MINUS || c === PLUS || c === DOT;
}

/**
 * A hand-written WKT tokenizer over one row's text `text[start, end)`: character codes, no
 * regular expressions and no substrings except in error messages (and for numbers too long
 * for the exact fast path). Positions in errors are 0-based character indices into the row's
 * text.
 */
export class WktScanner {
  text = '';
  start = 0;
  end = 0;
  pos = 0;
  row = 0;
  /** Results of {@link keyword}/{@link preamble}: the type, and flags of an explicit Z/M/ZM marker. */
  type = 0;
  markerDims = 0;
  hasMarker = false;
  /** Whether the geometry is `EMPTY` at the top level. */
  empty = false;

  /** Moves to row `row`, held in `text[start, end)`. */
  setRow(row: number, text: string, start: number, end: number): void {
    this.row = row;
    this.text = text;
    this.start = start;
    this.end = end;
    this.pos = start;
  }

  /** An InvalidGeometryError naming the row, the position and a piece of the text around it. */
  fail(problem: string, at = this.pos): InvalidGeometryError {
    const text = this.text;
    const len = this.end - this.start;
    const rel = Math.min(at, this.end) - this.start;
    let from = 0;
    let to = len;
    if (len > 60) {
      from = Math.max(0, rel - 40);
      to = Math.min(len, rel + 20);
    }
    const snippet = `${from > 0 ? '…' : ''}${text.slice(this.start + from, this.start + to)}${to < len ? '…' : ''}`;
    return new InvalidGeometryError(this.row, `${problem} at position ${rel} in '${snippet}'`);
  }

  skipSpace(): void {
    const s = this.text;
    while (this.pos < this.end && isSpace(s.charCodeAt(this.pos))) this.pos++;
  }

  /** The character code at the current position (after spaces), or -1 at the end. */
  peek(): number {
    this.skipSpace();
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  /** Consumes `code` (after spaces) or throws "expected 'c'". */
  expect(code: number): void {
    if (this.peek() !== code) throw this.fail(`expected '${String.fromCharCode(code)}'`);
    this.pos++;
  }

  /** Consumes `code` (after spaces) if it is next. */
  accept(code: number): boolean {
    if (this.peek() !== code) return false;
    this.pos++;
    return true;
  }

  /** Throws unless only spaces are left. */
  finish(): void {
    if (this.peek() !== -1) throw this.fail('unexpected text after the geometry');
  }

  /** Length of the run of letters at the current position (not consumed). */
  private wordLength(): number {
    const s = this.text;
    let p = this.pos;
    while (p < this.end && isLetter(s.charCodeAt(p))) p++;
    return p - this.pos;
  }

  /** Whether `text[at, at + length)` is `upper`, ignoring case. */
  private wordIs(at: number, length: number, upper: string): boolean {
    if (length !== upper.length) return false;
    const s = this.text;
    for (let k = 0; k < length; k++) {
      if ((s.charCodeAt(at + k) & ~0x20) !== upper.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Consumes the word `upper` (any case, after spaces) if it is next. */
  acceptWord(upper: string): boolean {
    this.skipSpace();
    const length = this.wordLength();
    if (!this.wordIs(this.pos, length, upper)) return false;
    this.pos += length;
    return true;
  }

  /**
   * Reads the start of a geometry: an optional EWKT `SRID=…;` prefix (ignored), the type
   * keyword (optionally with Z/M/ZM glued on, as in `POINTZ`), an optional separate Z/M/ZM
   * marker, and `EMPTY` if present. Sets `type`, `markerDims`, `hasMarker` and `empty`; after
   * it, unless empty, the body's '(' is next.
   */
  preamble(): void {
    this.skipSpace();
    if (this.pos === this.end) throw this.fail('empty WKT');
    let at = this.pos;
    let length = this.wordLength();
    if (this.wordIs(at, length, 'SRID') && this.text.charCodeAt(at + length) === EQUALS) {
      const semicolon = this.text.indexOf(';', at);
      if (semicolon < 0 || semicolon >= this.end) throw this.fail("expected ';' after SRID=", at);
      this.pos = semicolon + 1;
      this.skipSpace();
      at = this.pos;
      length = this.wordLength();
    }
    this.type = 0;
    this.hasMarker = false;
    this.markerDims = 0;
    for (let k = 0; k < KEYWORDS.length; k++) {
      const keyword = KEYWORDS[k];
      const type = KEYWORD_TYPES[k];
      if (
        length < keyword.length ||
        length > keyword.length + 2 ||
        !this.wordIs(at, keyword.length, keyword)
      ) {
        continue;
      }
      const suffix = length - keyword.length;
      if (suffix === 0) {
        this.type = type;
      } else {
        const dims = this.marker(at + keyword.length, suffix);
        if (dims < 0) continue;
        this.type = type;
        this.hasMarker = true;
        this.markerDims = dims;
      }
      break;
    }
    if (this.type === 0) throw this.fail('expected a geometry type such as POINT or POLYGON', at);
    if (this.type === WKT_COLLECTION) throw this.fail('GEOMETRYCOLLECTION is not supported yet', at);
    this.pos = at + length;
    this.skipSpace();
    const wordAt = this.pos;
    const word = this.wordLength();
    if (!this.hasMarker) {
      const dims = this.marker(wordAt, word);
      if (dims >= 0) {
        this.hasMarker = true;
        this.markerDims = dims;
        this.pos += word;
      }
    }
    this.empty = this.acceptWord('EMPTY');
    if (!this.empty && this.peek() !== LPAREN) {
      throw this.fail(this.hasMarker ? "expected '(' or EMPTY" : "expected Z, M, ZM, '(' or EMPTY");
    }
  }

  /** Dimension flags of the marker `Z`, `M` or `ZM` at `text[at, at + length)`, or -1. */
  private marker(at: number, length: number): number {
    if (this.wordIs(at, length, 'Z')) return HAS_Z;
    if (this.wordIs(at, length, 'M')) return HAS_M;
    if (this.wordIs(at, length, 'ZM')) return HAS_Z | HAS_M;
    return -1;
  }

  /**
   * How many numbers the first coordinate of the body has (2 to 4), scanning ahead from the
   * current position without consuming; 0 if no well-formed coordinate is found (the full parse
   * reports the error). Used by the header pass to learn a row's dimension.
   */
  firstCoordWidth(): number {
    const s = this.text;
    const end = this.end;
    let p = this.pos;
    while (p < end) {
      const c = s.charCodeAt(p);
      if (startsNumber(c)) break;
      if (c === LPAREN || c === COMMA || isSpace(c)) p++;
      else if (isLetter(c)) {
        // EMPTY members come before the first coordinate; anything else is an error for later
        const q = p;
        while (p < end && isLetter(s.charCodeAt(p))) p++;
        if (!this.wordIs(q, p - q, 'EMPTY')) return 0;
      } else return 0;
    }
    let count = 0;
    while (p < end && startsNumber(s.charCodeAt(p))) {
      count++;
      while (p < end && !isSpace(s.charCodeAt(p)) && s.charCodeAt(p) !== COMMA && s.charCodeAt(p) !== RPAREN)
        p++;
      while (p < end && isSpace(s.charCodeAt(p))) p++;
    }
    return count >= 2 && count <= 4 ? count : 0;
  }

  /** Whether a coordinate continues: the next character (after spaces) is not ',', ')' or the end. */
  moreInCoord(): boolean {
    const c = this.peek();
    return c !== -1 && c !== COMMA && c !== RPAREN;
  }

  /**
   * Reads a decimal number: optional sign, digits with an optional fraction, optional exponent.
   * Up to 15 significant digits with a decimal exponent within ±22 are converted exactly by
   * one IEEE multiplication or division; longer numbers go through `Number()`. Either way the
   * result is the correctly rounded double. NaN and infinity are refused.
   */
  number(): number {
    this.skipSpace();
    const s = this.text;
    const end = this.end;
    const t0 = this.pos;
    let p = t0;
    let c = p < end ? s.charCodeAt(p) : -1;
    let negative = false;
    if (c === MINUS || c === PLUS) {
      negative = c === MINUS;
      c = ++p < end ? s.charCodeAt(p) : -1;
    }
    const digitsAt = p;
    let mantissa = 0;
    let significant = 0;
    let exponent = 0;
    let digits = 0;
    let exact = true;
    while (isDigit(c)) {
      digits++;
      if (mantissa !== 0 || c !== ZERO) {
        if (significant < 15) {
          mantissa = mantissa * 10 + (c - ZERO);
          significant++;
        } else exact = false;
      }
      c = ++p < end ? s.charCodeAt(p) : -1;
    }
    if (c === DOT) {
      c = ++p < end ? s.charCodeAt(p) : -1;
      while (isDigit(c)) {
        digits++;
        if (mantissa !== 0 || c !== ZERO) {
          if (significant < 15) {
            mantissa = mantissa * 10 + (c - ZERO);
            significant++;
            exponent--;
          } else exact = false;
        } else exponent--;
        c = ++p < end ? s.charCodeAt(p) : -1;
      }
    }
    if (digits === 0) {
      if (isLetter(c)) {
        this.pos = p;
        const length = this.wordLength();
        if (
          this.wordIs(p, length, 'NAN') ||
          this.wordIs(p, length, 'INF') ||
          this.wordIs(p, length, 'INFINITY')
        ) {
          throw this.fail('NaN and infinite coordinates are not supported', t0);
        }
      }
      throw this.fail('expected a number', t0);
    }
    if ((c & ~0x20) === UPPER_E) {
      c = ++p < end ? s.charCodeAt(p) : -1;
      let exponentSign = 1;
      if (c === MINUS || c === PLUS) {
        exponentSign = c === MINUS ? -1 : 1;
        c = ++p < end ? s.charCodeAt(p) : -1;
      }
      if (!isDigit(c)) throw this.fail('expected digits in the exponent', p);
      let value = 0;
      while (isDigit(c)) {
        if (value < 100000) value = value * 10 + (c - ZERO);
        c = ++p < end ? s.charCodeAt(p) : -1;
      }
      exponent += exponentSign * value;
    }
    if (c !== -1 && !isSpace(c) && c !== COMMA && c !== RPAREN) {
      throw this.fail('malformed number', t0);
    }
    this.pos = p;
    let value: number;
    if (mantissa === 0) value = 0;
    else if (exact && exponent >= -22 && exponent <= 22) {
      value = exponent < 0 ? mantissa / POW10[-exponent] : mantissa * POW10[exponent];
    } else {
      value = Number(s.slice(digitsAt, p));
      if (value === Number.POSITIVE_INFINITY) throw this.fail('number out of the range of doubles', t0);
    }
    return negative ? -value : value;
  }
}
