// The Delaunay triangulation by per-site stars on worker threads (ADR 0014) against delaunator on
// the same Hilbert-ordered uniform sites, in one run: wall time of `triangulateByStars` for each
// thread count (worker start-up falls in the warm-up run), the work per site (rings beyond the
// first, candidates collected and tested, incircle tests, circumdisks), and `new Delaunator`.
// Bundle with esbuild and run with Node (e.g. `pack.sh bench/cpu-stars.ts`, then
//   node .gpu/bundle/cpu-stars.mjs [sizes…]); THREADS=2,8,16 picks the thread counts, RUNS the runs.

import Delaunator from '../packages/cpu/node_modules/delaunator/index.js';
import { hilbertOrder } from '../packages/cpu/src/delaunay/hilbert-order.js';
import { type StarWork, triangulateByStars } from '../packages/cpu/src/delaunay/stars/star-triangulation.js';
import { generatePoints } from '../packages/testing/src/index.js';

const sizes = process.argv.slice(2).map(Number);
const threadCounts = (process.env.THREADS ?? '2,4,8,16').split(',').map(Number);
const runs = Number(process.env.RUNS ?? 5);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];

console.log(
  '| sites | threads | stars ms | delaunator ms | delaunator / stars | per site: rings · collected · tested · incircles · disks |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | --- |');
for (const n of sizes.length ? sizes : [100_000, 1_000_000]) {
  const raw = generatePoints('uniform', n, 1);
  const order = hilbertOrder(raw, new Float64Array(4));
  const xy = new Float64Array(new SharedArrayBuffer(16 * n));
  for (let k = 0; k < n; k++) {
    xy[2 * k] = raw[2 * order[k]];
    xy[2 * k + 1] = raw[2 * order[k] + 1];
  }
  const delaunator: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const t = performance.now();
    new Delaunator(xy);
    if (r > 0) delaunator.push(performance.now() - t);
  }
  for (const threads of threadCounts) {
    const times: number[] = [];
    let w: StarWork | null = null;
    for (let r = 0; r <= runs; r++) {
      const t = performance.now();
      const out = await triangulateByStars(xy, threads);
      if (!out.ok) throw new Error(`stars gave up: ${out.reason}`);
      if (r > 0) times.push(performance.now() - t);
      w = out.work;
    }
    if (w === null) throw new Error('no run');
    const per = [w.rings, w.collected, w.tested, w.incircles, w.disks]
      .map((v) => (v / n).toFixed(2))
      .join(' · ');
    const d = median(delaunator);
    const s = median(times);
    console.log(`| ${n} | ${threads} | ${s.toFixed(0)} | ${d.toFixed(0)} | ${(d / s).toFixed(2)} | ${per} |`);
  }
}
