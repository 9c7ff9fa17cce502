// Progress inside the CPU engines: the Delaunay/Voronoi passes, delaunator's insertion loop and
// the worker ranges report the share of a run done. Counting must never change a result (bit
// for bit against the same call without a listener), and what is reported must be a sane
// progress: finite, in (0, 1], strictly increasing, reaching 1 where the run's last pass counts.
import { clipBox, uniqueSites } from '@geoframe/core';
import { adversarialKinds, adversarialSet, generatePoints, type PointSetKind } from '@geoframe/testing';
import Delaunator from 'delaunator';
import { describe, expect, it } from 'vitest';
import { countedDelaunator } from '../src/delaunay/counting-delaunator.js';
import {
  clipCellsToRegion,
  delaunay,
  prepareClipRegion,
  voronoiCells,
  voronoiCellsParallel,
  voronoiEdges,
} from '../src/index.js';
import { WorkMeter } from '../src/workers/work-meter.js';
import { multiPolygonColumn } from './clip-helpers.js';

/** The bytes of a typed array (compared at once: vitest's deep equality is slow on big arrays). */
function bytes(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Whether two typed arrays hold the same bits. */
function same(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return bytes(a).equals(bytes(b));
}

/** A listener recording every fraction. */
function recorder(): { fractions: number[]; onProgress: (f: number) => void } {
  const fractions: number[] = [];
  return { fractions, onProgress: (f) => fractions.push(f) };
}

function checkFractions(fractions: number[]): void {
  for (let k = 0; k < fractions.length; k++) {
    expect(Number.isFinite(fractions[k])).toBe(true);
    expect(fractions[k]).toBeGreaterThan(0);
    expect(fractions[k]).toBeLessThanOrEqual(1);
    if (k > 0) expect(fractions[k]).toBeGreaterThan(fractions[k - 1]);
  }
}

const KINDS: PointSetKind[] = [
  'uniform',
  'clusters',
  'lattice',
  'lattice-offset',
  'circle',
  'near-duplicates',
];

describe('counted delaunator', () => {
  it.each(KINDS)('%s: the triangulation of delaunator itself, with about two counts a site', (kind) => {
    const xy = uniqueSites(generatePoints(kind, 20_000, 13)).xy;
    const plain = new Delaunator(xy);
    const r = recorder();
    const meter = new WorkMeter(r.onProgress, [['delaunator', 1]]);
    meter.pass('delaunator');
    const counted = countedDelaunator(xy, meter);
    expect(same(counted.triangles, plain.triangles)).toBe(true);
    expect(same(counted.halfedges, plain.halfedges)).toBe(true);
    expect(same(counted.hull, plain.hull)).toBe(true);
    checkFractions(r.fractions);
    // reports as the new triangles' half-edges pass 1/256 of 6n: the loop is counted (a renamed `_legalize` fails here)
    // (at least n of them: a circle's sites all stay on the hull, n − 2 triangles)
    expect(r.fractions.length).toBeGreaterThanOrEqual(Math.floor(xy.length / 2 / 1024));
    expect(r.fractions.at(-1)).toBeGreaterThan(0.4);
    // a silent meter leaves delaunator alone
    expect(countedDelaunator(xy, WorkMeter.SILENT)).toBeInstanceOf(Delaunator);
  });
});

describe('a listener that throws (a cancel)', () => {
  it('stops delaunator and the parallel cells with its error; the next runs count afresh', async () => {
    const xy = uniqueSites(generatePoints('clusters', 20_000, 5)).xy;
    const cancelling = new WorkMeter(
      (f) => {
        if (f > 0.2) throw new Error('cancelled');
      },
      [['delaunator', 1]],
    );
    cancelling.pass('delaunator');
    expect(() => countedDelaunator(xy, cancelling)).toThrow('cancelled');
    const box = clipBox(xy);
    const options = { minSites: 1000, threads: 2 };
    // cancelled inside delaunator (0.5), then on this thread's range of the write pass (0.9)
    for (const at of [0.5, 0.9]) {
      const stop = (f: number) => {
        if (f > at) throw new Error('cancelled');
      };
      await expect(voronoiCellsParallel(xy, box, { ...options, onProgress: stop })).rejects.toThrow(
        'cancelled',
      );
    }
    const r = recorder();
    const meter = new WorkMeter(r.onProgress, [['delaunator', 1]]);
    meter.pass('delaunator');
    expect(same(countedDelaunator(xy, meter).triangles, new Delaunator(xy).triangles)).toBe(true);
    checkFractions(r.fractions);
    expect(r.fractions.length).toBeGreaterThan(10);
    const again = await voronoiCellsParallel(xy, box, options);
    expect(same(again.coords, (await voronoiCellsParallel(xy, box, { ...options, threads: 1 })).coords)).toBe(
      true,
    );
  });
});

describe('engines with a listener give the silent result', () => {
  it.each(KINDS)('%s: Voronoi cells, parallel and on one thread', async (kind) => {
    const xy = uniqueSites(generatePoints(kind, 10_000, 21)).xy;
    const box = clipBox(xy);
    for (const threads of [1, 2]) {
      const silent = await voronoiCellsParallel(xy, box, { minSites: 1000, threads });
      const r = recorder();
      const heard = await voronoiCellsParallel(xy, box, {
        minSites: 1000,
        threads,
        onProgress: r.onProgress,
      });
      expect(same(heard.ringOffsets, silent.ringOffsets)).toBe(true);
      expect(same(heard.coords, silent.coords)).toBe(true);
      checkFractions(r.fractions);
      expect(r.fractions.at(-1)).toBe(1); // the write pass counts to its end
      // passes, delaunator's loop and ranges: many distinct values before the end
      expect(r.fractions.filter((f) => f < 0.99).length).toBeGreaterThan(20);
    }
  });

  it.each(KINDS)('%s: Voronoi edges, Delaunay and the clip to a region', (kind) => {
    const xy = uniqueSites(generatePoints(kind, 2_000, 34)).xy;
    const box = clipBox(xy);
    let r = recorder();
    const edges = voronoiEdges(xy, box, r.onProgress);
    expect(same(edges.coords, voronoiEdges(xy, box).coords)).toBe(true);
    checkFractions(r.fractions);
    expect(r.fractions.at(-1)).toBe(1);
    r = recorder();
    const tri = delaunay(xy, r.onProgress);
    expect(same(tri.triangles, delaunay(xy).triangles)).toBe(true);
    checkFractions(r.fractions);
    expect(r.fractions.length).toBeGreaterThan(3);

    // the cells clipped to a diamond inside the box
    const cells = voronoiCells(xy, box);
    const cx = (box.minX + box.maxX) / 2;
    const cy = (box.minY + box.maxY) / 2;
    const rx = (box.maxX - box.minX) / 3;
    const ry = (box.maxY - box.minY) / 3;
    const ring: [number, number][] = [
      [cx, cy - ry],
      [cx + rx, cy],
      [cx, cy + ry],
      [cx - rx, cy],
    ];
    const diamond = prepareClipRegion(multiPolygonColumn([[[ring]]]));
    r = recorder();
    const clipped = clipCellsToRegion(cells, diamond, undefined, r.onProgress);
    const silent = clipCellsToRegion(cells, diamond);
    expect(same(clipped.coords, silent.coords)).toBe(true);
    expect(same(clipped.geometryOffsets, silent.geometryOffsets)).toBe(true);
    checkFractions(r.fractions);
    expect(r.fractions.length).toBeGreaterThanOrEqual(5); // every 256 cells (2000 here)
  });

  it('adversarial sets (magnitudes, offsets, collinear, 0–3 sites): same output, sane fractions', async () => {
    for (const kind of adversarialKinds) {
      for (const seed of [1, 2]) {
        const { xy: raw, params } = adversarialSet(kind, 3000, seed);
        const xy = uniqueSites(raw).xy;
        if (xy.length < 4) {
          const r = recorder();
          expect(delaunay(xy, r.onProgress).triangles.length, params).toBe(0);
          checkFractions(r.fractions);
          continue;
        }
        const box = clipBox(xy);
        const r = recorder();
        // the same outcome: the same cells, or the same error (an integer circle at 1e6 with
        // 2956 sites fails to triangulate, listener or not)
        const outcome = (run: () => { coords: Float64Array } | Promise<{ coords: Float64Array }>) =>
          Promise.resolve()
            .then(run)
            .then(
              (cells) => bytes(cells.coords).toString('base64'),
              (error: Error) => error.message,
            );
        const options = { minSites: 100, threads: 2 };
        const heard = await outcome(() =>
          voronoiCellsParallel(xy, box, { ...options, onProgress: r.onProgress }),
        );
        expect(heard, params).toEqual(await outcome(() => voronoiCellsParallel(xy, box, options)));
        checkFractions(r.fractions);
        const e = recorder();
        const edges = await outcome(() => voronoiEdges(xy, box, e.onProgress));
        expect(edges, params).toEqual(await outcome(() => voronoiEdges(xy, box)));
        checkFractions(e.fractions);
      }
    }
  });
});
