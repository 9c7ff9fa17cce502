// Shared helpers for the measures tests: a seeded generator of geometries described as plain
// nested arrays, a builder into GeometryArray, and a tiny WKT formatter to feed jsts.
import { type Dimension, type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';
import 'jsts/org/locationtech/jts/monkey.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import WKTReader from 'jsts/org/locationtech/jts/io/WKTReader.js';

/** One geometry: parts → rings (or the single coordinate run of a line/point) → flat [x, y, …]. */
export interface Desc {
  type: GeometryType;
  parts: number[][][];
}
/** A row: a geometry or null. */
export type Row = Desc | null;

/** The shared seeded generator (mulberry32), under this file's old name. */
export const rng = mulberry32;

/** Builds a column of `type` from rows; with `xyz`/`xyzm`, z and m get arbitrary values. */
export function build(rows: Row[], type: GeometryType | 'mixed', dimension: Dimension = 'xy'): GeometryArray {
  const b = new GeometryBuilder(type, dimension);
  for (const row of rows) {
    if (row === null) {
      b.appendNull();
      continue;
    }
    b.beginGeometry(row.type);
    for (const part of row.parts) {
      b.beginPart();
      for (const ring of part) {
        b.beginRing();
        for (let k = 0; k < ring.length; k += 2) b.pushCoord(ring[k], ring[k + 1], 1000 + k, -k);
      }
    }
    b.endGeometry();
  }
  return b.finish();
}

const run = (ring: number[]) => {
  const out: string[] = [];
  for (let k = 0; k < ring.length; k += 2) out.push(`${ring[k]} ${ring[k + 1]}`);
  return `(${out.join(', ')})`;
};
const list = (items: string[]) => (items.length === 0 ? 'EMPTY' : `(${items.join(', ')})`);

/** WKT of a row description (for jsts). */
export function toWkt(d: Desc): string {
  const p = d.parts;
  switch (d.type) {
    case GeometryType.Point:
      return `POINT ${p.length === 0 ? 'EMPTY' : run(p[0][0])}`;
    case GeometryType.LineString:
      return `LINESTRING ${p.length === 0 ? 'EMPTY' : run(p[0][0])}`;
    case GeometryType.Polygon:
      return `POLYGON ${p.length === 0 ? 'EMPTY' : list(p[0].map(run))}`;
    case GeometryType.MultiPoint:
      return `MULTIPOINT ${list(p.map((part) => run(part[0])))}`;
    case GeometryType.MultiLineString:
      return `MULTILINESTRING ${list(p.map((part) => run(part[0])))}`;
    case GeometryType.MultiPolygon:
      return `MULTIPOLYGON ${list(p.map((part) => list(part.map(run))))}`;
  }
}

const reader = new WKTReader(new GeometryFactory());

/** The jsts geometry of a row description. */
export function jsts(d: Desc) {
  return reader.read(toWkt(d));
}

/**
 * A closed ring around (cx, cy) with vertices at radius [r/2, r] in angular order, random winding.
 * Angles are jittered around an even spacing, so gaps stay below 2 · 2π/vertices: with 8 or more
 * vertices every edge stays over 0.35r from the centre.
 */
function starRing(next: () => number, cx: number, cy: number, r: number, vertices: number): number[] {
  const angles = Array.from({ length: vertices }, (_, k) => ((k + 0.9 * next()) * 2 * Math.PI) / vertices);
  const ring: number[] = [];
  for (const t of angles) {
    const rho = r * (0.5 + 0.5 * next());
    ring.push(cx + rho * Math.cos(t), cy + rho * Math.sin(t));
  }
  if (next() < 0.5) {
    const reversed: number[] = [];
    for (let k = ring.length - 2; k >= 0; k -= 2) reversed.push(ring[k], ring[k + 1]);
    ring.splice(0, ring.length, ...reversed);
  }
  ring.push(ring[0], ring[1]);
  return ring;
}

/** A valid polygon (shell + up to 3 disjoint holes inside it) around (cx, cy). */
export function randomPolygonRings(next: () => number, cx: number, cy: number, r: number): number[][] {
  const rings = [starRing(next, cx, cy, r, 8 + Math.floor(next() * 12))];
  const holes = Math.floor(next() * 4);
  for (let h = 0; h < holes; h++) {
    // hole centres 0.2r from the centre, 120° apart, radius ≤ 0.08r: within 0.28r, so inside the
    // shell, and 0.35r apart, so disjoint
    const t = (h * 2 * Math.PI) / 3;
    rings.push(
      starRing(
        next,
        cx + 0.2 * r * Math.cos(t),
        cy + 0.2 * r * Math.sin(t),
        0.08 * r,
        3 + Math.floor(next() * 6),
      ),
    );
  }
  return rings;
}

/** A random walk of `count` coordinates. */
function walk(next: () => number, x: number, y: number, count: number, step: number): number[] {
  const out = [x, y];
  for (let k = 1; k < count; k++) {
    x += (next() - 0.5) * step;
    y += (next() - 0.5) * step;
    out.push(x, y);
  }
  return out;
}

/** A random non-empty geometry of `type` near (ox, oy) with extent about `scale`. */
export function randomGeometry(next: () => number, type: GeometryType, ox = 0, oy = 0, scale = 100): Desc {
  const at = () => [ox + (next() - 0.5) * scale, oy + (next() - 0.5) * scale];
  const many = (max: number) => 1 + Math.floor(next() * max);
  switch (type) {
    case GeometryType.Point:
      return { type, parts: [[at()]] };
    case GeometryType.MultiPoint:
      return { type, parts: Array.from({ length: many(6) }, () => [at()]) };
    case GeometryType.LineString: {
      const [x, y] = at();
      return { type, parts: [[walk(next, x, y, 2 + Math.floor(next() * 10), scale / 5)]] };
    }
    case GeometryType.MultiLineString:
      return {
        type,
        parts: Array.from({ length: many(4) }, () => {
          const [x, y] = at();
          return [walk(next, x, y, 2 + Math.floor(next() * 8), scale / 5)];
        }),
      };
    case GeometryType.Polygon: {
      const [x, y] = at();
      return { type, parts: [randomPolygonRings(next, x, y, scale * (0.05 + 0.2 * next()))] };
    }
    case GeometryType.MultiPolygon: {
      // polygons in distinct cells of a 4 × 4 grid so they do not overlap
      const cells = [...Array(16).keys()].sort(() => next() - 0.5).slice(0, many(4));
      const cell = scale / 4;
      return {
        type,
        parts: cells.map((c) =>
          randomPolygonRings(
            next,
            ox - scale / 2 + cell * ((c % 4) + 0.5),
            oy - scale / 2 + cell * (Math.floor(c / 4) + 0.5),
            cell * (0.2 + 0.25 * next()),
          ),
        ),
      };
    }
  }
}

/** The geometry types, in WKB order. */
export const TYPES = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
];

/**
 * `n` random rows for a column of `type` near (ox, oy): about 10% null, 10% empty; Multi columns
 * also get some single-part rows of their base type, mixed columns every type.
 */
export function randomRows(
  next: () => number,
  type: GeometryType | 'mixed',
  n: number,
  ox = 0,
  oy = 0,
): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const u = next();
    let t: GeometryType;
    if (type === 'mixed') t = TYPES[Math.floor(next() * TYPES.length)];
    else if (type >= GeometryType.MultiPoint && next() < 0.2) t = type - 3;
    else t = type;
    if (u < 0.1) rows.push(null);
    else if (u < 0.2) rows.push({ type: t, parts: [] });
    else rows.push(randomGeometry(next, t, ox, oy));
  }
  return rows;
}

/** Largest |x| or |y| in a row (for tolerances relative to the coordinates' magnitude). */
export function magnitude(d: Desc): number {
  let m = 1;
  for (const part of d.parts) for (const ring of part) for (const v of ring) m = Math.max(m, Math.abs(v));
  return m;
}
