// The host passes of `voronoiPolygons` around its engine, timed alone on this machine's CPU
// (issue 24: the time a GPU call spends outside the pipeline): the sites (extracted, duplicates
// removed), the repeated points and the output check, each on one thread (as before) and on the
// worker threads, on the rings of the CPU engine's output for the same sites, put on shared
// memory as the GPU's output array is. bench/gpu/walltime.ts times the same passes on the GPU
// host, inside the public call and alone.
//
//   npx tsc -b && node --max-old-space-size=8000 bench/voronoi-host-passes.mjs [sites] [runs]
// Default 1000000 sites, 5 runs; prints the minimum and the median of each pass (a shared
// machine: the minimum is the cost, the median the noise). GEOFRAME_THREADS sets the threads.
import {
  clipBox,
  extractSites,
  GeometryArray,
  GeometryType,
  uniqueSites,
} from '../packages/core/dist/index.js';
import { availableThreads, uniqueSitesParallel, voronoiCellsParallel } from '../packages/cpu/dist/index.js';
import {
  checkRings,
  checkRingsParallel,
  withoutRepeatedPoints,
  withoutRepeatedPointsParallel,
} from '../packages/geo/dist/voronoi/output-check.js';
import { generatePoints } from '../packages/testing/dist/index.js';

const n = Number(process.argv[2] ?? 1e6);
const runs = Number(process.argv[3] ?? 5);
const xy = generatePoints('uniform', n, 42);
const column = new GeometryArray({
  type: GeometryType.Point,
  dimension: 'xy',
  coords: xy,
  offsets: [],
  length: n,
});
const sites = uniqueSites(xy).xy;
const cells = await voronoiCellsParallel(sites, clipBox(sites, null));
const coords = new Float64Array(new SharedArrayBuffer(cells.coords.byteLength));
coords.set(cells.coords);
const rings = { coords, ringOffsets: cells.ringOffsets };
const what = (r) => `ring ${r}`;

async function time(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return `${times[0].toFixed(1)} | ${times[times.length >> 1].toFixed(1)}`;
}

const threads = await availableThreads();
console.log(
  `${n} sites, ${coords.length / 2} ring points (${(coords.byteLength / 2 ** 20).toFixed(1)} MiB), ${threads} threads\n`,
);
console.log('| pass | min ms | median ms |\n|---|---|---|');
for (const [pass, fn] of [
  ['extractSites (point column)', () => extractSites(column)],
  [
    'sites to shared memory, fresh copy (before)',
    () => new Float64Array(new SharedArrayBuffer(16 * n)).set(xy),
  ],
  ['uniqueSitesParallel', () => uniqueSitesParallel(xy)],
  ['repeated points, one thread (before)', () => withoutRepeatedPoints(rings)],
  [
    'repeated points and output check in one pass, workers (the GPU path)',
    () => withoutRepeatedPointsParallel(rings),
  ],
  ['output check, one thread (before)', () => checkRings(rings.coords, rings.ringOffsets, what)],
  [
    'output check alone, workers (the CPU path)',
    () => checkRingsParallel(rings.coords, rings.ringOffsets, what),
  ],
]) {
  console.log(`| ${pass} | ${await time(fn)} |`);
}
process.exit(0);
