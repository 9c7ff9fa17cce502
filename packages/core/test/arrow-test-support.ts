/**
 * Shared helpers for the GeoArrow tests: a seeded random geometry generator, an independent
 * row-by-row view of a GeometryArray's layout, a tiny WKT parser for the fixture expectations,
 * and Arrow table plumbing.
 */

import { type Dimension, type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import { mulberry32 } from '@geoframe/testing';
import {
  type Data,
  type Field,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableFromIPC,
  tableToIPC,
} from 'apache-arrow';

/** The shared seeded generator (mulberry32), under this file's old name. */
export const seeded = mulberry32;

export const ALL_TYPES = [
  GeometryType.Point,
  GeometryType.LineString,
  GeometryType.Polygon,
  GeometryType.MultiPoint,
  GeometryType.MultiLineString,
  GeometryType.MultiPolygon,
] as const;

export const ALL_DIMENSIONS: readonly Dimension[] = ['xy', 'xyz', 'xym', 'xyzm'];

/**
 * `rows` random geometries of `type` (nulls and empties mixed in), valid by construction:
 * rings closed with ≥ 4 coordinates, linestrings ≥ 2 coordinates, finite x/y. Z and M are
 * random too; M is sometimes NaN (allowed in the model, not in WKT text) unless `nanM` is false.
 */
export function randomArray(
  type: GeometryType,
  dimension: Dimension,
  rows: number,
  seed: number,
  nanM = true,
): GeometryArray {
  const rnd = seeded(seed);
  const b = new GeometryBuilder(type, dimension);
  const value = () => (rnd() < 0.05 ? -0 : Math.round((rnd() * 200 - 100) * 1e6) / 1e6 + rnd() * 1e-9);
  const coord = () => b.pushCoord(value(), value(), value(), nanM && rnd() < 0.1 ? Number.NaN : value());
  const run = (n: number) => {
    for (let k = 0; k < n; k++) coord();
  };
  const ring = () => {
    const n = 3 + Math.floor(rnd() * 4);
    const x0 = value();
    const y0 = value();
    const z0 = value();
    const m0 = value();
    b.beginRing();
    b.pushCoord(x0, y0, z0, m0);
    run(n - 1);
    b.pushCoord(x0, y0, z0, m0);
  };
  for (let i = 0; i < rows; i++) {
    const r = rnd();
    if (r < 0.15) {
      b.appendNull();
      continue;
    }
    if (r < 0.3) {
      b.appendEmpty(type);
      continue;
    }
    b.beginGeometry(type);
    switch (type) {
      case GeometryType.Point:
        b.beginPart();
        coord();
        break;
      case GeometryType.LineString:
        b.beginPart();
        b.beginRing();
        run(2 + Math.floor(rnd() * 5));
        break;
      case GeometryType.Polygon:
        b.beginPart();
        for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) ring();
        break;
      case GeometryType.MultiPoint:
        for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) {
          b.beginPart();
          coord();
        }
        break;
      case GeometryType.MultiLineString:
        for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
          b.beginPart();
          b.beginRing();
          run(2 + Math.floor(rnd() * 4));
        }
        break;
      case GeometryType.MultiPolygon:
        for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
          b.beginPart();
          for (let j = 1 + Math.floor(rnd() * 2); j > 0; j--) ring();
        }
        break;
    }
    b.endGeometry();
  }
  return b.finish();
}

type Nested = number[] | Nested[];

/**
 * Each row as nested arrays following the native offsets (outer level first), innermost a flat
 * list of coordinate values in the array's stride; a Point row is its coordinate values; null
 * rows are null. Independent of `nestedOffsets`, so it checks the layout itself.
 */
export function layoutRows(a: GeometryArray): (Nested | null)[] {
  const s = a.stride;
  const values = (lo: number, hi: number) => Array.from(a.coords.subarray(lo * s, hi * s));
  const nest = (level: number, lo: number, hi: number): Nested => {
    if (level === a.offsets.length) return values(lo, hi);
    const o = a.offsets[level];
    const out: Nested[] = [];
    for (let j = lo; j < hi; j++) out.push(nest(level + 1, o[j], o[j + 1]));
    return out as Nested;
  };
  const rows: (Nested | null)[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a.isNull(i)) rows.push(null);
    else if (a.type === GeometryType.Point) rows.push(values(i, i + 1));
    else rows.push((nest(0, i, i + 1) as Nested[])[0]);
  }
  return rows;
}

/**
 * Each row as `{ type, value }` in a layout-free form, so native and mixed arrays compare:
 * Point → coordinate values ([] when empty); LineString → values; Polygon → rings;
 * MultiPoint → points; MultiLineString → lines; MultiPolygon → polygons of rings.
 */
export function geometryRows(a: GeometryArray): ({ type: GeometryType; value: Nested } | null)[] {
  const { geometryOffsets, partOffsets, ringOffsets } = a.nestedOffsets();
  const s = a.stride;
  const rows: ({ type: GeometryType; value: Nested } | null)[] = [];
  for (let i = 0; i < a.length; i++) {
    const type = a.typeOf(i);
    if (type === null) {
      rows.push(null);
      continue;
    }
    if (a.isEmpty(i)) {
      rows.push({ type, value: [] });
      continue;
    }
    const parts: number[][][] = [];
    for (let p = geometryOffsets[i]; p < geometryOffsets[i + 1]; p++) {
      const rings: number[][] = [];
      for (let r = partOffsets[p]; r < partOffsets[p + 1]; r++) {
        rings.push(Array.from(a.coords.subarray(ringOffsets[r] * s, ringOffsets[r + 1] * s)));
      }
      parts.push(rings);
    }
    let value: Nested;
    switch (type) {
      case GeometryType.Point:
        value = parts[0]?.[0] ?? [];
        break;
      case GeometryType.LineString:
        value = parts[0]?.[0] ?? [];
        break;
      case GeometryType.Polygon:
        value = parts[0] ?? [];
        break;
      case GeometryType.MultiPoint:
      case GeometryType.MultiLineString:
        value = parts.map((p) => p[0] ?? []);
        break;
      default:
        value = parts;
    }
    rows.push({ type, value });
  }
  return rows;
}

/** A WKT string as `{ type, value }` in the form of {@link geometryRows} (2D, as the fixtures are). */
export function parseSimpleWkt(wkt: string | null): { type: GeometryType; value: Nested } | null {
  if (wkt === null) return null;
  const match = /^\s*([A-Z]+)\s*(.*)$/s.exec(wkt.toUpperCase());
  if (!match) throw new Error(`bad WKT ${wkt}`);
  const types: Record<string, GeometryType> = {
    POINT: GeometryType.Point,
    LINESTRING: GeometryType.LineString,
    POLYGON: GeometryType.Polygon,
    MULTIPOINT: GeometryType.MultiPoint,
    MULTILINESTRING: GeometryType.MultiLineString,
    MULTIPOLYGON: GeometryType.MultiPolygon,
  };
  const type = types[match[1]];
  const body = match[2].trim();
  if (body === 'EMPTY') return { type, value: [] };
  // Parenthesised groups become arrays; a group of "x y, x y" becomes one flat list of numbers.
  let pos = 0;
  const group = (): Nested => {
    if (body[pos] !== '(') throw new Error(`expected ( at ${pos} in ${wkt}`);
    pos++;
    while (body[pos] === ' ') pos++;
    if (body[pos] === '(') {
      const items: Nested[] = [];
      for (;;) {
        items.push(group());
        while (body[pos] === ' ') pos++;
        if (body[pos] === ',') {
          pos++;
          while (body[pos] === ' ') pos++;
          continue;
        }
        pos++; // ')'
        return items as Nested;
      }
    }
    const end = body.indexOf(')', pos);
    const numbers = body
      .slice(pos, end)
      .split(/[\s,]+/)
      .filter((t) => t !== '')
      .map(Number);
    pos = end + 1;
    return numbers;
  };
  return { type, value: group() };
}

/** A one-column Arrow Table of `data` under `field` (field metadata kept on the schema). */
export function tableOf(field: Field, data: Data): Table {
  const schema = new Schema([field]);
  return new Table([
    new RecordBatch(
      schema,
      makeData({ type: new Struct(schema.fields), length: data.length, nullCount: 0, children: [data] }),
    ),
  ]);
}

/** The table written to Arrow IPC and read back. */
export function ipcRoundTrip(table: Table): Table {
  return tableFromIPC(tableToIPC(table));
}
