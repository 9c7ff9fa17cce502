import { clipBox } from '@geoframe/core';
import { delaunay } from '@geoframe/cpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { certifyCpuTriangles, onGrid } from '../src/delaunay/grid-certificate.js';
import { fixedGrid, fixedToNumber, toGrid } from '../src/exact/fixed-grid.js';

describe('onGrid', () => {
  it('is exactly "the grid value converts back to the same double", over magnitudes and exponents', () => {
    const rng = new SeededRandom(5);
    let exact = 0;
    for (let k = 0; k < 20_000; k++) {
      const magnitude = 10 ** Math.floor(rng.next() * 40 - 20);
      const v = (rng.next() - 0.5) * magnitude * (rng.next() < 0.3 ? 1 : 2 ** Math.floor(rng.next() * 8));
      const rounded = rng.next() < 0.3 ? Math.round(v * 2 ** 20) / 2 ** 20 : v;
      // the grid of a box reaching 2^j times the value: exponent follows the largest coordinate
      const reach = Math.abs(rounded) * 2 ** Math.floor(rng.next() * 80);
      const grid = fixedGrid(Float64Array.of(rounded, 0), { minX: -reach, minY: -1, maxX: reach, maxY: 1 });
      const e = grid.exponent;
      const back = fixedToNumber(e, BigInt(toGrid(rounded, e)));
      expect(onGrid(rounded, e), `${rounded} at 2^${e}`).toBe(back === rounded);
      if (back === rounded) exact++;
    }
    // both outcomes are exercised
    expect(exact).toBeGreaterThan(1000);
    expect(exact).toBeLessThan(19_000);
    for (const v of [0, -0, 2 ** -1074, 2 ** -1000, 1, 0.5, 3 * 2 ** -60]) {
      expect(onGrid(v, -1074), String(v)).toBe(true);
    }
    expect(onGrid(2 ** -1000, -60)).toBe(false);
    expect(onGrid(3 * 2 ** -60, -59)).toBe(false);
    expect(onGrid(2 ** -59, -59)).toBe(true);
  });
});

describe('certifyCpuTriangles', () => {
  it('passes uniform sites and names the pair of near-duplicates the grid rounds', () => {
    const rng = new SeededRandom(11);
    const xy = new Float64Array(600).map(() => rng.next() * 1000);
    const box = clipBox(xy, null);
    const e = fixedGrid(xy, box).exponent;
    const tri = delaunay(xy);
    expect(certifyCpuTriangles(xy, tri.triangles, tri.halfedges, e, box)).toBeNull();
    // a near-duplicate close to the origin, moved along x only: the rounding moves the pair along
    // their own axis, their bisector stays put, and the cells are certified
    const along = Float64Array.from([...xy, 1.234567, 2.345678, 1.234567 * (1 + 1e-12), 2.345678]);
    const alongTri = delaunay(along);
    expect(
      certifyCpuTriangles(along, alongTri.triangles, alongTri.halfedges, e, clipBox(along, null)),
    ).toBeNull();
    // the shared near-duplicate sets (copies 1e-12 away in x) stay certified too
    for (const seed of [45, 11, 12]) {
      const near = generatePoints('near-duplicates', 1000, seed);
      const nearTri = delaunay(near);
      const nearBox = clipBox(near, null);
      const exponent = fixedGrid(near, nearBox).exponent;
      expect(certifyCpuTriangles(near, nearTri.triangles, nearTri.halfedges, exponent, nearBox)).toBeNull();
    }
    // moved diagonally: the bisector's direction is lost in the rounding, and the pair is named
    const dup = Float64Array.from([
      ...xy,
      1.234567,
      2.345678,
      1.234567 * (1 + 1e-12),
      2.345678 * (1 - 1e-12),
    ]);
    const dupTri = delaunay(dup);
    const why = certifyCpuTriangles(dup, dupTri.triangles, dupTri.halfedges, e, clipBox(dup, null));
    expect(why).toMatch(/\b30[01]\b/);
  });
});
