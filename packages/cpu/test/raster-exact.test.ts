import type { RasterGrid } from '@geoframe/core';
import { bruteForceRaster, voronoiRasterCpu } from '@geoframe/cpu';
import { generatePoints } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { SiteBuckets } from '../src/raster/site-buckets.js';
import { differing, xyz } from './raster-helpers.js';

const grid2 = (width: number, height: number, bounds: number[]): RasterGrid => ({
  width,
  height,
  depth: 1,
  bounds,
});

describe("voronoiRasterCpu 'exact' equals the f64 brute force on every pixel", () => {
  const cases: [string, Float64Array, RasterGrid][] = [
    ['uniform, non-square grid', generatePoints('uniform', 300, 3), grid2(97, 61, [0, 0, 1000, 1000])],
    ['clusters', generatePoints('clusters', 400, 5), grid2(80, 120, [0, 0, 1000, 1000])],
    [
      'lattice on pixel centres (4-way ties)',
      generatePoints('lattice', 100, 1),
      grid2(11, 11, [-1, -1, 10, 10]),
    ],
    [
      'lattice at 1e7 offset',
      generatePoints('lattice-offset', 64, 1),
      grid2(33, 17, [1e7 - 1, 1e7 - 1, 1e7 + 9, 1e7 + 9]),
    ],
    ['bounds cutting sites off', generatePoints('uniform', 200, 9), grid2(64, 40, [300, 200, 600, 500])],
    [
      'bounds far outside the sites',
      generatePoints('uniform', 50, 2),
      grid2(40, 30, [-5000, -3000, -1000, 4000]),
    ],
    ['duplicates', generatePoints('duplicates', 120, 4), grid2(50, 50, [0, 0, 1000, 1000])],
    ['near-duplicates', generatePoints('near-duplicates', 60, 4), grid2(45, 45, [0, 0, 1000, 1000])],
    ['collinear', generatePoints('collinear', 40, 4), grid2(30, 50, [0, 0, 1000, 2001])],
    ['one site', new Float64Array([3, 4]), grid2(7, 5, [0, 0, 10, 10])],
    ['two sites', new Float64Array([0, 0, 2, 1]), grid2(16, 9, [-1, -1, 3, 2])],
  ];
  for (const [name, sites, grid] of cases) {
    it(name, () => {
      const { labels } = voronoiRasterCpu(sites, 2, grid, { mode: 'exact' });
      const reference = bruteForceRaster(sites, 2, grid);
      expect(labels.length).toBe(grid.width * grid.height);
      expect(differing(labels, reference)).toBe(0);
      expect(labels.every((l) => l >= 0)).toBe(true);
    });
  }

  it('3D: uniform, clustered and lattice sites on a non-cubic grid', () => {
    const sets: [Float64Array, RasterGrid][] = [
      [
        xyz(generatePoints('uniform', 150, 11), generatePoints('uniform', 150, 12)),
        { width: 21, height: 13, depth: 17, bounds: [0, 0, 0, 1000, 1000, 1000] },
      ],
      [
        xyz(generatePoints('clusters', 200, 13), generatePoints('clusters', 200, 14)),
        { width: 16, height: 24, depth: 9, bounds: [0, 0, 0, 1000, 1000, 1000] },
      ],
    ];
    // a 4×4×4 lattice with voxel centres on every bisector plane: 8-way ties
    const lattice = new Float64Array(3 * 64);
    for (let i = 0; i < 64; i++) lattice.set([i % 4, (i >> 2) % 4, i >> 4], 3 * i);
    sets.push([lattice, { width: 5, height: 5, depth: 5, bounds: [-1, -1, -1, 4, 4, 4] }]);
    for (const [sites, grid] of sets) {
      const { labels } = voronoiRasterCpu(sites, 3, grid, { mode: 'exact' });
      expect(differing(labels, bruteForceRaster(sites, 3, grid))).toBe(0);
    }
  });

  it('ties go to the lower index (lattice with centres equidistant from four sites)', () => {
    // sites (x, y) = (i mod 10, ⌊i/10⌋); the centre of pixel (col, row) is (col − 0.5, 9.5 − row)
    const sites = generatePoints('lattice', 100, 1);
    const { labels } = voronoiRasterCpu(sites, 2, grid2(11, 11, [-1, -1, 10, 10]), { mode: 'exact' });
    for (let row = 0; row < 11; row++) {
      for (let col = 0; col < 11; col++) {
        const x = Math.min(9, Math.max(0, col - 1)); // lower x of the tied pair, clamped to the lattice
        const y = Math.min(9, Math.max(0, 9 - row)); // lower y
        expect(labels[row * 11 + col]).toBe(y * 10 + x);
      }
    }
  });

  it('no sites: every pixel −1; non-finite sites are ignored', () => {
    const g = grid2(4, 3, [0, 0, 1, 1]);
    expect(voronoiRasterCpu(new Float64Array(0), 2, g, { mode: 'exact' }).labels.every((l) => l === -1)).toBe(
      true,
    );
    const sites = new Float64Array([Number.NaN, 0, 0.2, 0.2, Infinity, 1]);
    const { labels } = voronoiRasterCpu(sites, 2, g, { mode: 'exact' });
    expect(labels.every((l) => l === 1)).toBe(true);
    expect(differing(labels, bruteForceRaster(sites, 2, g))).toBe(0);
  });

  it('distance is the Euclidean distance to the labelled site in coordinate units', () => {
    const sites = generatePoints('uniform', 30, 21);
    const g = grid2(20, 10, [0, 0, 1000, 500]);
    const { labels, distance } = voronoiRasterCpu(sites, 2, g, { mode: 'exact', distance: true });
    for (let p = 0; p < labels.length; p += 7) {
      const col = p % 20;
      const row = Math.floor(p / 20);
      const expected = Math.hypot(
        25 + 50 * col - sites[2 * labels[p]],
        475 - 50 * row - sites[2 * labels[p] + 1],
      );
      expect(distance![p]).toBeCloseTo(expected, 2);
    }
  });

  it('SiteBuckets.nearest agrees with a linear scan at random query points, inside and outside the box', () => {
    const sites = generatePoints('clusters', 500, 31);
    const buckets = new SiteBuckets(sites, 2);
    const queries = generatePoints('uniform', 2000, 32);
    for (let q = 0; q < 2000; q++) {
      const x = queries[2 * q] * 3 - 1000;
      const y = queries[2 * q + 1] * 3 - 1000;
      let best = -1;
      let bestDist = Infinity;
      for (let i = 0; i < 500; i++) {
        const d = (x - sites[2 * i]) ** 2 + (y - sites[2 * i + 1]) ** 2;
        if (d < bestDist) {
          bestDist = d;
          best = i;
        }
      }
      expect(buckets.nearest(x, y, 0)).toBe(best);
    }
  });
});

describe('voronoiRasterCpu input checks', () => {
  const sites = new Float64Array([1, 1]);
  it.each([
    [{ width: 0, height: 4, depth: 1, bounds: [0, 0, 1, 1] }, /width must be a positive integer/],
    [{ width: 2.5, height: 4, depth: 1, bounds: [0, 0, 1, 1] }, /width must be a positive integer/],
    [{ width: 2, height: 4, depth: 2, bounds: [0, 0, 1, 1] }, /2D raster has depth 1/],
    [{ width: 2, height: 4, depth: 1, bounds: [0, 0, 0, 1] }, /max > min/],
    [{ width: 2, height: 4, depth: 1, bounds: [0, 0, Number.NaN, 1] }, /finite/],
    [{ width: 2, height: 4, depth: 1, bounds: [0, 0, 1] }, /needs 4 bounds/],
  ])('%j', (grid, message) => {
    expect(() => voronoiRasterCpu(sites, 2, grid, { mode: 'exact' })).toThrow(message);
  });
  it('unknown mode', () => {
    const grid = { width: 2, height: 2, depth: 1, bounds: [0, 0, 1, 1] };
    expect(() => voronoiRasterCpu(sites, 2, grid, { mode: 'fast' as 'jfa' })).toThrow(/raster mode/);
  });
});
