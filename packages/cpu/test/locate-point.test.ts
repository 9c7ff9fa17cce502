// The exact point-location kernel against JTS (jsts' PointLocator and DistanceOp): polygons with
// holes and multipolygons at small and huge offsets, probed on every vertex, on edge midpoints,
// one ulp off them, and at random.
import { type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import { BOUNDARY, EXTERIOR, INTERIOR, locatePointInPolygonal, pointPolygonalDistance } from '@geoframe/cpu';
import { SeededRandom } from '@geoframe/testing';
import PointLocator from 'jsts/org/locationtech/jts/algorithm/PointLocator.js';
import Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import DistanceOp from 'jsts/org/locationtech/jts/operation/distance/DistanceOp.js';
import { expect, test } from 'vitest';

type Ring = number[][];
const factory = new GeometryFactory();
// JTS' Location codes: INTERIOR 0, BOUNDARY 1, EXTERIOR 2
const FROM_JTS = [INTERIOR, BOUNDARY, EXTERIOR];

/** Polygons (as parts → rings), integer vertices shifted by `offset`. */
function shapes(rng: SeededRandom, offset: number): Ring[][][] {
  const o = (x: number, y: number) => [x + offset, y + offset];
  const star: Ring = Array.from({ length: 9 }, (_, k) => {
    const a = (2 * Math.PI * k) / 9;
    const r = 6 + Math.round(6 * rng.next());
    return o(20 + Math.round(r * Math.cos(a)), 20 + Math.round(r * Math.sin(a)));
  });
  const squareWithHole = [
    [o(0, 0), o(8, 0), o(8, 8), o(0, 8)],
    [o(2, 2), o(2, 6), o(6, 6), o(6, 2)],
  ];
  // parts meeting at a vertex are left to the shapely test in packages/geo: JTS' PointLocator
  // counts such a vertex twice under the mod-2 rule and calls it interior, GEOS' relate boundary
  const twoParts = [[[o(0, 0), o(4, 0), o(4, 4), o(0, 4)]], [[o(10, 0), o(14, 0), o(14, 4), o(10, 4)]]];
  return [[squareWithHole], [[star]], twoParts];
}

function column(polygons: Ring[][][]): GeometryArray {
  const b = new GeometryBuilder(GeometryType.MultiPolygon);
  for (const parts of polygons) {
    b.beginGeometry(GeometryType.MultiPolygon);
    for (const rings of parts) {
      b.beginPart();
      for (const ring of rings) {
        b.beginRing();
        for (const [x, y] of [...ring, ring[0]]) b.pushXY(x, y);
      }
    }
    b.endGeometry();
  }
  return b.finish();
}

function jts(parts: Ring[][]) {
  const ring = (r: Ring) => factory.createLinearRing([...r, r[0]].map(([x, y]) => new Coordinate(x, y)));
  return factory.createMultiPolygon(
    parts.map((rings) => factory.createPolygon(ring(rings[0]), rings.slice(1).map(ring))),
  );
}

test.each([0, 1e7, 2 ** 40])('locations and distances equal JTS at offset %d', (offset) => {
  const rng = new SeededRandom(5);
  const polygons = shapes(rng, offset);
  const array = column(polygons);
  const locator = new PointLocator();
  let boundary = 0;
  polygons.forEach((parts, row) => {
    const geom = jts(parts);
    const probes: number[][] = [];
    for (const rings of parts) {
      for (const ring of rings) {
        ring.forEach(([ax, ay], k) => {
          const [bx, by] = ring[(k + 1) % ring.length];
          const mx = (ax + bx) / 2;
          probes.push(
            [ax, ay],
            [mx, (ay + by) / 2],
            [mx + 4 * Number.EPSILON * Math.abs(mx || 1), (ay + by) / 2],
          );
        });
      }
    }
    for (let k = 0; k < 40; k++) probes.push([offset - 2 + 30 * rng.next(), offset - 2 + 30 * rng.next()]);
    for (const [x, y] of probes) {
      const theirs = FROM_JTS[locator.locate(new Coordinate(x, y), geom)];
      const ours = locatePointInPolygonal(array, row, x, y);
      expect(ours, `row ${row} (${x}, ${y})`).toBe(theirs);
      if (ours === BOUNDARY) boundary++;
      const d = DistanceOp.distance(factory.createPoint(new Coordinate(x, y)), geom);
      expect(
        Math.abs(pointPolygonalDistance(array, row, x, y) - d),
        `row ${row} (${x}, ${y})`,
      ).toBeLessThanOrEqual(1e-9 * Math.max(1, d));
    }
  });
  expect(boundary).toBeGreaterThan(30); // the probes do test edges and vertices
});
