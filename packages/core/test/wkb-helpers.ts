/**
 * Test-side references for the WKB/WKT tests: a seeded generator of geometries as plain nested
 * arrays, an independent WKB encoder and WKT formatter for them (written from the specs, not
 * from the library code), and an extractor that turns a GeometryArray row back into the same
 * nested arrays through `nestedOffsets()`.
 */
import { type BinaryColumn, type Dimension, type GeometryArray, GeometryType } from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';

export type Coord = number[];

/** A geometry as nested arrays; a Point's `coords` is null when empty. */
export type Model =
  | { type: GeometryType.Point; coords: Coord | null }
  | { type: GeometryType.LineString; coords: Coord[] }
  | { type: GeometryType.Polygon; coords: Coord[][] }
  | { type: GeometryType.MultiPoint; coords: Coord[] }
  | { type: GeometryType.MultiLineString; coords: Coord[][] }
  | { type: GeometryType.MultiPolygon; coords: Coord[][][] };

export const ALL_TYPES = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
] as const;

export const ALL_DIMS: Dimension[] = ['xy', 'xyz', 'xym', 'xyzm'];

/** The shared seeded generator (mulberry32), under this file's old name. */
export const rng = mulberry32;

const SPECIAL = [
  -0,
  0,
  5e-324,
  -5e-324,
  2.2250738585072014e-308,
  2.225073858507201e-308,
  1e300,
  -1e300,
  1.7976931348623157e308,
  0.1,
  0.30000000000000004,
  1e21,
  1e-7,
  123456789012345680000,
  9007199254740994,
  -123.456,
  1 / 3,
];

/** A finite double: specials, short decimals, or arbitrary bit patterns (all exponents). */
export function randomDouble(random: () => number): number {
  const pick = random();
  if (pick < 0.2) return SPECIAL[Math.floor(random() * SPECIAL.length)];
  if (pick < 0.6) return Math.round((random() - 0.5) * 2e6) / 1000;
  const bits = new DataView(new ArrayBuffer(8));
  for (;;) {
    bits.setUint32(0, Math.floor(random() * 2 ** 32));
    bits.setUint32(4, Math.floor(random() * 2 ** 32));
    const v = bits.getFloat64(0);
    if (Number.isFinite(v)) return v;
  }
}

function coord(random: () => number, width: number): Coord {
  const c: Coord = [];
  for (let d = 0; d < width; d++) c.push(randomDouble(random));
  return c;
}

function run(random: () => number, width: number, min: number): Coord[] {
  const n = min + Math.floor(random() * 4);
  return Array.from({ length: n }, () => coord(random, width));
}

/** A random geometry of `type`, with empties at every level now and then. */
export function randomModel(random: () => number, type: GeometryType, width: number): Model {
  const empty = random() < 0.12;
  const nan = (): Coord => new Array(width).fill(Number.NaN);
  const rings = (): Coord[][] => {
    if (random() < 0.1) return [];
    return Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      random() < 0.1 ? [] : run(random, width, 4),
    );
  };
  switch (type) {
    case GeometryType.Point:
      return { type, coords: empty ? null : coord(random, width) };
    case GeometryType.LineString:
      return { type, coords: empty ? [] : run(random, width, 2) };
    case GeometryType.Polygon:
      return { type, coords: empty ? [] : rings() };
    case GeometryType.MultiPoint:
      return {
        type,
        coords: empty ? [] : run(random, width, 1).map((c) => (random() < 0.1 ? nan() : c)),
      };
    case GeometryType.MultiLineString:
      return {
        type,
        coords: empty
          ? []
          : Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
              random() < 0.1 ? [] : run(random, width, 2),
            ),
      };
    default:
      return {
        type,
        coords: empty ? [] : Array.from({ length: 1 + Math.floor(random() * 3) }, () => rings()),
      };
  }
}

/** A tiny byte writer for hand-built WKB. */
export class Bytes {
  private data: number[] = [];
  u8(v: number): this {
    this.data.push(v & 0xff);
    return this;
  }
  u32(v: number, le: boolean): this {
    const b = new DataView(new ArrayBuffer(4));
    b.setUint32(0, v >>> 0, le);
    for (let k = 0; k < 4; k++) this.data.push(b.getUint8(k));
    return this;
  }
  f64(v: number, le: boolean): this {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, v, le);
    for (let k = 0; k < 8; k++) this.data.push(b.getUint8(k));
    return this;
  }
  /** A header: byte order, type code (ISO or EWKB flags), optional SRID. */
  header(le: boolean, code: number, srid?: number): this {
    this.u8(le ? 1 : 0).u32(code, le);
    if (srid !== undefined) this.u32(srid, le);
    return this;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.data);
  }
}

export interface EncodeOptions {
  littleEndian?: boolean;
  /** Use EWKB flags instead of ISO codes; with `srid`, also the SRID flag and value. */
  ewkb?: boolean;
  srid?: number;
  /** Byte order of nested members (default: the same as the top level). */
  memberLittleEndian?: boolean;
}

function typeCode(type: number, dimension: Dimension, ewkb: boolean, srid: number | undefined): number {
  const z = dimension.includes('z');
  const m = dimension.includes('m');
  if (!ewkb) return type + (z && m ? 3000 : z ? 1000 : m ? 2000 : 0);
  return (type | (z ? 0x80000000 : 0) | (m ? 0x40000000 : 0) | (srid !== undefined ? 0x20000000 : 0)) >>> 0;
}

/** WKB of a model, per the OGC/ISO (or PostGIS EWKB) layout; an empty point is NaN coordinates. */
export function encodeWkb(model: Model, dimension: Dimension, options: EncodeOptions = {}): Uint8Array {
  const le = options.littleEndian ?? true;
  const memberLe = options.memberLittleEndian ?? le;
  const ewkb = options.ewkb ?? false;
  const width = dimension.length;
  const out = new Bytes();
  const coords = (cs: Coord[], order: boolean) => {
    for (const c of cs) for (let d = 0; d < width; d++) out.f64(c[d], order);
  };
  const runOf = (cs: Coord[], order: boolean) => {
    out.u32(cs.length, order);
    coords(cs, order);
  };
  const rings = (rs: Coord[][], order: boolean) => {
    out.u32(rs.length, order);
    for (const r of rs) runOf(r, order);
  };
  out.header(le, typeCode(model.type, dimension, ewkb, options.srid), ewkb ? options.srid : undefined);
  const member = (type: number) => out.header(memberLe, typeCode(type, dimension, ewkb, undefined));
  switch (model.type) {
    case GeometryType.Point:
      coords([model.coords ?? new Array(width).fill(Number.NaN)], le);
      break;
    case GeometryType.LineString:
      runOf(model.coords, le);
      break;
    case GeometryType.Polygon:
      rings(model.coords, le);
      break;
    case GeometryType.MultiPoint:
      out.u32(model.coords.length, le);
      for (const c of model.coords) {
        member(GeometryType.Point);
        coords([c], memberLe);
      }
      break;
    case GeometryType.MultiLineString:
      out.u32(model.coords.length, le);
      for (const l of model.coords) {
        member(GeometryType.LineString);
        runOf(l, memberLe);
      }
      break;
    case GeometryType.MultiPolygon:
      out.u32(model.coords.length, le);
      for (const p of model.coords) {
        member(GeometryType.Polygon);
        rings(p, memberLe);
      }
      break;
  }
  return out.finish();
}

const KEYWORD = ['', 'POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON'];

function num(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

/**
 * Shapely-style WKT of a model written with coordinates of `dimension`. The marker follows the
 * documented rule: an empty row takes the dimension's marker, other rows only the z/m parts
 * that have a non-NaN value somewhere in the row.
 */
export function formatModel(model: Model, dimension: Dimension): string {
  const flat = flatCoords(model);
  let z = dimension.includes('z');
  let m = dimension.includes('m');
  const zAt = 2;
  const mAt = dimension.length - 1;
  if (flat.length > 0) {
    z = z && flat.some((c) => !Number.isNaN(c[zAt]));
    m = m && flat.some((c) => !Number.isNaN(c[mAt]));
  }
  const marker = z && m ? ' ZM' : z ? ' Z' : m ? ' M' : '';
  const c = (xs: Coord) => {
    const parts = [num(xs[0]), num(xs[1])];
    if (z) parts.push(num(xs[zAt]));
    if (m) parts.push(num(xs[mAt]));
    return parts.join(' ');
  };
  const seq = (cs: Coord[]) => (cs.length === 0 ? 'EMPTY' : `(${cs.map(c).join(', ')})`);
  const poly = (rs: Coord[][]) => (rs.length === 0 ? 'EMPTY' : `(${rs.map(seq).join(', ')})`);
  const pt = (xs: Coord) => (Number.isNaN(xs[0]) && Number.isNaN(xs[1]) ? 'EMPTY' : `(${c(xs)})`);
  const list = <T>(items: T[], f: (t: T) => string) =>
    items.length === 0 ? 'EMPTY' : `(${items.map(f).join(', ')})`;
  let body: string;
  switch (model.type) {
    case GeometryType.Point:
      body = model.coords === null ? 'EMPTY' : pt(model.coords);
      break;
    case GeometryType.LineString:
      body = seq(model.coords);
      break;
    case GeometryType.Polygon:
      body = poly(model.coords);
      break;
    case GeometryType.MultiPoint:
      body = list(model.coords, pt);
      break;
    case GeometryType.MultiLineString:
      body = list(model.coords, seq);
      break;
    case GeometryType.MultiPolygon:
      body = list(model.coords, poly);
      break;
  }
  return `${KEYWORD[model.type]}${marker} ${body}`;
}

/** Every coordinate of a model, in order (a NaN MultiPoint member included). */
export function flatCoords(model: Model): Coord[] {
  switch (model.type) {
    case GeometryType.Point:
      return model.coords ? [model.coords] : [];
    case GeometryType.LineString:
    case GeometryType.MultiPoint:
      return model.coords;
    case GeometryType.Polygon:
    case GeometryType.MultiLineString:
      return model.coords.flat();
    case GeometryType.MultiPolygon:
      return model.coords.flat(2);
  }
}

/**
 * Row `i` of an array as a model (null for a null row), read through `nestedOffsets()`; every
 * coordinate has `array.stride` values. A Point row whose x and y are NaN is an empty point.
 */
export function modelOf(array: GeometryArray, i: number): Model | null {
  if (array.isNull(i)) return null;
  const type = array.typeOf(i)!;
  const { geometryOffsets: g, partOffsets: p, ringOffsets: r } = array.nestedOffsets();
  const s = array.stride;
  const at = (k: number): Coord => Array.from(array.coords.subarray(k * s, k * s + s));
  const ring = (ri: number): Coord[] => {
    const out: Coord[] = [];
    for (let k = r[ri]; k < r[ri + 1]; k++) out.push(at(k));
    return out;
  };
  const rings = (pi: number): Coord[][] => {
    const out: Coord[][] = [];
    for (let ri = p[pi]; ri < p[pi + 1]; ri++) out.push(ring(ri));
    return out;
  };
  const parts: number[] = [];
  for (let pi = g[i]; pi < g[i + 1]; pi++) parts.push(pi);
  switch (type) {
    case GeometryType.Point: {
      if (parts.length === 0) return { type, coords: null };
      const c = ring(p[parts[0]])[0];
      return { type, coords: Number.isNaN(c[0]) && Number.isNaN(c[1]) ? null : c };
    }
    case GeometryType.LineString:
      return { type, coords: parts.length === 0 ? [] : ring(p[parts[0]]) };
    case GeometryType.Polygon:
      return { type, coords: parts.length === 0 ? [] : rings(parts[0]) };
    case GeometryType.MultiPoint:
      return { type, coords: parts.map((pi) => ring(p[pi])[0]) };
    case GeometryType.MultiLineString:
      return { type, coords: parts.map((pi) => ring(p[pi])) };
    case GeometryType.MultiPolygon:
      return { type, coords: parts.map(rings) };
  }
}

/** A model with every coordinate widened from `from` to `to` (missing values NaN). */
export function widen(model: Model, from: Dimension, to: Dimension): Model {
  const map = (c: Coord): Coord => {
    const out = [c[0], c[1]];
    if (to.includes('z')) out.push(from.includes('z') ? c[2] : Number.NaN);
    if (to.includes('m')) out.push(from.includes('m') ? c[from.length - 1] : Number.NaN);
    return out;
  };
  const deep = (v: unknown): unknown =>
    Array.isArray(v) && typeof v[0] === 'number' ? map(v as Coord) : Array.isArray(v) ? v.map(deep) : v;
  return { type: model.type, coords: deep(model.coords) } as Model;
}

/** A BinaryColumn of `values` (null → null row), laid out after `pad` bytes and with `bitOffset`. */
export function binaryColumn(values: (Uint8Array | null)[], pad = 0, bitOffset = 0): BinaryColumn {
  const total = values.reduce((sum, v) => sum + (v?.length ?? 0), 0);
  const bytes = new Uint8Array(pad + total);
  const offsets = new Int32Array(values.length + 1);
  const validity = new Uint8Array(Math.ceil((values.length + bitOffset) / 8) + 1).fill(0);
  let pos = pad;
  offsets[0] = pos;
  values.forEach((v, i) => {
    if (v) {
      bytes.set(v, pos);
      pos += v.length;
      validity[(i + bitOffset) >> 3] |= 1 << ((i + bitOffset) & 7);
    }
    offsets[i + 1] = pos;
  });
  const hasNull = values.some((v) => v === null);
  return {
    length: values.length,
    values: bytes,
    offsets,
    validity: hasNull || bitOffset > 0 ? validity : null,
    validityOffset: hasNull || bitOffset > 0 ? bitOffset : 0,
  };
}

/** Hex of bytes, upper case. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
}

/** Bytes of a hex string. */
export function unhex(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = Number.parseInt(text.slice(2 * k, 2 * k + 2), 16);
  return out;
}
