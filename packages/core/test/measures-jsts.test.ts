import {
  area,
  bounds,
  centroid,
  type GeometryArray,
  GeometryType,
  lengthOf,
  totalBounds,
} from '@geoframe/core';
import { describe, expect, test } from 'vitest';
import {
  build,
  type Desc,
  jsts,
  magnitude,
  type Row,
  randomRows,
  rng,
  TYPES,
  toWkt,
} from './measures-helpers.js';

/** Checks every measure of `array` against jsts, row by row (`rows` describes the array). */
function checkAgainstJsts(array: GeometryArray, rows: Row[]): void {
  const a = area(array);
  const l = lengthOf(array);
  const b = bounds(array);
  const c = centroid(array);
  expect(c.type).toBe(GeometryType.Point);
  expect(c.length).toBe(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row === null) {
      expect(a[i]).toBeNaN();
      expect(l[i]).toBeNaN();
      expect([...b.subarray(4 * i, 4 * i + 4)].every(Number.isNaN)).toBe(true);
      expect(c.isNull(i)).toBe(true);
      continue;
    }
    const g = jsts(row);
    // same arithmetic as JTS/GEOS, so the same bits
    expect(a[i], `area of row ${i}`).toBe(g.getArea());
    expect(l[i], `length of row ${i}`).toBe(g.getLength());
    const env = g.getEnvelopeInternal();
    const box = env.isNull()
      ? [NaN, NaN, NaN, NaN]
      : [env.getMinX(), env.getMinY(), env.getMaxX(), env.getMaxY()];
    expect([...b.subarray(4 * i, 4 * i + 4)], `bounds of row ${i}`).toEqual(box);
    expect(c.isNull(i)).toBe(false);
    const cg = g.getCentroid();
    if (cg.isEmpty()) {
      expect(c.isEmpty(i), `centroid of row ${i} is empty`).toBe(true);
    } else {
      const tol = 1e-12 * magnitude(row as Desc);
      expect(Math.abs(c.x(i) - cg.getX()), `centroid x of row ${i}`).toBeLessThanOrEqual(tol);
      expect(Math.abs(c.y(i) - cg.getY()), `centroid y of row ${i}`).toBeLessThanOrEqual(tol);
    }
  }
}

describe('measures agree with jsts (JTS = GEOS algorithms) on seeded random columns', () => {
  const columns: (GeometryType | 'mixed')[] = [...TYPES, 'mixed'];
  for (const type of columns) {
    const name = type === 'mixed' ? 'mixed' : GeometryType[type];
    for (const [ox, oy] of [
      [0, 0],
      [1e7, -3e6],
    ]) {
      test(`${name} column, offset (${ox}, ${oy})`, () => {
        const next = rng(typeof type === 'number' ? type * 7919 + ox : 4242 + ox);
        const rows = randomRows(next, type, 120, ox, oy);
        checkAgainstJsts(build(rows, type), rows);
      });
    }
  }

  test('Z and M are ignored: an xyzm column measures like its xy twin', () => {
    const rows = randomRows(rng(99), 'mixed', 80);
    const xy = build(rows, 'mixed');
    const xyzm = build(rows, 'mixed', 'xyzm');
    checkAgainstJsts(xyzm, rows);
    expect(area(xyzm)).toEqual(area(xy));
    expect(lengthOf(xyzm)).toEqual(lengthOf(xy));
    expect(bounds(xyzm)).toEqual(bounds(xy));
    expect(centroid(xyzm).coords).toEqual(centroid(xy).coords);
    expect(centroid(xyzm).dimension).toBe('xy');
    expect(totalBounds(build(rows, 'mixed', 'xyz'))).toEqual(totalBounds(xy));
  });

  test('the generator makes valid polygons and multipolygons (so GEOS semantics are well defined)', () => {
    for (const type of [GeometryType.Polygon, GeometryType.MultiPolygon]) {
      for (const row of randomRows(rng(type), type, 60, 1e7, -3e6)) {
        if (row !== null) expect(jsts(row).isValid(), toWkt(row)).toBe(true);
      }
    }
  });
});
