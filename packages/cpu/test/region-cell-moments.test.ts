// Uniform moments of (convex cell ∩ region) by Sutherland–Hodgman (RegionCellMoments) against the
// moments of the cells clipped by clipCellsToRegion (polyclip-ts where they cross), on regions with
// holes, islands, spikes and a huge offset; and the interior buckets' promise (an unmarked bucket
// lies wholly inside the region).
import { clipCellsToRegion, prepareClipRegion, regionContains, voronoiCells } from '@geoframe/cpu';
import { generatePoints, SeededRandom } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { addUniformMoments, cellMoments } from '../src/cvt/cell-moments.js';
import { interiorBuckets } from '../src/cvt/interior-buckets.js';
import { RegionCellMoments } from '../src/cvt/region-cell-moments.js';
import { multiPolygonColumn, type Poly } from './clip-helpers.js';

/** A star of `k` spikes around (cx, cy), radii r0..r1, with optional holes and an island. */
function star(random: SeededRandom, k: number, cx: number, cy: number, r0: number, r1: number): Poly {
  const ring: [number, number][] = [];
  for (let i = 0; i < k; i++) {
    const t = (2 * Math.PI * i) / k;
    const r = r0 + (r1 - r0) * random.next();
    ring.push([cx + r * Math.cos(t), cy + r * Math.sin(t)]);
  }
  return [ring];
}

function square(x0: number, y0: number, s: number, clockwise = false): [number, number][] {
  const r: [number, number][] = [
    [x0, y0],
    [x0 + s, y0],
    [x0 + s, y0 + s],
    [x0, y0 + s],
  ];
  return clockwise ? r.reverse() : r;
}

describe('RegionCellMoments', () => {
  const random = new SeededRandom(77);
  const cases: { name: string; region: Poly[]; offset: number }[] = [
    { name: 'star', region: [star(random, 40, 0.5, 0.5, 0.2, 0.5)], offset: 0 },
    {
      name: 'star with two holes and an island',
      region: [
        [
          ...star(random, 30, 0.5, 0.5, 0.35, 0.5),
          square(0.3, 0.3, 0.1, true),
          square(0.55, 0.55, 0.02, true),
        ],
        [square(0.4, 0.4, 0.05)],
      ],
      offset: 0,
    },
    {
      name: 'touching squares (lattice edges)',
      region: [[square(0, 0, 0.5)], [square(0.5, 0.5, 0.5)]],
      offset: 0,
    },
    { name: 'star at a 1e7 offset', region: [star(random, 24, 0.5, 0.5, 0.25, 0.5)], offset: 1e7 },
  ];
  for (const { name, region, offset } of cases) {
    test(`${name}: the moments of the polyclip-clipped cells, to 1e-9 of a cell's scale (plus ulps of the offset), whole rings and tiled`, () => {
      const shifted = region.map((p) =>
        p.map((r) => r.map(([x, y]) => [x + offset, y + offset] as [number, number])),
      );
      const clip = prepareClipRegion(multiPolygonColumn([shifted]));
      for (const kind of ['uniform', 'lattice', 'clusters'] as const) {
        const xy = generatePoints(kind, 250, 5).map((v) => offset + v / 1000);
        const unique = new Map<string, number>();
        const sites: number[] = [];
        for (let i = 0; i < xy.length; i += 2) {
          const key = `${xy[i]},${xy[i + 1]}`;
          if (unique.has(key)) continue;
          unique.set(key, i);
          sites.push(xy[i], xy[i + 1]);
        }
        const s = Float64Array.from(sites);
        const n = s.length >> 1;
        const box = { minX: offset - 0.1, minY: offset - 0.1, maxX: offset + 1.1, maxY: offset + 1.1 };
        const cells = voronoiCells(s, box);
        const cell = 1 / Math.sqrt(n);
        // whole rings, then tiles of 8 and of 2.5 cells' widths (many cells straddle a tile's side)
        const runs = [undefined, 8 * cell, 2.5 * cell].map((side) => {
          const got = cellMoments(n);
          const moments = new RegionCellMoments(clip, side);
          for (let i = 0; i < n; i++)
            moments.add(cells.coords, cells.ringOffsets, i, s[2 * i], s[2 * i + 1], got, i);
          if (side !== undefined && kind === 'uniform') expect(moments.tiledCells).toBeGreaterThan(0);
          return got;
        });
        const parts = clipCellsToRegion(cells, clip);
        const want = cellMoments(n);
        const span = { coords: parts.coords, ringOffsets: parts.ringOffsets, first: 0, last: 0 };
        for (let i = 0; i < n; i++) {
          span.first = parts.polygonOffsets[parts.geometryOffsets[i]];
          span.last = parts.polygonOffsets[parts.geometryOffsets[i + 1]];
          addUniformMoments(span, s[2 * i], s[2 * i + 1], 1, want, i);
        }
        // new points are rounded intersections: errors of an ulp of the coordinates (1e7 offset)
        const ulps = (offset + 1) * 2 ** -45;
        const tol = (p: number) => 1e-9 * cell ** p + ulps * cell ** (p - 1);
        for (const [run, got] of runs.entries())
          for (let i = 0; i < n; i++) {
            const what = `${name}, ${kind}, run ${run}, cell ${i}`;
            expect(Math.abs(got.mass[i] - want.mass[i]), what).toBeLessThanOrEqual(tol(2));
            expect(Math.abs(got.sx[i] - want.sx[i]), what).toBeLessThanOrEqual(tol(3));
            expect(Math.abs(got.sy[i] - want.sy[i]), what).toBeLessThanOrEqual(tol(3));
            expect(Math.abs(got.energy[i] - want.energy[i]), what).toBeLessThanOrEqual(tol(4));
          }
      }
    });
  }

  test('interior buckets: every unmarked bucket lies in the region, and most inner ones are unmarked', () => {
    const clip = prepareClipRegion(
      multiPolygonColumn([[[...star(random, 30, 0.5, 0.5, 0.3, 0.5), square(0.45, 0.45, 0.1, true)]]]),
    );
    const g = interiorBuckets(clip, 64);
    const W = g.nx + 1;
    let free = 0;
    for (let iy = 0; iy < g.ny; iy++) {
      for (let ix = 0; ix < g.nx; ix++) {
        const count =
          g.blocked[(iy + 1) * W + ix + 1] -
          g.blocked[iy * W + ix + 1] -
          g.blocked[(iy + 1) * W + ix] +
          g.blocked[iy * W + ix];
        if (count !== 0) continue;
        free++;
        // 5 × 5 points over the closed bucket, corners included
        for (let a = 0; a <= 4; a++)
          for (let b = 0; b <= 4; b++) {
            const x = g.minX + (ix + a / 4) * g.size;
            const y = g.minY + (iy + b / 4) * g.size;
            expect(regionContains(clip, x, y), `bucket ${ix}, ${iy}`).toBe(true);
          }
      }
    }
    expect(free).toBeGreaterThan(0.3 * g.nx * g.ny);
  });
});
