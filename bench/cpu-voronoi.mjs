// CPU Voronoi benchmark: our clipped cells (and their stages) against delaunator alone.
// Run after building: `npx tsc -b && node bench/cpu-voronoi.mjs [sizes…]` (default 100000 1000000).
// The workspace packages are not linked at the root, so import the built files by path.
import { clipBox, generatePoints } from '../packages/core/dist/index.js';
import { triangulate, voronoiCells, voronoiEdges } from '../packages/cpu-fallback/dist/index.js';
import Delaunator from '../packages/cpu-fallback/node_modules/delaunator/index.js';

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100_000, 1_000_000];
const RUNS = 5;

function median(run) {
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[RUNS >> 1];
}

const rows = [];
for (const n of sizes) {
  const xy = generatePoints('uniform', n, 42);
  const box = clipBox(xy);
  median(() => voronoiCells(xy, box)); // warm up
  let flips = 0;
  const delaunatorMs = median(() => new Delaunator(xy));
  const triangulateMs = median(() => {
    flips = triangulate(xy).flips;
  });
  const cellsMs = median(() => voronoiCells(xy, box));
  const edgesMs = median(() => voronoiEdges(xy, box));
  rows.push({
    sites: n,
    'delaunator ms': delaunatorMs.toFixed(1),
    'triangulate (frame + delaunator + exact repair) ms': triangulateMs.toFixed(1),
    'voronoiCells ms': cellsMs.toFixed(1),
    'voronoiEdges ms': edgesMs.toFixed(1),
    'cells / delaunator': (cellsMs / delaunatorMs).toFixed(2),
    flips,
  });
}
console.log(`median of ${RUNS} runs, node ${process.version}`);
console.table(rows);
