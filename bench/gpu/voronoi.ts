// The GPU voronoiPolygons pipeline against the CPU path on the same host, in one run:
// - end to end (f64 sites in → GeoArrow-ready ring buffers in host memory), wall time per stage;
// - everything after the Delaunay stage (circumcentres, cells, clip, emit, readback)
//   timed alone on a prepared triangulation with the GPU clocks kept up, with GPU timestamps per
//   pass and the bytes moved;
// - with VORONOI_CPU_STAGE=1, the pipeline with the CPU's Delaunay stage as well;
// - the CPU path (`voronoiCellsParallel`, what voronoiPolygons runs on the CPU);
// - the crossover: the smallest size from which the GPU path is faster end to end.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/voronoi.ts`, then
//   node .gpu/bundle/voronoi.mjs [--small] [--runs N] [--warmup N]
// Sizes 1e4, 1e5, 1e6, 1e7 uniform sites (`--small`: 1e3, 1e4, for a software GPU).
import { clipBox, uniqueSites } from '../../packages/core/src/index.js';
import { voronoiCellsParallel } from '../../packages/cpu/src/index.js';
import { CPU_STAGES } from '../../packages/geo/src/ops/engines.js';
import {
  cellsOutput,
  GpuProfiler,
  prepareVoronoiSites,
  voronoiCellsGpu,
  voronoiCellsPrepared,
} from '../../packages/gpu/src/index.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import {
  copyEncoder,
  createBenchContext,
  createCopyPair,
  describeDevice,
  fmt,
  heat,
  markdownTable,
  median,
  parseBenchArgs,
} from './bench-harness.js';

const args = parseBenchArgs();
const collect = (globalThis as { gc?: () => void }).gc;
// VORONOI_SIZES=1e6,1e7 limits the sizes (e.g. for a quick check of one change)
const sizes =
  process.env.VORONOI_SIZES?.split(',').map(Number) ?? (args.small ? [1e3, 1e4] : [1e4, 1e5, 1e6, 1e7]);
// VORONOI_CROSSOVER=1e5,3e5,1e6 sets the crossover sizes (also run when VORONOI_SIZES is set)
const crossoverSizes =
  process.env.VORONOI_CROSSOVER?.split(',').map(Number) ??
  (args.small ? [1e3, 3e3] : [1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6]);
const ctx = await createBenchContext();
const [src, dst] = await createCopyPair(ctx, 64 << 20);
const copy = await copyEncoder(ctx, src, dst);
console.log(
  `voronoi pipeline — ${describeDevice(ctx)}; medians of ${args.runs} after ${args.warmup} warm-up; heap collected before timed runs: ${collect ? 'yes' : 'no'}\n`,
);

// VORONOI_PEERS=0 leaves the CPU path out (the GPU pipeline's stages alone)
const peers = process.env.VORONOI_PEERS !== '0';
const heatMs = Number(process.env.VORONOI_HEAT ?? 0);

function sitesOf(n: number) {
  const sites = uniqueSites(generatePoints('uniform', n, 42)).xy;
  return { sites, box: clipBox(sites, null) };
}

async function timeRuns<T>(
  runs: number,
  warmup: number,
  fn: () => Promise<T>,
  before?: () => Promise<void>,
): Promise<{ ms: number; last: T }> {
  let last: T | undefined;
  for (let i = 0; i < warmup; i++) last = await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.();
    const t0 = performance.now();
    last = await fn();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), last: last as T };
}

const endToEnd: string[][] = [];
const after: string[][] = [];
const passRows: string[][] = [];
const stageRows: string[][] = [];
const cpuStageRows: string[][] = [];
for (const n of sizes) {
  const { sites, box } = sitesOf(n);
  const runs = n >= 1e7 ? Math.min(args.runs, 3) : args.runs;
  const warmup = n >= 1e7 ? 1 : args.warmup;
  const cpu = peers
    ? await timeRuns(runs, warmup, () => voronoiCellsParallel(sites, box))
    : { ms: Number.NaN, last: null };
  const stageTimes = new Map<string, number[]>();
  let calls = 0;
  const gpu = await timeRuns(
    runs,
    warmup,
    async () => {
      const result = await voronoiCellsGpu(ctx, sites, box, {
        cpu: CPU_STAGES,
        onFallback: (stage, reason) => console.log(`${n}: ${stage} stage on the CPU: ${reason}`),
      });
      // the stages of the timed runs only (the warm-up compiles the kernels)
      if (calls++ >= warmup)
        for (const { stage, ms } of result.stats.stages)
          stageTimes.set(stage, [...(stageTimes.get(stage) ?? []), ms]);
      return result;
    },
    // VORONOI_HEAT=ms keeps the GPU busy that long before each timed run (clocks up), untimed;
    // under `node --expose-gc` the heap is collected first (the previous run's output is freed
    // there instead of inside the timed run)
    async () => {
      collect?.();
      if (heatMs > 0) await heat(ctx, copy, heatMs);
    },
  );
  // the pipeline with the CPU's Delaunay stage instead of the GPU's stars (VORONOI_CPU_STAGE=1)
  if (process.env.VORONOI_CPU_STAGE === '1') {
    const cpuStages = new Map<string, number[]>();
    const withCpu = await timeRuns(runs, warmup, async () => {
      const result = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES, delaunay: 'cpu' });
      for (const { stage, ms } of result.stats.stages)
        cpuStages.set(stage, [...(cpuStages.get(stage) ?? []), ms]);
      return result;
    });
    const stageText = [...cpuStages].map(([s, t]) => `${s} ${fmt(median(t))}`).join('; ');
    cpuStageRows.push([n.toExponential(0), fmt(withCpu.ms), fmt(cpu.ms / withCpu.ms, 2), stageText]);
  }
  const cpuPoints = cpu.last?.ringOffsets[n];
  const same = cpuPoints === undefined || gpu.last.cells.ringOffsets[n] === cpuPoints;
  const stageText = [...stageTimes].map(([s, t]) => `${s} ${fmt(median(t))}`).join('; ');
  endToEnd.push([
    n.toExponential(0),
    fmt(cpu.ms),
    fmt(gpu.ms),
    fmt(cpu.ms / gpu.ms, 2),
    stageText,
    cpuPoints === undefined
      ? 'no CPU run'
      : same
        ? 'same point count'
        : `points differ: ${gpu.last.cells.ringOffsets[n]} vs ${cpuPoints}`,
  ]);

  // everything after the Delaunay stage, on a warm GPU
  const prepared = await prepareVoronoiSites(ctx, sites, box, { cpu: CPU_STAGES });
  if (prepared === null) throw new Error('uniform sites have a triangulation');
  const afterTimes: number[] = [];
  const passTimes = new Map<string, number[]>();
  const afterStages = new Map<string, number[]>();
  let bytes = { up: 0, down: 0 };
  for (let i = 0; i < warmup + runs; i++) {
    // the output array is prepared during the Delaunay stage in the pipeline (worker threads map
    // its pages meanwhile): here, before the clock starts, as every run needs a fresh one
    if (i > 0) prepared.output = cellsOutput(n, CPU_STAGES);
    await prepared.output?.array;
    await heat(ctx, copy, 100);
    const profiler = new GpuProfiler(ctx);
    const t0 = performance.now();
    const { stats } = await voronoiCellsPrepared(ctx, prepared, { cpu: CPU_STAGES, profiler });
    const ms = performance.now() - t0;
    const passes = await profiler.read();
    profiler.destroy();
    if (i < warmup) continue;
    afterTimes.push(ms);
    bytes = { up: stats.bytesUp, down: stats.bytesDown };
    for (const { stage, ms } of stats.stages) afterStages.set(stage, [...(afterStages.get(stage) ?? []), ms]);
    for (const p of passes) passTimes.set(p.name, [...(passTimes.get(p.name) ?? []), p.ms]);
  }
  const kernels = [...passTimes.values()].reduce((sum, t) => sum + median(t), 0);
  // the transfer floor measured through Dawn: ~6 GB/s for JS copies into or out of mapped memory
  const floorMs = ((bytes.up + bytes.down) / 6e9) * 1e3;
  after.push([
    n.toExponential(0),
    fmt(median(afterTimes)),
    fmt(kernels),
    fmt(bytes.up / 2 ** 20, 1),
    fmt(bytes.down / 2 ** 20, 1),
    fmt(floorMs),
  ]);
  passRows.push([n.toExponential(0), ...[...passTimes].map(([name, t]) => `${name} ${fmt(median(t))}`)]);
  stageRows.push([n.toExponential(0), ...[...afterStages].map(([name, t]) => `${name} ${fmt(median(t))}`)]);
}

console.log('End to end, f64 sites in → ring buffers in host memory (ms; CPU = voronoiCellsParallel):');
console.log(
  markdownTable(['sites', 'CPU', 'GPU pipeline', 'CPU/GPU', 'GPU stages (wall)', 'check'], endToEnd),
);
if (cpuStageRows.length > 0) {
  console.log('\nEnd to end with the CPU Delaunay stage (delaunay: "cpu"), ms:');
  console.log(markdownTable(['sites', 'GPU pipeline', 'CPU/GPU', 'stages (wall)'], cpuStageRows));
}
console.log('\nAfter the Delaunay stage, warm GPU (ms, MiB; floor = bytes at 6 GB/s):');
console.log(
  markdownTable(['sites', 'wall', 'kernels (timestamps)', 'up MiB', 'down MiB', 'transfer floor'], after),
);
console.log('\nAfter the Delaunay stage, wall time per step (ms):');
for (const row of stageRows) console.log(`${row[0]}: ${row.slice(1).join('; ')}`);
console.log('\nGPU passes (timestamps, ms):');
for (const row of passRows) console.log(`${row[0]}: ${row.slice(1).join('; ')}`);

// crossover: end to end on both paths from small sizes up (skipped when the sizes are limited)
const cross: string[][] = [];
let crossover: number | null = null;
for (const n of process.env.VORONOI_SIZES && !process.env.VORONOI_CROSSOVER ? [] : crossoverSizes) {
  const { sites, box } = sitesOf(n);
  const cpu = await timeRuns(args.runs, args.warmup, () => voronoiCellsParallel(sites, box));
  const gpu = await timeRuns(args.runs, args.warmup, () =>
    voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES }),
  );
  if (gpu.ms < cpu.ms) crossover ??= n;
  else crossover = null;
  cross.push([n.toExponential(0), fmt(cpu.ms), fmt(gpu.ms), gpu.ms < cpu.ms ? 'GPU' : 'CPU']);
}
console.log('\nCrossover (end to end, ms):');
console.log(markdownTable(['sites', 'CPU', 'GPU', 'faster'], cross));
console.log(`\nsuggested crossover: ${crossover ?? 'none in range'}`);
