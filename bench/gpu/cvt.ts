// (The exact mode, 100k sites on exact cells: bench/gpu/cvt-exact.ts.)
// Centroidal Voronoi tessellation on the GPU raster (Rong et al. 2011, Tables 1 and 2): 1000
// uniform random sites in [-1, 1]², a 512² grid, uniform ρ (Table 1) or
// ρ = e^(−20x²−20y²) + 0.05 sin²(πx) sin²(πy) (Table 2). Lloyd runs the paper's iteration count;
// L-BFGS runs until its energy reaches Lloyd's final energy (the evaluations that takes, then
// timed with exactly that budget). Wall time is cvtRasterGpu end to end (setup, upload, every
// submission and read-back), warmed up, median of --runs; GPU time is the sum of the timestamped
// passes of one profiled run. Also: the regional reduction with and without the workgroup
// pre-reduction, and the radix sort a sort + segmented-reduce design would need per iteration
// (a lower bound of that design).
//
// Bundle and run on the GPU host: `pack.sh bench/gpu/cvt.ts` (or esbuild with `webgpu` external), then
//   node .gpu/bundle/cvt.mjs [--runs N] [--warmup N] [--small] [--trace-only]
// `--small` shrinks everything (128², 100 sites, few iterations) to check the script on lavapipe.
import type { CvtIteration, CvtRasterProblem, RasterGrid } from '../../packages/core/src/index.js';
import { cvtRasterGpu, GpuProfiler } from '../../packages/gpu/src/index.js';
import { encodeRadixSort } from '../../packages/gpu/src/primitives/sort/radix-sort.js';
import { createStorage, uploadStorage } from '../../packages/gpu/src/runtime/buffers.js';
import { BufferUsage } from '../../packages/gpu/src/runtime/usage.js';
import { SeededRandom } from '../../packages/testing/src/index.js';
import {
  createBenchContext,
  describeDevice,
  markdownTable,
  median,
  parseBenchArgs,
  wallMs,
} from './bench-harness.js';

const argv = process.argv.slice(2);
/** `--trace-only`: only the last table (where the wall time goes). */
const traceOnly = argv.includes('--trace-only');
const args = parseBenchArgs(argv.filter((a) => a !== '--trace-only'));
const small = args.small;
const side = small ? 128 : 512;
const count = small ? 100 : 1000;
const grid: RasterGrid = { width: side, height: side, depth: 1, bounds: [-1, -1, 1, 1] };
const ctx = await createBenchContext();
console.log(`CVT on the GPU raster: ${describeDevice(ctx)}`);
console.log(`${count} sites, ${side}², runs ${args.runs} (median), warmup ${args.warmup}\n`);

function randomSites(seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  return Float64Array.from({ length: 2 * count }, () => -1 + 2 * rng.next());
}

function paperDensity(): Float32Array {
  const out = new Float32Array(side * side);
  for (let r = 0; r < side; r++)
    for (let c = 0; c < side; c++) {
      const x = -1 + (2 * (c + 0.5)) / side;
      const y = 1 - (2 * (r + 0.5)) / side;
      out[r * side + c] =
        Math.exp(-20 * x * x - 20 * y * y) + 0.05 * Math.sin(Math.PI * x) ** 2 * Math.sin(Math.PI * y) ** 2;
    }
  return out;
}

async function timeRuns(problem: CvtRasterProblem, slots?: number): Promise<number> {
  for (let i = 0; i < args.warmup; i++) await cvtRasterGpu(ctx, problem, { slots });
  const times: number[] = [];
  for (let i = 0; i < args.runs; i++) times.push(await wallMs(() => cvtRasterGpu(ctx, problem, { slots })));
  return median(times);
}

async function profiled(problem: CvtRasterProblem, slots?: number) {
  const profiler = new GpuProfiler(ctx, { maxPasses: 1024 });
  try {
    return await cvtRasterGpu(ctx, problem, { profiler, slots });
  } finally {
    profiler.destroy();
  }
}

const tables = [
  {
    name: 'Table 1 (uniform ρ)',
    density: undefined,
    lloyd: small ? 30 : 216,
    paper: { lloyd: [216, 0.55], lbfgs: [92, 0.512] },
  },
  {
    name: 'Table 2 (ρ = e^(−20x²−20y²) + 0.05 sin²(πx) sin²(πy))',
    density: paperDensity(),
    lloyd: small ? 40 : 627,
    paper: { lloyd: [627, 2.529], lbfgs: [376, 2.301] },
  },
];

const rows: (string | number)[][] = [];
/** Per table, the L-BFGS evaluations that reach Lloyd's final energy (the trace reuses Table 1's). */
const lbfgsBudget: number[] = [];
const stageRows: (string | number)[][] = [];
for (const t of traceOnly ? [] : tables) {
  const base: CvtRasterProblem = {
    sites: randomSites(1),
    grid,
    density: t.density,
    method: 'lloyd',
    maxIterations: t.lloyd,
    tolerance: 0,
    labelling: '1+jfa',
  };
  const lloyd = await cvtRasterGpu(ctx, base);
  const target = lloyd.energy[lloyd.energy.length - 1];
  const lloydMs = await timeRuns(base);
  const lloydGpu = await profiled(base);
  rows.push([
    t.name,
    'Lloyd',
    lloyd.iterations,
    lloyd.energy[0],
    target,
    lloydMs,
    lloydGpu.gpuMs ?? Number.NaN,
    t.paper.lloyd[0],
    t.paper.lloyd[1] * 1000,
  ]);
  stageRows.push([t.name, 'Lloyd', ...stageColumns(lloydGpu.gpuPassMs ?? {}, lloyd.iterations)]);
  // L-BFGS: how many evaluations reach Lloyd's final energy, then timed with that budget
  const reports: CvtIteration[] = [];
  const search = await cvtRasterGpu(
    ctx,
    { ...base, method: 'lbfgs', maxIterations: 3 * t.lloyd },
    { onIteration: (s) => reports.push(s) },
  );
  const reached = reports.find((r) => r.energy <= target);
  const evaluations = reached?.iteration ?? search.evaluations;
  const lbfgsProblem: CvtRasterProblem = { ...base, method: 'lbfgs', maxIterations: evaluations };
  lbfgsBudget.push(evaluations);
  const lbfgs = await cvtRasterGpu(ctx, lbfgsProblem);
  const lbfgsMs = await timeRuns(lbfgsProblem);
  const lbfgsGpu = await profiled(lbfgsProblem);
  rows.push([
    t.name,
    reached ? "L-BFGS (to Lloyd's F)" : "L-BFGS (never reached Lloyd's F)",
    lbfgs.evaluations,
    lbfgs.energy[0],
    lbfgs.energy[lbfgs.energy.length - 1],
    lbfgsMs,
    lbfgsGpu.gpuMs ?? Number.NaN,
    t.paper.lbfgs[0],
    t.paper.lbfgs[1] * 1000,
  ]);
  stageRows.push([t.name, 'L-BFGS', ...stageColumns(lbfgsGpu.gpuPassMs ?? {}, lbfgs.evaluations)]);
  const best = search.energy[search.energy.length - 1];
  console.log(
    `${t.name}: L-BFGS with ${3 * t.lloyd} evaluations at most: F ${best.toExponential(5)} after ${search.evaluations} evaluations (${search.iterations} iterations); Lloyd's ${target.toExponential(5)}`,
  );
}

console.log(
  `\n${markdownTable(
    [
      'problem',
      'method',
      'evaluations',
      'F start',
      'F end',
      'wall ms (median)',
      'GPU ms (timestamps)',
      'paper evaluations',
      'paper GTX 280 ms',
    ],
    rows,
  )}\n`,
);
console.log(
  `GPU ms per evaluation by stage (one profiled run; 'seed + plan' also holds the prologue's fills, the L-BFGS steps the trial point's seeding):\n${markdownTable(['problem', 'method', 'seed + plan', 'jfa', 'moments', 'finish', 'L-BFGS steps'], stageRows)}\n`,
);

function stageColumns(ms: Record<string, number>, evaluations: number): number[] {
  const per = (name: string) => (ms[name] ?? 0) / evaluations;
  return [
    per('cvt seed'),
    per('cvt jfa'),
    per('cvt moments'),
    per('cvt finish'),
    per('cvt trial') + per('cvt direction'),
  ];
}

// the regional reduction's designs, on Table 1's Lloyd run
const t1: CvtRasterProblem = {
  sites: randomSites(1),
  grid,
  method: 'lloyd',
  maxIterations: tables[0].lloyd,
  tolerance: 0,
  labelling: '1+jfa',
};
const designRows: (string | number)[][] = [];
for (const slots of traceOnly ? [] : [8, 0]) {
  const gpu = await profiled(t1, slots);
  designRows.push([
    slots ? `fixed-point atomics, ${slots} workgroup slots` : 'fixed-point atomics, global only',
    (gpu.gpuPassMs?.['cvt moments'] ?? Number.NaN) / t1.maxIterations,
    (await timeRuns(t1, slots)) / t1.maxIterations,
  ]);
}
if (!traceOnly) {
  designRows.push([
    'radix sort of the labels alone (lower bound of sort + segmented reduce)',
    await sortMs(),
    '—',
  ]);
}
console.log(
  `Regional reduction, Table 1 Lloyd, ms per iteration:\n${markdownTable(['design', 'reduction GPU ms', 'whole iteration wall ms'], designRows)}`,
);

/** GPU ms per iteration of the radix sort (keys: labels < 1024, values: pixel indices) that design B starts with. */
async function sortMs(): Promise<number> {
  const pixels = side * side;
  const rng = new SeededRandom(3);
  const labels = Uint32Array.from({ length: pixels }, () => Math.floor(rng.next() * count));
  const iota = Uint32Array.from({ length: pixels }, (_, i) => i);
  const srcKeys = await uploadStorage(ctx, labels, 'labels', BufferUsage.COPY_SRC);
  const srcValues = await uploadStorage(ctx, iota, 'iota', BufferUsage.COPY_SRC);
  const keys = await createStorage(ctx, 4 * pixels, 'keys', BufferUsage.COPY_DST);
  const values = await createStorage(ctx, 4 * pixels, 'values', BufferUsage.COPY_DST);
  const reps = tables[0].lloyd;
  const run = async () => {
    const encoder = ctx.device.createCommandEncoder();
    for (let i = 0; i < reps; i++) {
      encoder.copyBufferToBuffer(srcKeys, 0, keys, 0, 4 * pixels);
      encoder.copyBufferToBuffer(srcValues, 0, values, 0, 4 * pixels);
      await encodeRadixSort(ctx, encoder, {
        keys,
        values,
        count: pixels,
        keyBits: Math.ceil(Math.log2(count)),
      });
    }
    ctx.device.queue.submit([encoder.finish()]);
    await ctx.device.queue.onSubmittedWorkDone();
  };
  await run();
  const times: number[] = [];
  for (let i = 0; i < args.runs; i++) times.push(await wallMs(run));
  for (const b of [srcKeys, srcValues, keys, values]) b.destroy();
  return median(times) / reps;
}

// where the wall time goes (host-side trace of the session, means over --runs; wall: median), for
// Lloyd's labelling variants and for L-BFGS to Lloyd's energy (the evaluations found above; 28,
// the H200's count, with --trace-only); 'record' is what the host spends recording dispatches
const variants: [string, CvtRasterProblem, { adaptiveStep?: boolean; slots?: number }][] = [
  ['Lloyd, 1+JFA, adaptive step', t1, {}],
  ['Lloyd, 1+JFA, every pass', t1, { adaptiveStep: false }],
  ['Lloyd, exact labelling (brute force)', { ...t1, labelling: 'exact' }, {}],
  ["L-BFGS to Lloyd's F, 1+JFA", { ...t1, method: 'lbfgs', maxIterations: lbfgsBudget[0] ?? 28 }, {}],
];
const traceRows: (string | number)[][] = [];
for (const [name, problem, options] of variants) {
  for (let i = 0; i < Math.max(1, args.warmup); i++) await cvtRasterGpu(ctx, problem, options);
  const tr: Record<string, number> = {};
  const walls: number[] = [];
  let run = await cvtRasterGpu(ctx, problem, options);
  for (let i = 0; i < args.runs; i++)
    walls.push(
      await wallMs(async () => {
        run = await cvtRasterGpu(ctx, problem, { ...options, hostMs: tr });
      }),
    );
  const mean = (k: string) => (tr[k] ?? 0) / args.runs;
  const profiler = new GpuProfiler(ctx, { maxPasses: 1024 });
  const gpu = await cvtRasterGpu(ctx, problem, { ...options, profiler });
  profiler.destroy();
  const evaluations = run.evaluations;
  traceRows.push([
    name,
    evaluations,
    median(walls),
    gpu.gpuMs ?? Number.NaN,
    mean('buffers'),
    mean('programs'),
    mean('record'),
    mean('record') / evaluations,
    mean('dispatches') / evaluations,
    mean('submit'),
    mean('wait'),
    run.energy[run.energy.length - 1],
  ]);
}
console.log(
  `\nTable 1 (${t1.maxIterations} Lloyd iterations; L-BFGS to Lloyd's F), where the wall time goes (ms; host phases are means of ${args.runs} runs, wall their median, GPU one profiled run):\n${markdownTable(['run', 'evaluations', 'wall', 'GPU passes', 'buffers', 'programs', 'record', 'record per evaluation', 'dispatches per evaluation', 'finish+submit', 'wait for read-back', 'F end'], traceRows)}`,
);
