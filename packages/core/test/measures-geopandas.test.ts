import { readFileSync } from 'node:fs';
import { area, type GeometryArray, GeometryType, lengthOf } from '@geoframe/core';
import { expect, test } from 'vitest';
import { build, type Row, toWkt } from './measures-helpers.js';

// Area and length GeoPandas (GEOS) computed for the six fixture columns; GeoPandas reports a
// missing value (None) for null rows, where we give NaN.
const expected = JSON.parse(
  readFileSync(new URL('../../geo/test/fixtures/geopandas/expected.json', import.meta.url), 'utf8'),
) as Record<string, { wkt: (string | null)[]; area: (number | null)[]; length: (number | null)[] }>;

const { Point, LineString, Polygon, MultiPoint, MultiLineString, MultiPolygon } = GeometryType;

// The fixture geometries, written out by hand (their WKT is checked against the fixture below).
const columns: Record<string, [GeometryType, Row[]]> = {
  point: [
    Point,
    [
      { type: Point, parts: [[[1, 2]]] },
      null,
      { type: Point, parts: [[[-3.5, 4.25]]] },
      { type: Point, parts: [] },
    ],
  ],
  linestring: [
    LineString,
    [
      { type: LineString, parts: [[[0, 0, 1, 1, 2, 0]]] },
      null,
      { type: LineString, parts: [] },
      { type: LineString, parts: [[[5, 5, 6, 7]]] },
    ],
  ],
  polygon: [
    Polygon,
    [
      {
        type: Polygon,
        parts: [
          [
            [0, 0, 4, 0, 4, 4, 0, 4, 0, 0],
            [1, 1, 1, 2, 2, 2, 2, 1, 1, 1],
          ],
        ],
      },
      null,
      { type: Polygon, parts: [[[10, 10, 12, 10, 11, 13, 10, 10]]] },
      { type: Polygon, parts: [] },
    ],
  ],
  multipoint: [
    MultiPoint,
    [
      { type: MultiPoint, parts: [[[0, 0]], [[1, 1]]] },
      null,
      { type: MultiPoint, parts: [[[2, 3]]] },
      { type: MultiPoint, parts: [] },
    ],
  ],
  multilinestring: [
    MultiLineString,
    [
      { type: MultiLineString, parts: [[[0, 0, 1, 1]], [[2, 2, 3, 3, 4, 2]]] },
      null,
      { type: MultiLineString, parts: [] },
      { type: MultiLineString, parts: [[[9, 9, 8, 8]]] },
    ],
  ],
  multipolygon: [
    MultiPolygon,
    [
      {
        type: MultiPolygon,
        parts: [
          [
            [0, 0, 3, 0, 3, 3, 0, 3, 0, 0],
            [1, 1, 1, 2, 2, 2, 2, 1, 1, 1],
          ],
          [[5, 5, 6, 5, 6, 6, 5, 5]],
        ],
      },
      null,
      { type: MultiPolygon, parts: [[[20, 20, 21, 20, 21, 21, 20, 20]]] },
      { type: MultiPolygon, parts: [] },
    ],
  ],
};

const matches = (got: Float64Array, want: (number | null)[]) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => {
    if (w === null) expect(got[i], `row ${i}`).toBeNaN();
    // GEOS's arithmetic, so the same bits
    else expect(got[i], `row ${i}`).toBe(w);
  });
};

for (const [name, [type, rows]] of Object.entries(columns)) {
  test(`${name}: area and length as GeoPandas computed them`, () => {
    const fixture = expected[name];
    // the hand-written rows are the fixture's geometries
    expect(rows.map((r) => (r === null ? null : toWkt(r)))).toEqual(fixture.wkt);
    const check = (column: GeometryArray) => {
      matches(area(column), fixture.area);
      matches(lengthOf(column), fixture.length);
    };
    check(build(rows, type));
    check(build(rows, 'mixed'));
    check(build(rows, type, 'xyz'));
  });
}
