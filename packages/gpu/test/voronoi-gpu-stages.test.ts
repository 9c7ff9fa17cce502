import { clipBox, uniqueSites } from '@geoframe/core';
import { triangulate } from '@geoframe/cpu';
import { generatePoints, pointSets, SeededRandom } from '@geoframe/testing';
import { describe, expect } from 'vitest';
import { fixedGrid } from '../src/exact/index.js';
import { gridOfBounds, toGridGpu } from '../src/exact/to-grid-kernel.js';
import { twinsGpu } from '../src/mesh/halfedge-kernels.js';
import { hilbertBounds } from '../src/primitives/hilbert/hilbert-grid.js';
import { gpuTest, requireGpu } from './gpu-test-context.js';

describe('GPU Voronoi stages', () => {
  gpuTest('to-grid converts f64 sites on the device bit for bit as fixedGrid does on the host', async () => {
    const ctx = await requireGpu();
    const rng = new SeededRandom(17);
    // ties at half a unit, negatives, tiny values next to huge ones, zeros and subnormals
    const awkward = new Float64Array(4000);
    for (let i = 0; i < awkward.length; i++) {
      const kind = i % 5;
      const sign = rng.next() < 0.5 ? -1 : 1;
      if (kind === 0) awkward[i] = sign * rng.next() * 1e6;
      else if (kind === 1) awkward[i] = sign * (Math.floor(rng.next() * 1e6) + 0.5) * 2 ** -40;
      else if (kind === 2) awkward[i] = sign * rng.next() * 1e-9;
      else if (kind === 3) awkward[i] = sign * 2 ** (-1074 + Math.floor(rng.next() * 60));
      else awkward[i] = 0;
    }
    const sets = [...pointSets(200, 3).map((s) => s.xy), awkward, generatePoints('lattice-offset', 900, 2)];
    for (const xy of sets) {
      if (xy.length === 0) continue;
      const box = clipBox(xy, null);
      const host = fixedGrid(xy, box);
      const bounds = gridOfBounds(xy, box);
      expect(bounds.exponent).toBe(host.exponent);
      expect(bounds.box).toEqual(host.box);
      // the same grid from the sites' bounding box instead of a scan of them
      const [minX, minY, maxX, maxY] = hilbertBounds(xy);
      expect(gridOfBounds(xy, box, { minX, minY, maxX, maxY })).toEqual(bounds);
      expect(await toGridGpu(ctx, xy, bounds)).toEqual(host.sites);
    }
  });

  gpuTest('twins rebuilt from the triangles alone equal the triangulation’s half-edges', async () => {
    const ctx = await requireGpu();
    for (const { name, xy } of [
      ...pointSets(300, 8),
      { name: 'uniform-20000', xy: generatePoints('uniform', 20_000, 5) },
    ]) {
      const sites = uniqueSites(xy).xy;
      const tri = triangulate(sites);
      if (tri === null) continue;
      expect(await twinsGpu(ctx, tri.triangles, sites.length >> 1), name).toEqual(tri.halfedges);
    }
  });
});
