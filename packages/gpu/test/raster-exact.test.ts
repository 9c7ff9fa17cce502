import type { RasterGrid } from '@geoframe/core';
import { voronoiRasterGpu } from '@geoframe/gpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { bruteForceLabels, pixelSiteDistance } from './raster-reference.js';

function uniform(n: number, dims: 2 | 3, lo: number, hi: number, seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  return Float64Array.from({ length: n * dims }, () => lo + (hi - lo) * rng.next());
}

/** Indices where two label arrays differ (at most `limit`). */
function mismatches(a: Int32Array, b: Int32Array, limit = 5): number[] {
  const out: number[] = [];
  for (let p = 0; p < a.length && out.length < limit; p++) if (a[p] !== b[p]) out.push(p);
  return out;
}

async function expectExact(sites: Float64Array, dims: 2 | 3, grid: RasterGrid) {
  const ctx = await requireGpu();
  const result = await voronoiRasterGpu(ctx, sites, dims, grid, { mode: 'exact', distance: true });
  const expected = bruteForceLabels(sites, dims, grid);
  expect(mismatches(result.labels, expected)).toEqual([]);
  // distance: f32 of the f64 distance to the labelled site, up to f32 rounding of the kernel
  for (let p = 0; p < expected.length; p += 7) {
    if (expected[p] < 0) continue;
    const d = pixelSiteDistance(sites, dims, grid, p, expected[p]);
    expect(Math.abs(result.distance![p] - d)).toBeLessThanOrEqual(
      1e-5 * (d + grid.bounds[dims] - grid.bounds[0]),
    );
  }
  return result;
}

describe('exact raster Voronoi equals an f64 brute force on every pixel', () => {
  test('2D uniform, 300 sites, 128²', async () => {
    await expectExact(uniform(300, 2, 0, 100, 1), 2, {
      width: 128,
      height: 128,
      depth: 1,
      bounds: [0, 0, 100, 100],
    });
  });
  test('2D clustered, 500 sites, non-square 160×96 grid over non-square bounds', async () => {
    const sites = generatePoints('clusters', 500, 3);
    const { result } = {
      result: await expectExact(sites, 2, { width: 160, height: 96, depth: 1, bounds: [0, 0, 1000, 700] }),
    };
    expect(result.stats.mode).toBe('exact');
  });
  test('2D lattice with exact ties on pixel centres: ties to the lower index, re-decided in f64', async () => {
    // sites at 8k + 0.5, pixel centres at c + 0.5: the bisectors run through pixel centres
    const sites: number[] = [];
    for (let y = 0.5; y <= 64; y += 8) for (let x = 0.5; x <= 64; x += 8) sites.push(x, y);
    const result = await expectExact(Float64Array.from(sites), 2, {
      width: 64,
      height: 64,
      depth: 1,
      bounds: [0, 0, 64, 64],
    });
    expect(result.stats.nearTies).toBeGreaterThan(0);
  });
  test('2D bounds cutting sites off, sites far outside, 1e7 offsets', async () => {
    const sites = uniform(200, 2, 1e7, 1e7 + 300, 5);
    sites.set([1e7 - 5000, 1e7 + 50, 1e7 + 9000, 1e7 + 9000], 0);
    await expectExact(sites, 2, {
      width: 96,
      height: 80,
      depth: 1,
      bounds: [1e7 + 100, 1e7 + 100, 1e7 + 200, 1e7 + 190],
    });
  });
  test('2D: one site, duplicates, near-duplicates, zero sites', async () => {
    const grid = { width: 64, height: 64, depth: 1, bounds: [0, 0, 10, 10] };
    await expectExact(Float64Array.of(3, 4), 2, grid);
    await expectExact(
      generatePoints('duplicates', 40, 2).map((v) => v / 100),
      2,
      grid,
    );
    await expectExact(
      generatePoints('near-duplicates', 40, 2).map((v) => v / 100),
      2,
      grid,
    );
    const ctx = await requireGpu();
    const none = await voronoiRasterGpu(ctx, new Float64Array(0), 2, grid, { mode: 'exact' });
    expect(none.labels.every((l) => l === -1)).toBe(true);
  });
  test('3D uniform, 150 sites, 32×24×20 voxels', async () => {
    await expectExact(uniform(150, 3, 0, 10, 7), 3, {
      width: 32,
      height: 24,
      depth: 20,
      bounds: [0, 0, 0, 10, 10, 10],
    });
  });
  test('3D lattice with ties, 32³', async () => {
    const sites: number[] = [];
    for (let z = 0.5; z <= 32; z += 8)
      for (let y = 0.5; y <= 32; y += 8) for (let x = 0.5; x <= 32; x += 8) sites.push(x, y, z);
    const result = await expectExact(Float64Array.from(sites), 3, {
      width: 32,
      height: 32,
      depth: 32,
      bounds: [0, 0, 0, 32, 32, 32],
    });
    expect(result.stats.nearTies).toBeGreaterThan(0);
  });
});
