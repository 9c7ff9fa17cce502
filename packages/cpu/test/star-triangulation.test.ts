// The Delaunay triangulation by per-site stars on worker threads (ADR 0014) against the exact
// serial triangulation (delaunator verified and repaired with exact predicates): the same
// triangles, consistent half-edges, 2n − 2 − h triangles; on ties it must give up, never guess.
import { uniqueSites } from '@geoframe/core';
import { generatePoints, type PointSetKind } from '@geoframe/testing';
import { incircle, orient2d } from 'robust-predicates';
import { expect, test } from 'vitest';
import { convexHull } from '../src/delaunay/stars/convex-hull.js';
import { triangulateByStars } from '../src/delaunay/stars/star-triangulation.js';
import { triangulateOrdered } from '../src/delaunay/triangulate.js';

function shared(xy: Float64Array): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(8 * xy.length));
  out.set(xy);
  return out;
}

/** Triangles as sorted vertex triples, sorted. */
function triangleSet(triangles: Uint32Array): string[] {
  const out: string[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    out.push([triangles[t], triangles[t + 1], triangles[t + 2]].sort((a, b) => a - b).join(','));
  }
  return out.sort();
}

/** Half-edges pair up with reversed vertices, the hull edges are the open ones, triangles are clockwise (y up). */
function checkHalfedges(
  xy: Float64Array,
  triangles: Uint32Array,
  halfedges: Int32Array,
  hull: Uint32Array,
): void {
  const next = (e: number) => (e % 3 === 2 ? e - 2 : e + 1);
  let open = 0;
  let unpaired = 0;
  for (let e = 0; e < triangles.length; e++) {
    const f = halfedges[e];
    if (f === -1) {
      open++;
      continue;
    }
    if (halfedges[f] !== e || triangles[f] !== triangles[next(e)] || triangles[next(f)] !== triangles[e])
      unpaired++;
  }
  expect(unpaired).toBe(0);
  expect(open).toBe(hull.length);
  let notClockwise = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    if (orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]) <= 0)
      notClockwise++;
  }
  expect(notClockwise).toBe(0);
}

const general: [PointSetKind, number][] = [
  ['uniform', 5_000],
  ['uniform', 60_000],
  ['clusters', 20_000],
  ['clusters', 3_000],
];

test.each(general)('%s %i sites: the exact triangulation, on 2 and 3 threads', async (kind, n) => {
  const xy = shared(uniqueSites(generatePoints(kind, n, 3)).xy);
  const reference = triangulateOrdered(xy, false);
  if (reference === null) throw new Error('no triangle');
  const expected = triangleSet(reference.tri.triangles);
  for (const threads of [2, 3]) {
    const out = await triangulateByStars(xy, threads);
    if (!out.ok) throw new Error(`stars gave up: ${out.reason}`);
    const { triangles, halfedges, hull } = out.output;
    expect(triangleSet(triangles)).toEqual(expected);
    expect(triangles.length / 3).toBe(2 * (xy.length >> 1) - 2 - hull.length);
    checkHalfedges(xy, triangles, halfedges, hull);
    expect(Array.from(hull).sort((a, b) => a - b)).toEqual(
      Array.from(reference.tri.hull).sort((a, b) => a - b),
    );
  }
});

// on every shared point set: the exact triangulation or a reason, never a wrong answer
const every: PointSetKind[] = [
  'uniform',
  'clusters',
  'lattice',
  'lattice-offset',
  'circle',
  'duplicates',
  'near-duplicates',
];
test.each(every)('%s sites: the exact triangulation or a give-up', async (kind) => {
  const xy = shared(uniqueSites(generatePoints(kind, 4_000, 21)).xy);
  const reference = triangulateOrdered(xy, false);
  if (reference === null) throw new Error('no triangle');
  const out = await triangulateByStars(xy, 3);
  if (!out.ok) {
    expect([
      'undecided predicate',
      'star overflow',
      'inconsistent star',
      'stars disagree',
      'triangle count',
    ]).toContain(out.reason);
    return;
  }
  // where the Delaunay triangulation is not unique (cocircular sites) the stars always give up
  expect(reference.tri.cocircularEdges).toBe(0);
  expect(triangleSet(out.output.triangles)).toEqual(triangleSet(reference.tri.triangles));
  checkHalfedges(xy, out.output.triangles, out.output.halfedges, out.output.hull);
});

test('every interior edge passes the exact empty-circle test (uniform sites at a 1e7 offset)', async () => {
  const base = uniqueSites(generatePoints('uniform', 10_000, 11)).xy;
  const xy = shared(base.map((v) => v * 1000 + 1e7));
  const out = await triangulateByStars(xy, 2);
  if (!out.ok) throw new Error(out.reason);
  const { triangles, halfedges } = out.output;
  const next = (e: number) => (e % 3 === 2 ? e - 2 : e + 1);
  let bad = 0;
  for (let e = 0; e < halfedges.length; e++) {
    const f = halfedges[e];
    if (f < e) continue;
    const [a, b, c, d] = [
      triangles[e],
      triangles[next(e)],
      triangles[next(next(e))],
      triangles[next(next(f))],
    ];
    // clockwise (a, b, c): d inside means incircle(a, c, b, d) > 0
    if (
      incircle(
        xy[2 * a],
        xy[2 * a + 1],
        xy[2 * c],
        xy[2 * c + 1],
        xy[2 * b],
        xy[2 * b + 1],
        xy[2 * d],
        xy[2 * d + 1],
      ) > 0
    ) {
      bad++;
    }
  }
  expect(bad).toBe(0);
});

// ties and collinear runs: the float filter cannot decide them, so the stars give up (the caller
// then uses delaunator); a wrong triangulation is never returned
const degenerate: PointSetKind[] = ['lattice', 'lattice-offset', 'circle'];
test.each(degenerate)('%s sites: gives up with a reason', async (kind) => {
  const xy = shared(uniqueSites(generatePoints(kind, 3_000, 5)).xy);
  const out = await triangulateByStars(xy, 2);
  expect(out.ok).toBe(false);
  if (!out.ok) expect(out.reason).toBe('undecided predicate');
});

test('3 and 4 sites in general position, a square gives up', async () => {
  const three = await triangulateByStars(shared(new Float64Array([0, 0, 2, 0.1, 0.7, 1.9])), 2);
  if (!three.ok) throw new Error(three.reason);
  expect(Array.from(three.output.triangles).sort()).toEqual([0, 1, 2]);
  checkHalfedges(
    new Float64Array([0, 0, 2, 0.1, 0.7, 1.9]),
    three.output.triangles,
    three.output.halfedges,
    three.output.hull,
  );
  const fourXy = new Float64Array([0, 0, 3, 0.2, 2.8, 2.7, 0.1, 3.1]);
  const four = await triangulateByStars(shared(fourXy), 2);
  if (!four.ok) throw new Error(four.reason);
  const reference = triangulateOrdered(fourXy, false);
  expect(triangleSet(four.output.triangles)).toEqual(
    triangleSet(reference?.tri.triangles ?? new Uint32Array()),
  );
  const square = await triangulateByStars(shared(new Float64Array([0, 0, 1, 0, 1, 1, 0, 1])), 2);
  expect(square.ok).toBe(false);
});

test('convex hull: counter-clockwise strict vertices, every site inside or on each edge', () => {
  for (const [kind, n] of [
    ['uniform', 2000],
    ['circle', 500],
    ['lattice', 400],
    ['clusters', 3000],
  ] as [PointSetKind, number][]) {
    const xy = uniqueSites(generatePoints(kind, n, 9)).xy;
    const hull = convexHull(xy);
    const m = xy.length >> 1;
    const h = hull.length;
    // robust-predicates' orient2d is negative for counter-clockwise turns (exact)
    const turn = (a: number, b: number, c: number) =>
      orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]);
    let notStrict = 0;
    let outside = 0;
    for (let k = 0; k < h; k++) {
      const a = hull[k];
      const b = hull[(k + 1) % h];
      if (turn(a, b, hull[(k + 2) % h]) >= 0) notStrict++;
      for (let i = 0; i < m; i++) if (turn(a, b, i) > 0) outside++;
    }
    expect(h).toBeGreaterThanOrEqual(3);
    expect(notStrict).toBe(0);
    expect(outside).toBe(0);
  }
});
