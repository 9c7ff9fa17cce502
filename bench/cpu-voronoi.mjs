// CPU Voronoi benchmark: our clipped cells and edges against delaunator alone and against
// d3-delaunay's Voronoi (`Delaunay.from(points)` + `voronoi(bounds)` + iterating `cellPolygons()`),
// all on the same seeded uniform sites in [0, 1e6]². "cells parallel" is voronoiCellsParallel
// (the verification's float filter, the circumcentres and the ring write pass split over
// min(cores, 8) threads; worker start-up falls in the warm-up run).
//
// Run after building (the workspace packages are not linked at the root, so the built files are
// imported by path):
//   npx tsc -b && node --expose-gc --max-old-space-size=12000 bench/cpu-voronoi.mjs [sizes…]
// Default sizes: 100000 1000000. RUNS=<n> sets the number of timed runs (default 5, after one
// warm-up run of each method). Prints a markdown table.
//
// Peak memory: every (size, method) pair runs once more in a fresh child process that generates
// the sites, collects garbage, notes its RSS, runs the method and reports the growth of its peak
// RSS (`process.resourceUsage().maxRSS`) over that baseline — the memory the method needed,
// its output included.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Delaunay } from 'd3-delaunay';
import { clipBox } from '../packages/core/dist/index.js';
import { triangulate, voronoiCells, voronoiCellsParallel, voronoiEdges } from '../packages/cpu/dist/index.js';
import Delaunator from '../packages/cpu/node_modules/delaunator/index.js';
import { generatePoints } from '../packages/testing/dist/index.js';

const RUNS = Number(process.env.RUNS ?? 5);
const gc = globalThis.gc ?? (() => {});

/** The seeded sites: uniform in [0, 1e6]² (generatePoints is uniform in [0, 1000]²). */
function sites(n) {
  const xy = generatePoints('uniform', n, 42);
  for (let k = 0; k < xy.length; k++) xy[k] *= 1000;
  return xy;
}

/** d3-delaunay's input: an array of [x, y] pairs (built outside the timed region). */
function pointPairs(xy) {
  const points = new Array(xy.length >> 1);
  for (let i = 0; i < points.length; i++) points[i] = [xy[2 * i], xy[2 * i + 1]];
  return points;
}

/** The methods, each returning something that depends on the whole result (kept alive). */
function methods(xy) {
  const box = clipBox(xy);
  const bounds = [box.minX, box.minY, box.maxX, box.maxY];
  let points = null;
  return {
    cells: () => voronoiCells(xy, box).coords.length,
    cellsParallel: async () => (await voronoiCellsParallel(xy, box)).coords.length,
    edges: () => voronoiEdges(xy, box).coords.length,
    triangulate: () => triangulate(xy).triangles.length,
    delaunator: () => new Delaunator(xy).triangles.length,
    d3: () => {
      points ??= pointPairs(xy);
      const voronoi = Delaunay.from(points).voronoi(bounds);
      let vertices = 0;
      for (const cell of voronoi.cellPolygons()) vertices += cell.length;
      return vertices;
    },
    d3Prepare: () => {
      points ??= pointPairs(xy);
    },
  };
}

async function median(run) {
  gc();
  await run(); // warm-up (also starts the worker threads of cellsParallel)
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    gc();
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[RUNS >> 1];
}

/** Peak RSS growth (MiB) of one run of `method` at size n, measured in a fresh process. */
function peakMiB(method, n) {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--peak', method, String(n)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) return `failed (${child.stderr.trim().split('\n').pop()})`;
  return Number(child.stdout.trim()).toFixed(0);
}

if (process.argv[2] === '--peak') {
  const [, , , method, n] = process.argv;
  const m = methods(sites(Number(n)));
  if (method === 'd3') m.d3Prepare(); // the input pairs are d3's input, not its working memory
  gc();
  const before = process.memoryUsage().rss;
  await m[method]();
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${Math.max(0, peak - before) / 2 ** 20}\n`);
  process.exit(0);
}

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100_000, 1_000_000];
const lines = [
  '| sites | our cells ms | our cells parallel ms | our edges ms | our triangulate ms | delaunator ms | d3-delaunay cellPolygons ms | d3 / our cells | d3 / our cells parallel | our cells / delaunator | peak RSS MiB: our cells / our cells parallel / our edges / delaunator / d3 |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
// Peaks first, while this process is small: a child starts with this process's resident size at
// spawn as its high-water mark (the fork maps all our pages; maxRSS survives exec), so after the
// timed runs every child would report our size instead of its own peak.
const peaksOf = new Map();
for (const n of sizes) {
  peaksOf.set(
    n,
    ['cells', 'cellsParallel', 'edges', 'delaunator', 'd3'].map((k) => peakMiB(k, n)).join(' / '),
  );
}
for (const n of sizes) {
  const xy = sites(n);
  const m = methods(xy);
  const cells = await median(m.cells);
  const par = await median(m.cellsParallel);
  const edges = await median(m.edges);
  const tri = await median(m.triangulate);
  const del = await median(m.delaunator);
  m.d3Prepare();
  const d3 = await median(m.d3);
  const peaks = peaksOf.get(n);
  lines.push(
    `| ${n.toLocaleString('en-US')} | ${cells.toFixed(0)} | ${par.toFixed(0)} | ${edges.toFixed(0)} | ${tri.toFixed(0)} | ${del.toFixed(0)} | ${d3.toFixed(0)} | ${(d3 / cells).toFixed(2)} | ${(d3 / par).toFixed(2)} | ${(cells / del).toFixed(2)} | ${peaks} |`,
  );
  console.error(lines[lines.length - 1]);
}
console.log(
  `median of ${RUNS} runs after a warm-up, node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log(lines.join('\n'));
