// CPU cost allocation timings (single thread): the paper's (Toss et al. 2014) cube instances —
// gradient and constant cubes with 10 seeds, 26-connected — and 2D grids with 1000 sources,
// 8-connected; medians of N runs. Run after building:
//   npx tsc -b && node bench/cost-cpu.mjs [--runs 3] [--max-side 256] [--2d 1024,2048] [--heap lazy,indexed]
// Prints a markdown table, one column per heap (same results; 'lazy' is the default).

import { costAllocationCpu } from '../packages/cpu/dist/index.js';
import { mulberry32 } from '../packages/testing/dist/index.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const runs = Number(arg('--runs', '3'));
const maxSide = Number(arg('--max-side', '128'));
const sides2d = arg('--2d', '1024').split(',').map(Number);
const heaps = arg('--heap', 'lazy,indexed').split(',');

function cube(side, kind) {
  const v = new Float32Array(side ** 3);
  for (let i = 0; i < v.length; i++) v[i] = kind === 'gradient' ? 1 + (i % side) : 1;
  return v;
}

function randomSources(n, count, seed) {
  const rand = mulberry32(seed);
  return Int32Array.from({ length: count }, () => Math.floor(rand() * n));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function time(problem, heap) {
  const ms = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    costAllocationCpu(problem, { heap });
    ms.push(performance.now() - t);
  }
  return median(ms);
}

console.log(
  `| instance | cells | sources | connectivity | ${heaps.map((h) => `${h} ms | Mcells/s`).join(' | ')} |`,
);
console.log(`|---|---|---|---|${heaps.map(() => '---|---|').join('')}`);
const row = (name, problem) => {
  const n = problem.values.length;
  const cols = heaps.map((heap) => {
    const ms = time(problem, heap);
    return `${ms.toFixed(1)} | ${(n / ms / 1000).toFixed(2)}`;
  });
  console.log(
    `| ${name} | ${n} | ${problem.sources.length} | ${problem.connectivity} | ${cols.join(' | ')} |`,
  );
};
for (let side = 32; side <= maxSide; side *= 2) {
  for (const kind of ['gradient', 'constant']) {
    const values = cube(side, kind);
    const dims = [side, side, side];
    row(`${kind} ${side}³`, {
      values,
      dims,
      spacing: [1, 1, 1],
      sources: randomSources(values.length, 10, side),
      connectivity: 26,
      metric: 'cost',
    });
  }
}
{
  const dims = [100, 40, 20];
  const values = new Float32Array(100 * 40 * 20).fill(1);
  row('plate 100×40×20', {
    values,
    dims,
    spacing: [1, 1, 1],
    sources: randomSources(values.length, 20, 7),
    connectivity: 26,
    metric: 'compliance',
  });
}
for (const side of sides2d) {
  const rand = mulberry32(side);
  const values = Float32Array.from({ length: side * side }, () => 0.5 + rand());
  row(`random ${side}²`, {
    values,
    dims: [side, side],
    spacing: [1, 1],
    sources: randomSources(values.length, 1000, 3),
    connectivity: 8,
    metric: 'cost',
  });
}
