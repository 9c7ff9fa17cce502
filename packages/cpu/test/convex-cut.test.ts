// The crossing cells cut without polyclip-ts (`clipCellsToRegion(…, convexCut)`, used for the CVT's
// output cells): cell by cell against jsts (area, part count, validity), on seeded random and
// adversarial sites, regions with holes, vertices on cell edges, edges along cell sides, huge
// offsets and tiny scales.
import { clipBox, uniqueSites } from '@geoframe/core';
import { clipCellsToRegion, type MultiPolygonBuffers, prepareClipRegion, voronoiCells } from '@geoframe/cpu';
import { type AdversarialKind, adversarialSet, generatePoints } from '@geoframe/testing';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import { describe, expect, test } from 'vitest';
import { zeroClipCounts } from '../src/clip/clip-cells.js';
import {
  circle,
  jstsBox,
  jstsCell,
  jstsPolygon,
  jstsUnion,
  multiPolygonColumn,
  orientationProblem,
  outGeometryArea,
  type Poly,
  type Ring,
  square,
  star,
} from './clip-helpers.js';

/** Unit-square shapes mapped onto the sites' box. */
type Shape = (map: (u: number, v: number) => [number, number]) => Poly[][];

const shapes: Record<string, Shape> = {
  'a star with a round hole': (map) => [
    [[unit(star(0.5, 0.5, 0.47, 0.2, 9), map), unit(circle(0.5, 0.5, 0.12, 40, true), map)]],
  ],
  'two stars and a square island': (map) => [
    [[unit(star(0.3, 0.3, 0.25, 0.1, 5), map)]],
    [[unit(star(0.7, 0.65, 0.28, 0.12, 6), map)]],
    [[unit(square(0.05, 0.75, 0.15), map)]],
  ],
  // edges on the lattice's lines and vertices on its points: the exact tests decline, polyclip cuts
  'a square on round coordinates': (map) => [[[unit(square(0.25, 0.25, 0.5), map)]]],
};

const cases: { sites: string; xy: Float64Array }[] = [
  { sites: 'uniform', xy: generatePoints('uniform', 200, 21) },
  { sites: 'clusters', xy: generatePoints('clusters', 200, 22) },
  { sites: 'lattice', xy: generatePoints('lattice', 144, 23) },
  ...(['offset', 'rotated-lattice', 'cocircular', 'near-collinear', 'clusters'] as AdversarialKind[]).map(
    (kind, k) => ({ sites: `adversarial ${kind}`, xy: adversarialSet(kind, 150, 30 + k).xy }),
  ),
  // extreme magnitudes whose areas stay finite (the references square the coordinates)
  ...[1e-9, 1e100].map((scale) => ({
    sites: `uniform × ${scale}`,
    xy: generatePoints('uniform', 150, 41).map((v) => v * scale),
  })),
];

describe.each(cases)('$sites sites', ({ xy: raw }) => {
  const xy = uniqueSites(raw).xy;
  const box = clipBox(xy);
  const cells = voronoiCells(xy, box);
  const n = cells.ringOffsets.length - 1;
  const map = (u: number, v: number): [number, number] => [
    box.minX + u * (box.maxX - box.minX),
    box.minY + v * (box.maxY - box.minY),
  ];
  test.each(Object.keys(shapes))('%s: every cell as jsts cuts it, valid, tiling region ∩ box', (name) => {
    const rows = shapes[name](map);
    const region = prepareClipRegion(multiPolygonColumn(rows));
    const counts = zeroClipCounts();
    const out = clipCellsToRegion(cells, region, counts, undefined, true);
    expect(orientationProblem(out)).toBeNull();
    const reference = jstsUnion(rows);
    // new points are rounded (here and in jsts): an ulp of the coordinates along a cell's side
    const ulp =
      2 ** -52 * Math.max(Math.abs(box.minX), Math.abs(box.maxX), Math.abs(box.minY), Math.abs(box.maxY));
    let sum = 0;
    let slack = 0;
    for (let i = 0; i < n; i++) {
      const cell = jstsCell(cells.coords, cells.ringOffsets, i);
      const want = cell.intersection(reference).getArea();
      const got = outGeometryArea(out, i);
      sum += got;
      const tolerance = 1e-9 * cell.getArea() + 64 * ulp * cell.getLength();
      slack += tolerance;
      expect(Math.abs(got - want)).toBeLessThanOrEqual(tolerance);
      for (let p = out.geometryOffsets[i]; p < out.geometryOffsets[i + 1]; p++) {
        expect(new IsValidOp(jstsPolygon(polygonRings(out, p))).isValid()).toBe(true);
      }
    }
    const all = jstsBox(box.minX, box.minY, box.maxX, box.maxY).intersection(reference).getArea();
    expect(Math.abs(sum - all)).toBeLessThanOrEqual(1e-9 * all + slack);
    expect(counts.cut).toBeLessThanOrEqual(counts.crossing);
  });
});

test('most crossing cells of random sites take the cut, and its result equals polyclip-ts’s area', () => {
  const xy = uniqueSites(generatePoints('uniform', 2000, 7)).xy;
  const box = clipBox(xy);
  const cells = voronoiCells(xy, box);
  const rows = shapes['a star with a round hole']((u, v) => [
    box.minX + u * (box.maxX - box.minX),
    box.minY + v * (box.maxY - box.minY),
  ]);
  const region = prepareClipRegion(multiPolygonColumn(rows));
  const counts = zeroClipCounts();
  const cut = clipCellsToRegion(cells, region, counts, undefined, true);
  const plain = clipCellsToRegion(cells, region);
  expect(counts.crossing).toBeGreaterThan(100);
  expect(counts.cut).toBeGreaterThan(0.8 * counts.crossing);
  for (let i = 0; i < cells.ringOffsets.length - 1; i++) {
    const a = outGeometryArea(cut, i);
    const b = outGeometryArea(plain, i);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-12 * (box.maxX - box.minX) ** 2);
    expect(cut.geometryOffsets[i + 1] - cut.geometryOffsets[i]).toBe(
      plain.geometryOffsets[i + 1] - plain.geometryOffsets[i],
    );
  }
});

function unit(ring: Ring, map: (u: number, v: number) => [number, number]): Ring {
  return ring.map(([u, v]) => map(u, v));
}

function polygonRings(m: MultiPolygonBuffers, p: number): Poly {
  const rings: Poly = [];
  for (let r = m.polygonOffsets[p]; r < m.polygonOffsets[p + 1]; r++) {
    const ring: Ring = [];
    for (let k = m.ringOffsets[r]; k < m.ringOffsets[r + 1]; k++)
      ring.push([m.coords[2 * k], m.coords[2 * k + 1]]);
    rings.push(ring);
  }
  return rings;
}
