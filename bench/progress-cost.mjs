// What counting progress costs: voronoiPolygons({device: 'cpu'}) through the public API, silent
// and with an onProgress callback (default pacing), interleaved in one process (order alternating
// each round, one warm-up each), wall and CPU time (all threads). With BEFORE=<root of another
// built checkout> that build runs too (e.g. a worktree at the commit before a change).
//
//   npx tsc -b && node --expose-gc bench/progress-cost.mjs [sites=1000000] [rounds=10]
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const n = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 10);
const here = await import(`${root}packages/geo/dist/index.js`);
const { generatePoints } = await import(`${root}packages/testing/dist/index.js`);
const xy = generatePoints('uniform', n, 42);
const x = xy.filter((_, i) => i % 2 === 0);
const y = xy.filter((_, i) => i % 2 === 1);
const sites = here.GeoSeries.fromXY(x, y);
let events = 0;
const variants = {
  silent: () => sites.voronoiPolygons({ device: 'cpu' }),
  listening: () => sites.voronoiPolygons({ device: 'cpu', onProgress: () => events++ }),
};
if (process.env.BEFORE) {
  const before = await import(`${process.env.BEFORE}/packages/geo/dist/index.js`);
  const old = before.GeoSeries.fromXY(x, y);
  variants.before = () => old.voronoiPolygons({ device: 'cpu' });
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const wall = {};
const cpu = {};
for (const k of Object.keys(variants)) {
  wall[k] = [];
  cpu[k] = [];
  await variants[k]();
}
events = 0;
for (let r = 0; r < rounds; r++) {
  const keys = Object.keys(variants);
  if (r % 2) keys.reverse();
  for (const k of keys) {
    globalThis.gc?.();
    const c0 = cpuMs();
    const t0 = performance.now();
    await variants[k]();
    wall[k].push(performance.now() - t0);
    cpu[k].push(cpuMs() - c0);
  }
}
const median = (a) => Math.round([...a].sort((p, q) => p - q)[a.length >> 1]);
const min = (a) => Math.round(Math.min(...a));
console.log(
  `${n} sites, ${rounds} rounds, node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log('| variant | wall median ms | wall min ms | CPU median ms | CPU min ms |');
console.log('|---|---:|---:|---:|---:|');
for (const k of Object.keys(variants)) {
  console.log(`| ${k} | ${median(wall[k])} | ${min(wall[k])} | ${median(cpu[k])} | ${min(cpu[k])} |`);
}
console.log(`\n${(events / rounds).toFixed(1)} progress events a listening run`);
