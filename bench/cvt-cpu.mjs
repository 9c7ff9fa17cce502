// CPU CVT timings: the paper's Tables 1 and 2 (Rong et al. 2011) — 1000 random sites in [−1, 1]²,
// a 512² grid, uniform ρ (Table 1) and ρ = e^(−20x²−20y²) + 0.05 sin²(πx) sin²(πy) (Table 2) —
// for Lloyd and L-BFGS, raster mode (1+JFA, the paper's) and exact mode (exact cells, exact
// moments / degree-5 quadrature), on one thread. Run after building:
//   npx tsc -b && node bench/cvt-cpu.mjs [--runs 3] [--sites 1000] [--side 512] [--iterations 1000]
//     [--tolerance 1e-5] [--tables 1,2] [--modes raster,exact]
// Prints a markdown table: iterations (Lloyd) or evaluations (L-BFGS), final energy, ‖∇F‖ and
// the median wall time of N runs. F is in coordinate units (the paper's F is in other units).

import { GeometryBuilder, GeometryType } from '../packages/core/dist/index.js';
import { cvtExact, cvtRasterCpu, prepareClipRegion, voronoiCells } from '../packages/cpu/dist/index.js';
import { mulberry32 } from '../packages/testing/dist/index.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const runs = Number(arg('--runs', '3'));
const n = Number(arg('--sites', '1000'));
const side = Number(arg('--side', '512'));
const maxIterations = Number(arg('--iterations', '1000'));
const tolerance = Number(arg('--tolerance', '1e-5'));
const tables = arg('--tables', '1,2').split(',').map(Number);
const modes = arg('--modes', 'raster,exact').split(',');

const rho2 = (x, y) =>
  Math.exp(-20 * x * x - 20 * y * y) + 0.05 * Math.sin(Math.PI * x) ** 2 * Math.sin(Math.PI * y) ** 2;

function sites(seed) {
  const rand = mulberry32(seed);
  return Float64Array.from({ length: 2 * n }, () => -1 + 2 * rand());
}

function densityGrid() {
  const d = new Float32Array(side * side);
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++)
      d[r * side + c] = rho2(-1 + (2 * (c + 0.5)) / side, 1 - (2 * (r + 0.5)) / side);
  }
  return d;
}

function squareRegion() {
  const b = new GeometryBuilder(GeometryType.Polygon);
  b.beginGeometry(GeometryType.Polygon);
  b.beginRing();
  for (const [x, y] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
    [-1, -1],
  ])
    b.pushXY(x, y);
  b.endGeometry();
  return prepareClipRegion(b.finish());
}

const box = { minX: -1, minY: -1, maxX: 1, maxY: 1 };
const region = squareRegion();

async function once(table, mode, method) {
  const start = sites(2011);
  const t = performance.now();
  let run;
  if (mode === 'raster') {
    run = cvtRasterCpu({
      sites: start,
      grid: { width: side, height: side, depth: 1, bounds: [-1, -1, 1, 1] },
      ...(table === 2 ? { density: densityGrid() } : {}),
      method,
      maxIterations,
      tolerance,
      labelling: '1+jfa',
    });
  } else {
    const density = table === 2 ? { kind: 'function', at: rho2 } : { kind: 'uniform' };
    run = await cvtExact(
      { sites: start, region, regionBox: box, density, method, maxIterations, tolerance },
      { cells: voronoiCells },
    );
  }
  return { run, ms: performance.now() - t };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(
  `| table | mode | method | iterations | evaluations | F | ‖∇F‖ | converged | time (ms, median of ${runs}) |`,
);
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: |');
for (const table of tables) {
  for (const mode of modes) {
    for (const method of ['lloyd', 'lbfgs']) {
      const times = [];
      let last;
      for (let r = 0; r < runs; r++) {
        last = await once(table, mode, method);
        times.push(last.ms);
      }
      const { run } = last;
      const f = run.energy[run.energy.length - 1];
      const g = run.gradientNorm[run.gradientNorm.length - 1];
      console.log(
        `| ${table} | ${mode} | ${method} | ${run.iterations} | ${run.evaluations} | ${f.toExponential(5)} | ${g.toExponential(2)} | ${run.converged} | ${median(times).toFixed(0)} |`,
      );
    }
  }
}
