// Shared by the clip tests: building regions, independent jsts references, ring checks.
import { type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import type { MultiPolygonBuffers } from '@geoframe/cpu';
import type { SeededRandom } from '@geoframe/testing';
import 'jsts/org/locationtech/jts/monkey.js';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';

/** An open or closed ring as [x, y] pairs. */
export type Ring = [number, number][];
/** A polygon: exterior first, then holes. */
export type Poly = Ring[];

const factory = new GeometryFactory();

/** A MultiPolygon column, one row per entry (null rows allowed). */
export function multiPolygonColumn(rows: (Poly[] | null)[]): GeometryArray {
  const b = new GeometryBuilder(GeometryType.MultiPolygon);
  for (const row of rows) {
    if (row === null) {
      b.appendNull();
      continue;
    }
    b.beginGeometry(GeometryType.MultiPolygon);
    for (const polygon of row) {
      b.beginPart();
      for (const ring of polygon) {
        b.beginRing();
        for (const [x, y] of closed(ring)) b.pushXY(x, y);
      }
    }
    b.endGeometry();
  }
  return b.finish();
}

function closed(ring: Ring): Ring {
  const [f, l] = [ring[0], ring[ring.length - 1]];
  return f[0] === l[0] && f[1] === l[1] ? ring : [...ring, f];
}

function jstsRing(ring: Ring) {
  return factory.createLinearRing(closed(ring).map(([x, y]) => new Coordinate(x, y)));
}

/** A jsts polygon. */
export function jstsPolygon(poly: Poly): Geometry {
  return factory.createPolygon(jstsRing(poly[0]), poly.slice(1).map(jstsRing));
}

/** The jsts union of every polygon of every row. */
export function jstsUnion(rows: (Poly[] | null)[]): Geometry {
  let acc: Geometry | null = null;
  for (const row of rows) {
    for (const poly of row ?? []) {
      const g = jstsPolygon(poly);
      acc = acc === null ? g : acc.union(g);
    }
  }
  return acc ?? factory.createPolygon();
}

/** A jsts box polygon. */
export function jstsBox(minX: number, minY: number, maxX: number, maxY: number): Geometry {
  return jstsPolygon([
    [
      [minX, minY],
      [maxX, minY],
      [maxX, maxY],
      [minX, maxY],
    ],
  ]);
}

/** Cell `i` of closed rings `coords` / `ringOffsets` as a jsts polygon. */
export function jstsCell(coords: Float64Array, ringOffsets: Int32Array, i: number): Geometry {
  const ring: Ring = [];
  for (let k = ringOffsets[i]; k < ringOffsets[i + 1]; k++) ring.push([coords[2 * k], coords[2 * k + 1]]);
  return jstsPolygon([ring]);
}

/** Signed shoelace area of ring `r` of the output, around its first point. */
export function outRingArea(m: MultiPolygonBuffers, r: number): number {
  const c = m.coords;
  const lo = m.ringOffsets[r];
  const hi = m.ringOffsets[r + 1];
  const ox = c[2 * lo];
  const oy = c[2 * lo + 1];
  let s = 0;
  for (let k = lo; k + 1 < hi; k++) {
    s += (c[2 * k] - ox) * (c[2 * k + 3] - oy) - (c[2 * k + 2] - ox) * (c[2 * k + 1] - oy);
  }
  return s / 2;
}

/** Area of geometry (cell) `i` of the output: exteriors minus holes. */
export function outGeometryArea(m: MultiPolygonBuffers, i: number): number {
  let s = 0;
  for (let p = m.geometryOffsets[i]; p < m.geometryOffsets[i + 1]; p++) {
    for (let r = m.polygonOffsets[p]; r < m.polygonOffsets[p + 1]; r++) s += outRingArea(m, r);
  }
  return s;
}

/** Crossing-number point-in-ring test on ring `r` of the output. */
export function outRingContains(m: MultiPolygonBuffers, r: number, x: number, y: number): boolean {
  const c = m.coords;
  let inside = false;
  for (let k = m.ringOffsets[r]; k + 1 < m.ringOffsets[r + 1]; k++) {
    const [x1, y1, x2, y2] = [c[2 * k], c[2 * k + 1], c[2 * k + 2], c[2 * k + 3]];
    if (y1 > y !== y2 > y && x < ((x2 - x1) * (y - y1)) / (y2 - y1) + x1) inside = !inside;
  }
  return inside;
}

/** Whether (x, y) is inside polygon `p` of the output (in its exterior, in none of its holes). */
export function outPolygonContains(m: MultiPolygonBuffers, p: number, x: number, y: number): boolean {
  const first = m.polygonOffsets[p];
  if (!outRingContains(m, first, x, y)) return false;
  for (let r = first + 1; r < m.polygonOffsets[p + 1]; r++) if (outRingContains(m, r, x, y)) return false;
  return true;
}

/**
 * Up to `count` random points inside polygon `p` of the output, by rejection in its box
 * (fewer for slivers), away from its rings by more than `margin` × the box size.
 */
export function samplePolygon(
  m: MultiPolygonBuffers,
  p: number,
  count: number,
  rng: SeededRandom,
): [number, number][] {
  const c = m.coords;
  const lo = m.ringOffsets[m.polygonOffsets[p]];
  const hi = m.ringOffsets[m.polygonOffsets[p] + 1];
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = lo; k < hi; k++) {
    x0 = Math.min(x0, c[2 * k]);
    x1 = Math.max(x1, c[2 * k]);
    y0 = Math.min(y0, c[2 * k + 1]);
    y1 = Math.max(y1, c[2 * k + 1]);
  }
  const points: [number, number][] = [];
  for (let tries = 0; tries < 50 * count && points.length < count; tries++) {
    const x = x0 + (x1 - x0) * rng.next();
    const y = y0 + (y1 - y0) * rng.next();
    if (outPolygonContains(m, p, x, y)) points.push([x, y]);
  }
  return points;
}

/**
 * Why the output's rings are not well formed, or null: each ring has at least 4 points and is
 * closed; a polygon's first ring is counter-clockwise and the others clockwise.
 */
export function orientationProblem(m: MultiPolygonBuffers): string | null {
  const nPolygons = m.polygonOffsets.length - 1;
  for (let p = 0; p < nPolygons; p++) {
    if (m.polygonOffsets[p + 1] <= m.polygonOffsets[p]) return `polygon ${p} has no ring`;
    for (let r = m.polygonOffsets[p]; r < m.polygonOffsets[p + 1]; r++) {
      const lo = m.ringOffsets[r];
      const hi = m.ringOffsets[r + 1];
      if (hi - lo < 4) return `ring ${r} has ${hi - lo} points`;
      if (m.coords[2 * lo] !== m.coords[2 * hi - 2] || m.coords[2 * lo + 1] !== m.coords[2 * hi - 1]) {
        return `ring ${r} is not closed`;
      }
      const a = outRingArea(m, r);
      const exterior = r === m.polygonOffsets[p];
      if (exterior ? !(a > 0) : !(a < 0)) return `ring ${r} of polygon ${p} has area ${a}`;
    }
  }
  return null;
}

/** A regular-ish star polygon (concave), counter-clockwise. */
export function star(cx: number, cy: number, r1: number, r2: number, points: number): Ring {
  const ring: Ring = [];
  for (let i = 0; i < 2 * points; i++) {
    const a = (Math.PI * i) / points;
    const r = i % 2 === 0 ? r1 : r2;
    ring.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return ring;
}

/** A circle approximated by `n` vertices, counter-clockwise (clockwise when `cw`). */
export function circle(cx: number, cy: number, r: number, n: number, cw = false): Ring {
  const ring: Ring = [];
  for (let i = 0; i < n; i++) {
    const a = ((cw ? -2 : 2) * Math.PI * i) / n;
    ring.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return ring;
}

/** An axis-aligned square, counter-clockwise. */
export function square(x: number, y: number, size: number): Ring {
  return [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
  ];
}
