// Cost of issue 19's safety passes on the CPU Voronoi path, against the whole `voronoiCells`:
// the safe-frame range scan (one pass over the sites), the vertex settling pass (one filtered dot
// product per interior edge, after the circumcentres) and the output check (one pass over the
// cells' coordinates, run by geo on every path). Uniform seeded sites in [0, 1e6]².
//
//   npx tsc -b && node --expose-gc bench/voronoi-checks.mjs [sizes…]
// Default size: 1000000. RUNS=<n> timed runs (default 5, after one warm-up). Prints a markdown
// table of medians.
import { clipBox } from '../packages/core/dist/index.js';
import { triangulate, voronoiCells } from '../packages/cpu/dist/index.js';
import { shortEdges } from '../packages/cpu/dist/voronoi/cell-kernels.js';
import { circumcenters } from '../packages/cpu/dist/voronoi/circumcenters.js';
import { safeFrame } from '../packages/cpu/dist/voronoi/safe-frame.js';
import { settleVertices } from '../packages/cpu/dist/voronoi/settle-vertices.js';
import { checkRings } from '../packages/geo/dist/voronoi/output-check.js';
import { generatePoints } from '../packages/testing/dist/index.js';

const RUNS = Number(process.env.RUNS ?? 5);
const gc = globalThis.gc ?? (() => {});

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function time(run) {
  run();
  const out = [];
  for (let r = 0; r < RUNS; r++) {
    gc();
    const t0 = performance.now();
    run();
    out.push(performance.now() - t0);
  }
  return median(out);
}

const sizes = process.argv.slice(2).map(Number);
console.log('| sites | voronoiCells ms | safe frame ms | settle ms | output check ms |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const n of sizes.length > 0 ? sizes : [1_000_000]) {
  const xy = generatePoints('uniform', n, 42);
  for (let k = 0; k < xy.length; k++) xy[k] *= 1000;
  const box = clipBox(xy);
  const whole = time(() => voronoiCells(xy, box));
  const frame = time(() => safeFrame(xy, box));
  const tri = triangulate(xy);
  const cc = circumcenters(xy, tri.frame, tri.triangles, tri.halfedges, tri.edgeState, tri.cocircularEdges);
  // as circumcenters runs it: the short edges first (one tight pass), then the settling of those
  const settle = time(() => {
    const candidates = shortEdges(0, tri.triangles.length, xy, tri.triangles, tri.halfedges, cc);
    settleVertices(xy, tri.triangles, tri.halfedges, cc, null, () => Number.POSITIVE_INFINITY, candidates);
  });
  const cells = voronoiCells(xy, box);
  const check = time(() => checkRings(cells.coords, cells.ringOffsets, (s) => `the cell of site ${s}`));
  const f = (v) => v.toFixed(1);
  console.log(`| ${n} | ${f(whole)} | ${f(frame)} | ${f(settle)} | ${f(check)} |`);
}
