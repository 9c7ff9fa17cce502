import { uniqueSites } from '@geoframe/core';
import { generatePoints, pointSets } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { cpuDelaunayStage } from '../src/ops/engines.js';

/** The triangles as a sorted list of vertex triples (each rotated to start at its least index). */
function triangleSet(triangles: Uint32Array): string[] {
  const out: string[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const m = Math.min(a, b, c);
    out.push(m === a ? `${a},${b},${c}` : m === b ? `${b},${c},${a}` : `${c},${a},${b}`);
  }
  return out.sort();
}

describe('the CPU Delaunay stage with its verification on worker threads', () => {
  it('gives the serial stage’s triangles (same orientation) and consistent half-edges', async () => {
    const sets = [
      ...pointSets(2000, 13),
      { name: 'uniform-30000', xy: generatePoints('uniform', 30_000, 2) },
    ];
    for (const { name, xy } of sets) {
      const sites = uniqueSites(xy).xy;
      const serial = await cpuDelaunayStage(sites, Number.POSITIVE_INFINITY);
      const parallel = await cpuDelaunayStage(sites, 0);
      if (serial === null) {
        expect(parallel, name).toBeNull();
        continue;
      }
      if (parallel === null) throw new Error(`${name}: no parallel triangulation`);
      const [s, p] = [serial.triangles as Uint32Array, parallel.triangles as Uint32Array];
      // cocircular quads may be split either way: compare where the triangulation is unique
      if (!/lattice|circle/.test(name)) expect(triangleSet(p), name).toEqual(triangleSet(s));
      expect(p.length, name).toBe(s.length);
      const h = parallel.halfedges as Int32Array;
      for (let e = 0; e < h.length; e++) {
        if (h[e] === -1) continue;
        expect(h[h[e]], `${name}: twin of ${e}`).toBe(e);
        // twins run between the same two sites, in opposite directions
        const next = (x: number) => (x % 3 === 2 ? x - 2 : x + 1);
        expect([p[h[e]], p[next(h[e])]]).toEqual([p[next(e)], p[e]]);
      }
    }
  });
});
