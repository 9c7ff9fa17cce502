import type { RasterGrid } from '@geoframe/core';
import { voronoiRasterGpu } from '@geoframe/gpu';
import { SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { bruteForceLabels } from './raster-reference.js';

/**
 * The 'exact' mode buckets the sites on the GPU and lists each near-tie's candidates there (up
 * to 8); the host re-decides from them in f64, and from its own buckets where a pixel has more.
 */
describe('exact raster Voronoi: near-tie candidates listed on the GPU', () => {
  const grid: RasterGrid = { width: 40, height: 40, depth: 1, bounds: [0, 0, 40, 40] };

  test('12 sites at one distance from a pixel centre (more candidates than listed), shuffled among others', async () => {
    const ctx = await requireGpu();
    // (±3, ±4), (±4, ±3), (0, ±5), (±5, 0) around the centre of pixel (20, 19): 12 sites at
    // exactly 5, in an order whose lowest index is not the first found
    const cx = 20.5;
    const cy = 20.5;
    const ring: [number, number][] = [];
    for (const [a, b] of [
      [3, 4],
      [4, 3],
    ])
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) ring.push([cx + sx * a, cy + sy * b]);
    ring.push([cx, cy + 5], [cx, cy - 5], [cx + 5, cy], [cx - 5, cy]);
    const rng = new SeededRandom(24);
    const others: [number, number][] = [];
    while (others.length < 30) {
      // none nearer than the ring to its centre
      const [x, y] = [40 * rng.next(), 40 * rng.next()];
      if (Math.hypot(x - cx, y - cy) > 6) others.push([x, y]);
    }
    const all = [...others.slice(0, 15), ...ring.reverse(), ...others.slice(15)];
    const sites = Float64Array.from(all.flat());
    const rows = Int32Array.from({ length: all.length }, (_, i) => 1000 + 3 * i);
    const result = await voronoiRasterGpu(ctx, sites, 2, grid, {
      mode: 'exact',
      labelOf: rows,
      distance: true,
    });
    const expected = bruteForceLabels(sites, 2, grid);
    for (let p = 0; p < expected.length; p++) {
      if (result.labels[p] !== rows[expected[p]]) {
        throw new Error(`pixel ${p}: ${result.labels[p]}, expected row ${rows[expected[p]]}`);
      }
    }
    // the centre pixel (col 20, row 19) is one of the ties, decided by the lowest index of the 12
    const centre = 19 * 40 + 20;
    expect(result.labels[centre]).toBe(rows[15]);
    expect(result.distance![centre]).toBe(5);
    expect(result.stats.nearTies).toBeGreaterThan(0);
    expect(result.stats.sitesUsed).toBe(all.length);
  });

  test('duplicates in f64 count once; −0 equals 0', async () => {
    const ctx = await requireGpu();
    const base = [0, 0, 10.25, 3, -0, 7, 30, 30.5, 0, 0, 10.25, 3, 0, 7, 17, 9, 30, 30.5];
    const sites = Float64Array.from(base);
    const result = await voronoiRasterGpu(ctx, sites, 2, grid, { mode: 'exact' });
    const expected = bruteForceLabels(sites, 2, grid);
    expect([...result.labels]).toEqual([...expected]);
    // (0, 0), (10.25, 3), (−0, 7) = (0, 7), (30, 30.5), (17, 9): five distinct
    expect(result.stats.sitesUsed).toBe(5);
  });
});
