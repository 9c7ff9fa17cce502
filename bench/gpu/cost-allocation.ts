// Cost allocation (multi-source least-cost paths on a grid) on the GPU, against the paper's
// GTX 480 figures (Toss, Comba, Raffin 2014, Table I), our CPU engine on the same host, and
// scikit-image MCP_Geometric where python3 has it.
//
// Instances: the paper's gradient and constant cubes 32³…256³ with 10 random seeds and the plate
// 100×40×20 with 20 seeds ('compliance' metric, 26-connectivity; stiffness 1 → 10 left to right
// for the gradient — the paper says only "varying uniformly from left to right"), and 8192² 2D
// with 1000 sources on seeded random costs in [0.5, 10) ('cost' metric, 8-connectivity).
// Columns: rounds (cost + label passes, then the paper's iteration count), GPU ms (timestamps of
// every relax pass, summed), wall ms (costAllocationGpu end to end: checks, upload, passes, host
// round trips, readback), readback ms (copying cost + labels back alone), the paper's GPU ms,
// the CPU engine's ms, MCP_Geometric's ms, and cells whose label differs from the CPU engine's.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node on the GPU host:
//   pack.sh bench/gpu/cost-allocation.ts   (or: npx esbuild bench/gpu/cost-allocation.ts --bundle
//     --platform=node --format=esm --external:webgpu --outfile=.gpu/bundle/cost-allocation.mjs)
//   node .gpu/bundle/cost-allocation.mjs [--only gradient-256,2d-8192] [--inner 1,64]
//        [--labels carried,descend] [--overlap on,off] [--cpu gradient-64,2d-8192 | --no-cpu]
//        [--skimage gradient-32,… | --no-skimage] [--output fresh] [--runs N] [--warmup N] [--small]
//        [--delta inf,4,16] [--tails kept,fresh] [--marks serial,parallel] [--picks serial,parallel]
//        [--trace] [--latency]
// `--inner a,b`: one GPU row per value of the most local iterations per tile visit (default 64;
// 1 is the plain front wave, one Jacobi step per active tile per round). `--labels` and
// `--overlap`: one row per value of those options of costAllocationGpu (defaults: carried, on).
// `--cpu list`: the CPU engine only on these instances, each in its own child process, all at
// once, while the GPU rows run (one thread each on a many-core host; their labels come back
// through a file for the "labels ≠ CPU" column). After each row, a profile line: host wall ms per
// step and GPU ms per step of the last profiled run, tile visits and local iterations per phase.
// `--delta a,b`: one row per Δ of the ordered cost pass (in typical steps; inf: the plain pass).
// `--marks serial,parallel`: the next round's tiles listed by thread 0 alone or by one thread per
// neighbouring tile; `--picks serial,parallel`: this round's entries taken by thread 0 one after
// the other or one thread each (tile-marks.ts, tile-pick.ts). `--tails kept,fresh`: tail staging buffers reused between runs or made per run. `--trace`: the
// host events of the last timed run (ms after the call). `--latency`: first, round trips of tiny
// submissions (cost-latency.ts), to find where a small run's fixed time goes.
// After each row, the GPU's clocks where nvidia-smi runs.
// `--small` shrinks the instances for a software GPU (checks the script only).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CostAllocation, CostGridProblem } from '../../packages/core/src/index.js';
import { preparedFloat64Array } from '../../packages/cpu/src/index.js';
import { costAllocationGpu } from '../../packages/gpu/src/index.js';
import { createStorage, readback, uploadStorage } from '../../packages/gpu/src/runtime/buffers.js';
import { BufferUsage } from '../../packages/gpu/src/runtime/usage.js';
import {
  createBenchContext,
  describeDevice,
  markdownTable,
  median,
  parseBenchArgs,
  wallMs,
} from './bench-harness.js';
import { latencyProbe } from './cost-latency.js';

const argv = process.argv.slice(2);
function option(name: string): string | null {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : null;
}
function flag(name: string): boolean {
  const at = argv.indexOf(name);
  if (at >= 0) argv.splice(at, 1);
  return at >= 0;
}
const only = option('--only')?.split(',') ?? null;
const inners = (option('--inner') ?? '64').split(',').map(Number);
const labelModes = (option('--labels') ?? 'carried').split(',') as ('carried' | 'descend')[];
const overlaps = (option('--overlap') ?? 'on').split(',').map((o) => o !== 'off');
const deltas = option('--delta')
  ?.split(',')
  .map((d) => (d === 'inf' ? Number.POSITIVE_INFINITY : Number(d))) ?? [undefined];
const tailModes = (option('--tails') ?? 'kept').split(',').map((t) => t !== 'fresh');
const markModes = (option('--marks') ?? 'parallel').split(',') as ('serial' | 'parallel')[];
const pickModes = (option('--picks') ?? 'serial').split(',') as ('serial' | 'parallel')[];
const traceRuns = flag('--trace');
const latency = flag('--latency');
// `--output fresh`: the engine's own arrays instead of geo's (pages mapped by worker threads)
const outputArray = option('--output') === 'fresh' ? undefined : preparedFloat64Array;
const cpuList = option('--cpu')?.split(',') ?? null;
const cpuChild = option('--cpu-child');
const noCpu = flag('--no-cpu');
const skimageList = option('--skimage')?.split(',') ?? null;
const noSkimage = flag('--no-skimage');
const args = parseBenchArgs(argv);

interface Instance {
  name: string;
  problem: CostGridProblem;
  /** Table I: GPU iterations and ms on a GTX 480. */
  paper?: [number, number];
}

function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function volume(kind: 'gradient' | 'constant', dims: number[], seeds: number, seed: number): CostGridProblem {
  const [w, h, d] = dims;
  const values = new Float32Array(w * h * d);
  for (let i = 0; i < values.length; i++) values[i] = kind === 'constant' ? 1 : 1 + (9 * (i % w)) / (w - 1);
  const rng = seededRandom(seed);
  const sources = Int32Array.from({ length: seeds }, () => Math.floor(rng() * values.length));
  return { values, dims, spacing: [1, 1, 1], sources, connectivity: 26, metric: 'compliance' };
}

function plane(side: number, n: number, seed: number): CostGridProblem {
  const rng = seededRandom(seed);
  const values = Float32Array.from({ length: side * side }, () => 0.5 + 9.5 * rng());
  const sources = Int32Array.from({ length: n }, () => Math.floor(rng() * values.length));
  return { values, dims: [side, side], spacing: [1, 1], sources, connectivity: 8, metric: 'cost' };
}

const PAPER: Record<string, [number, number]> = {
  'gradient-32': [30, 1.96],
  'gradient-64': [70, 12.13],
  'gradient-128': [126, 105.91],
  'gradient-256': [195, 985.8],
  'gradient-plate': [21, 2.51],
  'constant-32': [20, 1.27],
  'constant-64': [52, 9.2],
  'constant-128': [79, 61.85],
  'constant-256': [159, 812.03],
  'constant-plate': [22, 2.47],
};

function instances(): Instance[] {
  const sides = args.small ? [16, 24] : [32, 64, 128, 256];
  const out: Instance[] = [];
  for (const kind of ['gradient', 'constant'] as const) {
    for (const side of sides) {
      const name = `${kind}-${side}`;
      out.push({ name, problem: volume(kind, [side, side, side], 10, side), paper: PAPER[name] });
    }
    const plate = args.small ? [25, 10, 5] : [100, 40, 20];
    out.push({ name: `${kind}-plate`, problem: volume(kind, plate, 20, 7), paper: PAPER[`${kind}-plate`] });
  }
  out.push({ name: `2d-${args.small ? 256 : 8192}`, problem: plane(args.small ? 256 : 8192, 1000, 3) });
  return out.filter((i) => !only || only.includes(i.name));
}

type CpuEngine = (problem: CostGridProblem) => CostAllocation | Promise<CostAllocation>;

async function loadCpu(): Promise<CpuEngine | null> {
  if (noCpu) return null;
  try {
    const cpu = (await import('../../packages/cpu/src/index.js')) as Record<string, unknown>;
    return typeof cpu.costAllocationCpu === 'function' ? (cpu.costAllocationCpu as CpuEngine) : null;
  } catch {
    return null;
  }
}

const SKIMAGE = `
import sys, time, numpy as np
from skimage.graph import MCP_Geometric
shape = tuple(int(s) for s in sys.argv[2].split(','))
costs = np.fromfile(sys.argv[1] + '.values', dtype=np.float32).astype(np.float64).reshape(shape)
cells = np.fromfile(sys.argv[1] + '.sources', dtype=np.int32)
starts = [tuple(int(c) for c in np.unravel_index(i, shape)) for i in cells]
times = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter()
    MCP_Geometric(costs, fully_connected=True).find_costs(starts)
    times.append((time.perf_counter() - t) * 1000)
print(sorted(times)[len(times) // 2])
`;

/**
 * The GPU's clocks, power and temperature where `nvidia-smi` runs (an empty string elsewhere):
 * the same kernel's time has varied by 2× between lends of one host, so rows carry them.
 */
function gpuClocks(): string {
  const query =
    '--query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active';
  const run = spawnSync('nvidia-smi', [query, '--format=csv,noheader'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  return run.status === 0
    ? `    nvidia-smi (SM MHz, max SM MHz, memory MHz, W, °C, throttle): ${run.stdout.trim()}`
    : '';
}

/** MCP_Geometric's ms on `problem` (its costs: 1/stiffness for 'compliance'), or null without skimage. */
function skimageMs(name: string, problem: CostGridProblem, dir: string): number | null {
  if (noSkimage || (skimageList !== null && !skimageList.includes(name))) return null;
  const base = join(dir, 'p');
  const unit = problem.metric === 'cost' ? problem.values : problem.values.map((v) => 1 / v);
  writeFileSync(`${base}.values`, unit);
  writeFileSync(`${base}.sources`, problem.sources);
  const shape = [...problem.dims].reverse().join(','); // numpy: slowest axis first
  const run = spawnSync('python3', ['-c', SKIMAGE, base, shape, '1'], { encoding: 'utf8', timeout: 600_000 });
  return run.status === 0 ? Number(run.stdout.trim()) : null;
}

/** The child's side of `--cpu`: one instance on the CPU engine, labels to a file, ms to stdout. */
async function runCpuChild(spec: string): Promise<void> {
  const [name, file] = spec.split('=');
  const instance = instances().find((i) => i.name === name);
  const cpu = await loadCpu();
  if (!instance || !cpu) throw new Error(`cpu child: no instance ${name} or no CPU engine`);
  let result: CostAllocation | null = null;
  const ms = await wallMs(async () => {
    result = await cpu(instance.problem);
  });
  writeFileSync(file, (result as unknown as CostAllocation).labels);
  console.log(ms);
}

/** The CPU engine on each listed instance in a child process of its own, all started at once. */
function startCpuChildren(dir: string): Map<string, Promise<{ ms: number; labels: Int32Array } | null>> {
  const runs = new Map<string, Promise<{ ms: number; labels: Int32Array } | null>>();
  for (const { name } of instances()) {
    if (noCpu || (cpuList !== null && !cpuList.includes(name))) continue;
    const file = join(dir, `${name}.labels`);
    const child = spawn(
      process.execPath,
      [process.argv[1], '--cpu-child', `${name}=${file}`, ...(args.small ? ['--small'] : [])],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    runs.set(
      name,
      new Promise((resolve) =>
        child.on('close', (code) => {
          if (code !== 0) return resolve(null);
          const bytes = readFileSync(file);
          resolve({
            ms: Number(out.trim()),
            labels: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
          });
        }),
      ),
    );
  }
  return runs;
}

if (cpuChild) {
  await runCpuChild(cpuChild);
  process.exit(0);
}

const ctx = await createBenchContext();
console.log(
  `cost allocation — ${describeDevice(ctx)}; GPU and wall ms: median of ${args.runs} after ${args.warmup} warm-up; CPU and MCP_Geometric: one run\n`,
);
if (latency) await latencyProbe(ctx, args.small ? 5 : 20);
const dir = mkdtempSync(join(tmpdir(), 'cost-bench-'));
const cpuRuns = startCpuChildren(dir);
const rows: string[][] = [];
const fmt = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined ? 'n/a' : x.toFixed(digits);
const steps = (r: Record<string, number> | undefined) =>
  r
    ? Object.entries(r)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')
    : 'n/a';
type GpuResult = Awaited<ReturnType<typeof costAllocationGpu>>;
const gpuLabels = new Map<string, Int32Array>();
try {
  for (const { name, problem, paper } of instances()) {
    const cells = problem.values.length;
    const copy = await createStorage(ctx, cells * 8, 'bench readback', BufferUsage.COPY_SRC);
    const target = new Uint8Array(cells * 8);
    const reads: number[] = [];
    for (let i = 0; i < 3; i++) reads.push(await wallMs(() => readback(ctx, copy, target)));
    copy.destroy();
    // the values' upload two ways: mapped at creation (what the engine does) and writeBuffer
    const mappedUp: number[] = [];
    const written: number[] = [];
    for (let i = 0; i < 3; i++) {
      mappedUp.push(
        await wallMs(async () => {
          const b = await uploadStorage(ctx, problem.values, 'bench upload');
          await ctx.device.queue.onSubmittedWorkDone();
          b.destroy();
        }),
      );
      written.push(
        await wallMs(async () => {
          const b = await createStorage(ctx, cells * 4, 'bench write', BufferUsage.COPY_DST);
          ctx.device.queue.writeBuffer(b, 0, problem.values);
          await ctx.device.queue.onSubmittedWorkDone();
          b.destroy();
        }),
      );
    }
    console.log(
      `${name}: upload of the values mapped at creation ${fmt(median(mappedUp))} ms, by writeBuffer ${fmt(median(written))} ms; readback of cost + labels ${fmt(median(reads))} ms`,
    );
    const mcpMs = skimageMs(name, problem, dir);
    const variants = inners.flatMap((inner) =>
      labelModes.flatMap((labels) =>
        overlaps.flatMap((overlap) =>
          deltas.flatMap((delta) =>
            tailModes.flatMap((keepTails) =>
              markModes.flatMap((marks) =>
                pickModes.map((picks) => ({ inner, labels, overlap, delta, keepTails, marks, picks })),
              ),
            ),
          ),
        ),
      ),
    );
    for (const variant of variants) {
      const { inner, labels, overlap, delta, keepTails, marks, picks } = variant;
      {
        let last: GpuResult | null = null;
        let profiled: GpuResult | null = null;
        const gpuMs: number[] = [];
        const wall: number[] = [];
        for (let i = 0; i < args.warmup + args.runs; i++) {
          const w = await wallMs(async () => {
            last = await costAllocationGpu(ctx, problem, {
              inner,
              labels,
              overlap,
              outputArray,
              delta,
              keepTails,
              marks,
              picks,
              trace: traceRuns,
            });
          });
          profiled = await costAllocationGpu(ctx, problem, {
            inner,
            labels,
            overlap,
            outputArray,
            delta,
            keepTails,
            marks,
            picks,
            profile: true,
          });
          if (i < args.warmup) continue;
          wall.push(w);
          if (profiled.stats.gpuMs !== undefined) gpuMs.push(profiled.stats.gpuMs);
        }
        const result = last! as GpuResult;
        gpuLabels.set(name, result.labels);
        const { rounds, visits, localIterations, labelPass } = result.stats;
        rows.push([
          name,
          String(cells),
          String(problem.sources.length),
          String(inner),
          `${labels}${overlap ? '' : ', no overlap'}, Δ ${delta ?? 'default'}${keepTails ? '' : ', fresh tails'}, ${marks} marks, ${picks} picks`,
          `${rounds.cost}+${rounds.label}${labelPass === 'fallback' ? ' (fallback)' : ''}`,
          paper ? String(paper[0]) : '—',
          gpuMs.length > 0 ? fmt(median(gpuMs)) : 'n/a',
          fmt(median(wall)),
          fmt(median(reads)),
          paper ? fmt(paper[1]) : '—',
          fmt(mcpMs, 1),
        ]);
        console.log(rows.at(-1)!.join('  '));
        const clocks = gpuClocks();
        if (clocks) console.log(clocks);
        const p = profiled! as GpuResult;
        console.log(
          `    host ms: ${steps(p.stats.hostMs)} | GPU ms: ${steps(p.stats.gpuSteps)} | visits ${visits.cost}+${visits.label}, local iterations ${localIterations.cost}+${localIterations.label}, deferred ${result.stats.deferred}, batches ${result.stats.batches}`,
        );
        const trace = (result as GpuResult).stats.trace;
        if (trace) console.log(`    trace: ${trace.map((e) => `${e.at.toFixed(2)} ${e.what}`).join('; ')}`);
      }
    }
  }
  const cpuRows: string[][] = [];
  for (const [name, run] of cpuRuns) {
    const cpu = await run;
    const labels = gpuLabels.get(name);
    let differ: number | null = null;
    if (cpu && labels) {
      differ = 0;
      for (let c = 0; c < labels.length; c++) if (cpu.labels[c] !== labels[c]) differ++;
    }
    cpuRows.push([name, fmt(cpu?.ms, 1), differ === null ? 'n/a' : String(differ)]);
    console.log(cpuRows.at(-1)!.join('  '));
  }
  console.log(
    `\n${markdownTable(['instance', 'CPU engine ms (own process)', 'labels ≠ CPU (last GPU row)'], cpuRows)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\n${markdownTable(
    [
      'instance',
      'cells',
      'sources',
      'inner',
      'labels',
      'rounds (cost+label)',
      'paper iterations',
      'GPU ms',
      'wall ms',
      'readback ms',
      'paper GTX 480 ms',
      'MCP_Geometric ms',
    ],
    rows,
  )}`,
);
