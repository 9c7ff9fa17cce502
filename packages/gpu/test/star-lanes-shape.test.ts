import { describe, expect, test } from 'vitest';
import { laneCandidates, laneRings, laneShape, STAR_LANES } from '../src/delaunay/star-lanes-shape.js';

describe('first pass by lanes: its block and workgroup shape', () => {
  test('rings: the fewest whose block holds about 45 sites, 1 to 8', () => {
    for (const density of [1e-6, 0.1, 0.5, 0.63, 1, 1.27, 2, 4, 16, 100]) {
      const r = laneRings(density);
      expect(r).toBeGreaterThanOrEqual(1);
      expect(r).toBeLessThanOrEqual(8);
      const holds = (rings: number) => (2 * rings + 1) ** 2 * density;
      if (r < 8) expect(holds(r)).toBeGreaterThanOrEqual(45);
      if (r > 1) expect(holds(r - 1)).toBeLessThan(45);
    }
  });

  test('candidates: about twice the block, a multiple of the lanes, 64 to 1024', () => {
    for (const [rings, density] of [
      [1, 1],
      [3, 1.27],
      [4, 0.63],
      [8, 50],
    ]) {
      const k = laneCandidates(rings, density);
      expect(k % STAR_LANES).toBe(0);
      expect(k).toBeGreaterThanOrEqual(Math.min(1024, Math.max(64, 2 * (2 * rings + 1) ** 2 * density)));
      expect(k).toBeLessThanOrEqual(1024);
    }
  });

  test('shape: as many stars and candidates as fit the workgroup memory, never over it', () => {
    const bytes = (slots: number, k: number, rows: number) => slots * (24 * k + 8 * rows + 48) + 256;
    for (const limit of [16384, 32768, 49152]) {
      for (const k of [64, 128, 512, 1024]) {
        const shape = laneShape(2, k, 7, limit);
        expect(shape.candidates % STAR_LANES).toBe(0);
        expect(shape.candidates).toBeLessThanOrEqual(k);
        expect(bytes(shape.slots, shape.candidates, 7)).toBeLessThanOrEqual(limit);
        // maximal: one more star, or (alone) one more run of lanes' candidates, would not fit
        if (shape.slots < 2) expect(bytes(shape.slots + 1, shape.candidates, 7)).toBeGreaterThan(limit);
        if (shape.candidates < k) expect(bytes(1, shape.candidates + STAR_LANES, 7)).toBeGreaterThan(limit);
      }
    }
    expect(laneShape(2, 128, 7, 32768)).toEqual({ slots: 2, candidates: 128 });
  });
});
