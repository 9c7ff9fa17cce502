// The exact Lawson repair on hand-made triangulations (delaunator's layout).
import { describe, expect, test } from 'vitest';
import { repairDelaunay } from '../src/delaunay/lawson-repair.js';

// A(0,0) B(2,-1) C(4,0) D(2,1): D lies inside the circle through A, B, C (centre (2,1.5),
// radius 2.5), so the diagonal AC is illegal and BD is the Delaunay diagonal.
const xy = new Float64Array([0, 0, 2, -1, 4, 0, 2, 1]);

describe('repairDelaunay', () => {
  test('flips an illegal diagonal, keeping triangles clockwise (y-up) and twins consistent', () => {
    // (A, C, B) and (C, A, D): clockwise in y-up, sharing A→C / C→A as half-edges 0 and 3
    const triangles = new Uint32Array([0, 2, 1, 2, 0, 3]);
    const halfedges = new Int32Array([3, -1, -1, 0, -1, -1]);
    const result = repairDelaunay(xy, triangles, halfedges);
    expect(result.flips).toBe(1);
    expect(result.cocircularEdges).toBe(0);
    // both new triangles contain the new diagonal B–D
    for (let t = 0; t < 2; t++) {
      const tri = Array.from(triangles.subarray(3 * t, 3 * t + 3)).sort();
      expect([
        [0, 1, 3],
        [1, 2, 3],
      ]).toContainEqual(tri);
    }
    expect(new Set(Array.from(triangles))).toEqual(new Set([0, 1, 2, 3]));
    for (let t = 0; t < 2; t++) {
      const [a, b, c] = Array.from(triangles.subarray(3 * t, 3 * t + 3));
      const cross =
        (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
        (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a]);
      expect(cross).toBeLessThan(0);
    }
    let linked = 0;
    for (let e = 0; e < 6; e++) {
      const f = halfedges[e];
      if (f === -1) continue;
      linked++;
      expect(halfedges[f]).toBe(e);
      // twins run between the same two sites in opposite directions
      const next = (h: number) => (h % 3 === 2 ? h - 2 : h + 1);
      expect(triangles[e]).toBe(triangles[next(f)]);
      expect(triangles[next(e)]).toBe(triangles[f]);
    }
    expect(linked).toBe(2);
    expect(result.edgeState.filter((s) => s === 1).length).toBe(2);
  });

  test('keeps a legal diagonal and records a cocircular one', () => {
    const legal = new Uint32Array([3, 1, 0, 1, 3, 2]); // (D, B, A) and (B, D, C), clockwise
    const twins = new Int32Array([3, -1, -1, 0, -1, -1]);
    expect(repairDelaunay(xy, legal, twins).flips).toBe(0);
    expect(Array.from(legal)).toEqual([3, 1, 0, 1, 3, 2]);
    // a unit square: both diagonals are Delaunay, the quad is cocircular
    const square = new Float64Array([0, 0, 1, 0, 1, 1, 0, 1]);
    const triangles = new Uint32Array([0, 2, 1, 2, 0, 3]);
    const halfedges = new Int32Array([3, -1, -1, 0, -1, -1]);
    const result = repairDelaunay(square, triangles, halfedges);
    expect(result.flips).toBe(0);
    expect(result.cocircularEdges).toBe(1);
    expect(result.edgeState[0]).toBe(2);
    expect(result.edgeState[3]).toBe(2);
  });
});
