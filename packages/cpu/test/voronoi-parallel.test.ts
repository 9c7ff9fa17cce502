// voronoiCellsParallel splits the float filter of the exact verification, the circumcentres and
// the ring write pass over worker threads; its output must be the serial voronoiCells output bit
// for bit. A lowered minSites keeps the inputs small.
import { clipBox, uniqueSites } from '@geoframe/core';
import { generatePoints, type PointSetKind } from '@geoframe/testing';
import { expect, test } from 'vitest';
import { certifyEdges } from '../src/delaunay/delaunay-kernels.js';
import { repairDelaunay } from '../src/delaunay/lawson-repair.js';
import { triangulateOrdered, triangulateOrderedParallel } from '../src/delaunay/triangulate.js';
import { preparedFloat64Array, voronoiCells, voronoiCellsParallel } from '../src/index.js';
import { circumcentreRange } from '../src/voronoi/cell-kernels.js';
import { circumcenters, circumcentersParallel } from '../src/voronoi/circumcenters.js';

function bits(a: Float64Array): BigUint64Array {
  return new BigUint64Array(a.buffer, a.byteOffset, a.length);
}

const kinds: PointSetKind[] = [
  'uniform',
  'clusters',
  'lattice',
  'lattice-offset',
  'circle',
  'near-duplicates',
];

test.each(kinds)('%s sites: parallel cells equal the serial cells bit for bit', async (kind) => {
  const xy = uniqueSites(generatePoints(kind, 20_000, 7)).xy;
  const box = clipBox(xy);
  const w = (box.maxX - box.minX) / 4;
  const h = (box.maxY - box.minY) / 4;
  const cut = { minX: box.minX + w, minY: box.minY + h, maxX: box.maxX - w, maxY: box.maxY - h };
  for (const b of [box, cut]) {
    const serial = voronoiCells(xy, b);
    for (const threads of [2, 3]) {
      const parallel = await voronoiCellsParallel(xy, b, { minSites: 1000, threads });
      expect(parallel.ringOffsets).toEqual(serial.ringOffsets);
      expect(bits(parallel.coords)).toEqual(bits(serial.coords));
    }
  }
});

test('overlapping runs on the worker pool keep their own results', async () => {
  // pages mapped ahead (workers only) while two parallel runs share the same workers: each job's
  // result must reach its own run, whatever order the workers finish in
  const xy = uniqueSites(generatePoints('uniform', 20_000, 13)).xy;
  const box = clipBox(xy);
  const serial = voronoiCells(xy, box);
  const [pages, a, b] = await Promise.all([
    preparedFloat64Array(1 << 23),
    voronoiCellsParallel(xy, box, { minSites: 1000, threads: 3 }),
    voronoiCellsParallel(xy, box, { minSites: 1000, threads: 3 }),
  ]);
  expect(pages.length).toBe(1 << 23);
  for (const run of [a, b]) {
    expect(run.ringOffsets).toEqual(serial.ringOffsets);
    expect(bits(run.coords)).toEqual(bits(serial.coords));
  }
});

test('small inputs, collinear sites and one thread take the serial path', async () => {
  const xy = uniqueSites(generatePoints('uniform', 500, 1)).xy;
  const box = clipBox(xy);
  const serial = voronoiCells(xy, box);
  const small = await voronoiCellsParallel(xy, box);
  expect(bits(small.coords)).toEqual(bits(serial.coords));
  const one = await voronoiCellsParallel(xy, box, { minSites: 0, threads: 1 });
  expect(bits(one.coords)).toEqual(bits(serial.coords));
  const line = new Float64Array([0, 0, 1, 1, 2, 2, 3, 3]);
  const lineBox = { minX: -1, minY: -1, maxX: 4, maxY: 4 };
  const lineCells = await voronoiCellsParallel(line, lineBox, { minSites: 0, threads: 2 });
  expect(bits(lineCells.coords)).toEqual(bits(voronoiCells(line, lineBox).coords));
  expect((await voronoiCellsParallel(new Float64Array(0), lineBox)).ringOffsets).toEqual(new Int32Array(1));
});

// Each pass moved onto the workers, against its serial pass. The float filter of the exact
// verification (certifyEdges) is checked through the whole verified triangulation it feeds,
// including runs where the exact repair flips edges (its verdicts are then trusted only up to
// the first flip).
test.each(kinds)(
  '%s sites: the parallel triangulation and circumcentres equal the serial ones',
  async (kind) => {
    const xy = uniqueSites(generatePoints(kind, 20_000, 11)).xy;
    const serial = triangulateOrdered(xy, true);
    if (serial === null) throw new Error('collinear');
    const { tri } = serial;
    const cc = circumcenters(
      serial.sites,
      tri.frame,
      tri.triangles,
      tri.halfedges,
      tri.edgeState,
      tri.cocircularEdges,
    );
    for (const threads of [2, 3]) {
      const parallel = await triangulateOrderedParallel(xy, threads);
      if (parallel === null) throw new Error('collinear');
      const p = parallel.tri;
      expect(parallel.order).toEqual(serial.order);
      expect(bits(parallel.sites)).toEqual(bits(serial.sites));
      expect(bits(p.frame.xy)).toEqual(bits(tri.frame.xy));
      expect(p.triangles).toEqual(tri.triangles);
      expect(p.halfedges).toEqual(tri.halfedges);
      expect(p.hull).toEqual(tri.hull);
      expect(p.edgeState).toEqual(tri.edgeState);
      expect([p.flips, p.cocircularEdges, p.inserted]).toEqual([
        tri.flips,
        tri.cocircularEdges,
        tri.inserted,
      ]);
      const pcc = await circumcentersParallel(
        parallel.sites,
        p.frame,
        p.triangles,
        p.halfedges,
        p.edgeState,
        p.cocircularEdges,
        threads,
      );
      expect(bits(pcc)).toEqual(bits(cc));
    }
  },
);

test('a repair that flips drops the filter verdicts from its first flip on', () => {
  // a Delaunay triangulation with one diagonal swapped by hand (as LawsonFlipper flips), so the
  // exact repair must flip it back: verdicts computed before that flip describe stale edges
  const xy = uniqueSites(generatePoints('uniform', 2000, 5)).xy;
  const serial = triangulateOrdered(xy, false);
  if (serial === null) throw new Error('collinear');
  const { tri } = serial;
  const triangles = tri.triangles.slice();
  const halfedges = tri.halfedges.slice();
  const next = (k: number) => (k % 3 === 2 ? k - 2 : k + 1);
  const prev = (k: number) => (k % 3 === 0 ? k + 2 : k - 1);
  const link = (p: number, q: number) => {
    halfedges[p] = q;
    if (q >= 0) halfedges[q] = p;
  };
  // an interior edge whose quad is convex (so its flip is a valid triangulation), early in order
  const convex = (e: number, f: number) => {
    const l = tri.frame.xy;
    const pt = (k: number) => [l[2 * triangles[k]], l[2 * triangles[k] + 1]];
    const [u, v, w, z] = [pt(e), pt(next(e)), pt(prev(e)), pt(prev(f))];
    const side = (o: number[], a: number[], b: number[]) =>
      (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    return side(w, z, u) * side(w, z, v) < 0 && side(u, v, w) * side(u, v, z) < 0;
  };
  let e = 0;
  while (!(halfedges[e] > e && convex(e, halfedges[e]))) e++;
  const f = halfedges[e];
  const [a2, b2] = [prev(e), prev(f)];
  const [w, z] = [triangles[a2], triangles[b2]];
  const outerB2 = halfedges[b2];
  const outerA2 = halfedges[a2];
  triangles[e] = z;
  triangles[f] = w;
  link(e, outerB2);
  link(f, outerA2);
  link(a2, b2);
  const t1 = triangles.slice();
  const h1 = halfedges.slice();
  const expected = repairDelaunay(tri.frame.xy, t1, h1);
  expect(expected.flips).toBeGreaterThan(0);
  const certified = new Uint8Array(triangles.length);
  const half = 3 * Math.floor(triangles.length / 6);
  certifyEdges(0, half, tri.frame.xy, triangles, halfedges, certified);
  certifyEdges(half, triangles.length, tri.frame.xy, triangles, halfedges, certified);
  const t2 = triangles.slice();
  const h2 = halfedges.slice();
  expect(repairDelaunay(tri.frame.xy, t2, h2, certified)).toEqual(expected);
  expect(t2).toEqual(t1);
  expect(h2).toEqual(h1);
});

test('nearly flat triangles are left by the workers and finished exactly here', async () => {
  // triangles 0 and 2 nearly flat (the float determinant cannot be trusted), 1 and 3 not
  const sites = new Float64Array([0, 0, 1, 1, 2, 2 + 1e-12, 5, -3, 7, 7, 3, 3 - 1e-13]);
  const frame = { originX: 0, originY: 0, scale: 1, xy: sites };
  const triangles = new Uint32Array([0, 1, 2, 0, 3, 4, 2, 5, 1, 1, 3, 4]);
  const halfedges = new Int32Array(12).fill(-1);
  const out = new Float64Array(8);
  expect(circumcentreRange(0, 4, sites, sites, 1, triangles, out, null)).toEqual([0, 2]);
  const cc = circumcenters(sites, frame, triangles, halfedges, null, 0);
  for (const threads of [2, 3]) {
    const pcc = await circumcentersParallel(sites, frame, triangles, halfedges, null, 0, threads);
    expect(bits(pcc)).toEqual(bits(cc));
  }
  // the exact centre of the flat triangle lies far from it (about 1e12 away), not at infinity
  expect(Math.abs(cc[0])).toBeGreaterThan(1e10);
  expect(Number.isFinite(cc[0])).toBe(true);
});
