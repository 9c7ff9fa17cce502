// Bundled for the page by demo-page.test.ts: the CPU Voronoi stages on Web Workers (the web
// build of @geoframe/cpu's #platform/threads) against the same stages on the page's thread.
import { availableThreads, voronoiCells, voronoiCellsParallel } from '@geoframe/cpu';

/** Seeded uniform sites (a small LCG: the page has no @geoframe/testing). */
function sites(n: number, seed: number): Float64Array {
  const xy = new Float64Array(2 * n);
  let s = seed >>> 0;
  for (let i = 0; i < xy.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    xy[i] = (s / 2 ** 32) * 1000;
  }
  return xy;
}

const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.prototype.every.call(a, (v: number, i: number) => Object.is(v, b[i]));

export async function compareThreads(n: number, seed: number) {
  const xy = sites(n, seed);
  const box = { minX: -1000, minY: -1000, maxX: 2000, maxY: 2000 };
  const one = voronoiCells(xy, box);
  const started = performance.now();
  const two = await voronoiCellsParallel(xy, box, { threads: 2, minSites: 0 });
  return {
    isolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
    threads: await availableThreads(),
    shared: two.coords.buffer instanceof SharedArrayBuffer,
    same: same(one.coords, two.coords) && same(one.ringOffsets, two.ringOffsets),
    cells: one.ringOffsets.length - 1,
    ms: performance.now() - started,
  };
}
