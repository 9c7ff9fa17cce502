import { adversarialSet, generatePoints } from '@geoframe/testing';
import Delaunator from 'delaunator';
import { orient2d } from 'robust-predicates';
import { expect, test } from 'vitest';
import { hullFan } from '../src/delaunay/hull-fan.js';
import { unfoldedDelaunator } from '../src/delaunay/unfolded-delaunator.js';

function checkFan(xy: Float64Array): void {
  const { triangles, halfedges, hull } = hullFan(xy);
  const h = hull.length;
  expect(triangles.length).toBe(3 * (h - 2));
  // every triangle strictly clockwise (y-up), every twin consistent, hull edges exactly −1
  for (let t = 0; t < triangles.length / 3; t++) {
    const [a, b, c] = [triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]];
    expect(
      orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]),
    ).toBeGreaterThan(0);
  }
  let open = 0;
  for (let e = 0; e < halfedges.length; e++) {
    const f = halfedges[e];
    if (f < 0) {
      open++;
      continue;
    }
    expect(halfedges[f]).toBe(e);
    const next = (x: number) => (x % 3 === 2 ? x - 2 : x + 1);
    expect([triangles[f], triangles[next(f)]]).toEqual([triangles[next(e)], triangles[e]]);
  }
  expect(open).toBe(h);
  // the hull: clockwise, strict turns only, and no site outside any of its edges
  for (let k = 0; k < h; k++) {
    const [a, b, c] = [hull[k], hull[(k + 1) % h], hull[(k + 2) % h]];
    expect(
      orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]),
    ).toBeGreaterThan(0);
    let outside = 0;
    for (let p = 0; p < xy.length / 2; p++)
      if (orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * p], xy[2 * p + 1]) < 0)
        outside++;
    expect(outside).toBe(0);
  }
}

test('hullFan: strictly clockwise fans over the exact hull, collinear hull sites left out', () => {
  checkFan(generatePoints('uniform', 500, 11));
  // a lattice: every hull edge holds collinear sites, only the four corners stay
  const lattice = adversarialSet('lattice', 400, 5).xy;
  checkFan(lattice);
  expect(hullFan(lattice).hull.length).toBe(4);
  checkFan(adversarialSet('cocircular', 1000, 1).xy);
  checkFan(adversarialSet('near-collinear', 300, 2).xy);
});

test('delaunator still folds the cocircular case that needs the fan', () => {
  // guards that the geo suite's "folds delaunator cannot unfold" cases exercise the fan
  const xy = adversarialSet('cocircular', 1000, 1).xy;
  const d = new Delaunator(xy);
  let folded = 0;
  for (let e = 0; e < d.triangles.length; e += 3) {
    const [a, b, c] = [d.triangles[e], d.triangles[e + 1], d.triangles[e + 2]];
    if (orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]) <= 0) folded++;
  }
  expect(folded).toBeGreaterThan(0);
  const u = unfoldedDelaunator(xy);
  expect(u.triangles).toEqual(hullFan(xy).triangles);
});
