// The Hilbert-curve renumbering is a speed-up only: cells and edges must be bitwise the same as
// with the caller's numbering (both orderings are run here; no stored output).
import { clipBox, uniqueSites } from '@geoframe/core';
import { triangulate, voronoiCells } from '@geoframe/cpu';
import { generatePoints, type PointSetKind, SeededRandom } from '@geoframe/testing';
import { orient2d } from 'robust-predicates';
import { describe, expect, test } from 'vitest';
import { hilbertIndex, hilbertOrder } from '../src/delaunay/hilbert-order.js';
import { SORT_FROM } from '../src/delaunay/triangulate.js';
import { voronoiCellsOrdered } from '../src/voronoi/voronoi-cells.js';
import { voronoiEdgesOrdered } from '../src/voronoi/voronoi-edges.js';
import { ringProblem } from './voronoi-helpers.js';

/** The raw bits of a coordinate buffer, so +0/-0 and every ulp count. */
function bits(a: Float64Array): BigUint64Array {
  return new BigUint64Array(a.buffer, a.byteOffset, a.length);
}

/** Edges as sorted strings of their exact end points (edge order is not part of the output). */
function edgeSet(coords: Float64Array): string[] {
  const b = bits(coords);
  const out: string[] = [];
  for (let k = 0; k < b.length; k += 4) out.push(`${b[k]},${b[k + 1]},${b[k + 2]},${b[k + 3]}`);
  return out.sort();
}

function shuffled(xy: Float64Array, seed: number): { xy: Float64Array; perm: Uint32Array } {
  const n = xy.length >> 1;
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  const rng = new SeededRandom(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.nextUint32() % (i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = xy[2 * perm[i]];
    out[2 * i + 1] = xy[2 * perm[i] + 1];
  }
  return { xy: out, perm };
}

// inputs whose Delaunay triangulation is unique, or whose cocircular vertices are exact (lattices)
const kinds: PointSetKind[] = ['uniform', 'clusters', 'lattice', 'lattice-offset'];

describe.each(kinds)('%s sites: renumbering changes nothing', (kind) => {
  const xy = uniqueSites(generatePoints(kind, 6000, 3)).xy;
  const box = clipBox(xy);

  test('cells are bitwise the same with and without the Hilbert sort', () => {
    expect(xy.length / 2).toBeGreaterThanOrEqual(SORT_FROM);
    const sorted = voronoiCellsOrdered(xy, box, true);
    const plain = voronoiCellsOrdered(xy, box, false);
    expect(sorted.ringOffsets).toEqual(plain.ringOffsets);
    expect(bits(sorted.coords)).toEqual(bits(plain.coords));
    expect(bits(voronoiCells(xy, box).coords)).toEqual(bits(plain.coords));
  });

  test('shuffling the sites shuffles the cells and nothing else', () => {
    const plain = voronoiCellsOrdered(xy, box, false);
    const { xy: mixed, perm } = shuffled(xy, 99);
    const cells = voronoiCells(mixed, box);
    for (let i = 0; i < perm.length; i++) {
      const a = cells.coords.subarray(2 * cells.ringOffsets[i], 2 * cells.ringOffsets[i + 1]);
      const r = perm[i];
      const b = plain.coords.subarray(2 * plain.ringOffsets[r], 2 * plain.ringOffsets[r + 1]);
      if (a.length !== b.length || !bits(a).every((v, k) => v === bits(b)[k]))
        expect([i, r]).toBe('same cell');
    }
  });

  test('edges are the same set with and without the sort, and with shuffled sites', () => {
    const plain = edgeSet(voronoiEdgesOrdered(xy, box, false).coords);
    expect(plain.length).toBeGreaterThan(xy.length / 2);
    expect(edgeSet(voronoiEdgesOrdered(xy, box, true).coords)).toEqual(plain);
  });
});

test('every ring starts at its vertex of least x (least y among equal x)', () => {
  const xy = uniqueSites(generatePoints('clusters', 3000, 8)).xy;
  const cells = voronoiCells(xy, clipBox(xy));
  for (let r = 0; r + 1 < cells.ringOffsets.length; r++) {
    const lo = cells.ringOffsets[r];
    const hi = cells.ringOffsets[r + 1];
    for (let k = lo + 1; k < hi - 1; k++) {
      const x0 = cells.coords[2 * lo];
      const y0 = cells.coords[2 * lo + 1];
      const x = cells.coords[2 * k];
      const ok = x > x0 || (x === x0 && cells.coords[2 * k + 1] > y0);
      if (!ok) expect([r, k]).toBe('a later vertex lower than the first');
    }
    expect(ringProblem(cells, r)).toBeNull();
  }
});

test('triangulate maps a sorted triangulation back to the caller numbering', () => {
  const xy = uniqueSites(generatePoints('uniform', 5000, 21)).xy;
  const tri = triangulate(xy)!;
  const { originX, originY, scale } = tri.frame;
  for (let i = 0; i < xy.length / 2; i++) {
    expect(tri.frame.xy[2 * i]).toBe((xy[2 * i] - originX) * scale);
    expect(tri.frame.xy[2 * i + 1]).toBe((xy[2 * i + 1] - originY) * scale);
  }
  expect(new Set(tri.triangles).size).toBe(xy.length / 2);
  for (let t = 0; t < tri.triangles.length; t += 3) {
    const [a, b, c] = [tri.triangles[t], tri.triangles[t + 1], tri.triangles[t + 2]];
    // delaunator's convention: clockwise in y-up, i.e. orient2d > 0
    expect(
      orient2d(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]),
    ).toBeGreaterThan(0);
  }
  for (let e = 0; e < tri.halfedges.length; e++) {
    const f = tri.halfedges[e];
    if (f < 0) continue;
    expect(tri.halfedges[f]).toBe(e);
    expect(tri.triangles[f]).toBe(tri.triangles[e % 3 === 2 ? e - 2 : e + 1]);
  }
  // the hull runs through hull edges (twin -1) of the caller-numbered triangles
  const hullEdges = new Set<string>();
  for (let e = 0; e < tri.halfedges.length; e++) {
    if (tri.halfedges[e] === -1)
      hullEdges.add(`${tri.triangles[e]},${tri.triangles[e % 3 === 2 ? e - 2 : e + 1]}`);
  }
  expect(hullEdges.size).toBe(tri.hull.length);
  for (let k = 0; k < tri.hull.length; k++) {
    const a = tri.hull[k];
    const b = tri.hull[(k + 1) % tri.hull.length];
    expect(hullEdges.has(`${b},${a}`) || hullEdges.has(`${a},${b}`)).toBe(true);
  }
});

describe('hilbertOrder', () => {
  test('the curve index visits every cell of the grid once, stepping to a side neighbour', () => {
    for (const b of [1, 2, 3, 5]) {
      const side = 2 ** b;
      const at = new Int32Array(side * side).fill(-1);
      for (let x = 0; x < side; x++) for (let y = 0; y < side; y++) at[hilbertIndex(x, y, b)] = x * side + y;
      expect(at.includes(-1)).toBe(false);
      for (let d = 1; d < at.length; d++) {
        const dx = Math.abs(Math.floor(at[d] / side) - Math.floor(at[d - 1] / side));
        const dy = Math.abs((at[d] % side) - (at[d - 1] % side));
        expect(dx + dy).toBe(1);
      }
    }
  });

  test('is a permutation, along the curve, stable within a cell; empty and one-site input', () => {
    expect(hilbertOrder(new Float64Array(0)).length).toBe(0);
    expect(Array.from(hilbertOrder(new Float64Array([5, 5])))).toEqual([0]);
    // four quadrants of the unit square: the curve of order 1 runs (0,0) (0,1) (1,1) (1,0)
    const quads = new Float64Array([1, 0, 0, 0, 1, 1, 0, 1, 0, 0]);
    expect(Array.from(hilbertOrder(quads))).toEqual([1, 4, 3, 2, 0]);
    const xy = generatePoints('uniform', 4000, 5);
    const order = hilbertOrder(xy);
    expect(new Set(order).size).toBe(4000);
    // consecutive sites along the curve are close: far less than random pairs (~520 of 1000)
    let step = 0;
    for (let k = 1; k < order.length; k++) {
      step += Math.hypot(
        xy[2 * order[k]] - xy[2 * order[k - 1]],
        xy[2 * order[k] + 1] - xy[2 * order[k - 1] + 1],
      );
    }
    expect(step / (order.length - 1)).toBeLessThan(40);
  });
});
