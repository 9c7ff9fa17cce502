// Raster Voronoi on the GPU: kernel time (GPU timestamps around everything one run records, the
// harness's timedVsCopy: clocks brought up, a copy of the label bytes timed alternately) and wall
// time (voronoiRasterGpu end to end: CPU preparation, upload, kernels, label readback, the exact
// mode's f64 near-tie re-decision) for every mode on uniform sites in the unit square (cube); and
// the misclassification rate of each JFA variant against 'exact', computed on the host from the
// GPU runs' labels.
//
// Bundle and run on the GPU host: `pack.sh bench/gpu/raster.ts`, then
//   node .gpu/bundle/raster.mjs [--part 2d,3d,error|all] [--sides 4096,256] [--counts 10,1000]
//                               [--modes jfa,facet-jfa] [--gather] [--passes] [--no-wall]
//                               [--small] [--runs N] [--warmup N]
// `--gather` adds rows for the 2D JFA modes with `carryPositions: false` (site positions gathered
// through the labels, the kernel before carrying); `--passes` prints every profiled pass (each JFA
// step) instead of the per-stage sums; `--no-wall` skips the wall times.
// 2D: 1024², 4096², 8192² with 10, 1k, 100k sites; 3D: 256³, 512³; errors: 512², 1024², 4096²
// with 10 to 100k sites. `--small` shrinks everything for a software GPU (checks the script only).
import type { RasterGrid, RasterMode } from '../../packages/core/src/index.js';
import { GpuProfiler, voronoiRasterGpu } from '../../packages/gpu/src/index.js';
import { RasterPlan } from '../../packages/gpu/src/raster/index.js';
import {
  type BenchArgs,
  createBenchContext,
  describeDevice,
  markdownTable,
  median,
  parseBenchArgs,
  timedVsCopy,
  wallMs,
} from './bench-harness.js';

const argv = process.argv.slice(2);
const partAt = argv.indexOf('--part');
const parts = (partAt >= 0 ? argv.splice(partAt, 2)[1] : 'all').split(',');
const runPart = (name: string) => parts.includes(name) || parts.includes('all');
/** `--sides a,b` / `--counts a,b`: restrict the speed tables to these grid sides / site counts. */
function listOption(name: string): number[] | null {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1].split(',').map(Number) : null;
}
const onlySides = listOption('--sides');
const onlyCounts = listOption('--counts');
function flag(name: string): boolean {
  const at = argv.indexOf(name);
  if (at >= 0) argv.splice(at, 1);
  return at >= 0;
}
const modesAt = argv.indexOf('--modes');
const onlyModes = modesAt >= 0 ? argv.splice(modesAt, 2)[1].split(',') : null;
const withGather = flag('--gather');
const everyPass = flag('--passes');
const noWall = flag('--no-wall');
const args: BenchArgs = parseBenchArgs(argv);
const small = args.small;
const timed = { runs: args.runs, warmup: args.warmup, heatMs: 150 };
const wallRuns = small ? 1 : 3;
const MODES: RasterMode[] = ['jfa', 'jfa+1', '1+jfa', 'facet-jfa', 'exact'];

const ctx = await createBenchContext();
const profiler = new GpuProfiler(ctx);
const passProfiler = new GpuProfiler(ctx, { maxPasses: 64 });
console.log(
  `raster Voronoi — ${describeDevice(ctx)}; kernel ms: median of ${timed.runs} after ${timed.warmup} warm-up; wall ms: median of ${wallRuns}\n`,
);

/** Seeded uniform sites in the unit square (cube). */
function uniformSites(n: number, dims: 2 | 3, seed: number): Float64Array {
  let a = seed >>> 0;
  const out = new Float64Array(n * dims);
  for (let i = 0; i < out.length; i++) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    const b = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) >>> 0;
    out[i] = (b + 0.5) / 2 ** 32;
  }
  return out;
}

function gridOf(side: number, dims: 2 | 3): RasterGrid {
  return dims === 2
    ? { width: side, height: side, depth: 1, bounds: [0, 0, 1, 1] }
    : { width: side, height: side, depth: side, bounds: [0, 0, 0, 1, 1, 1] };
}

function label(n: number): string {
  return n >= 1000 ? `${n / 1000}k` : String(n);
}

/** Kernel and wall time of one configuration, plus what the run did. */
async function timeMode(
  sites: Float64Array,
  dims: 2 | 3,
  side: number,
  mode: RasterMode,
  gather: boolean,
  wall = !noWall,
) {
  const grid = gridOf(side, dims);
  const options: { mode: RasterMode; carryPositions?: boolean } = gather
    ? { mode, carryPositions: false }
    : { mode };
  let plan: RasterPlan;
  try {
    plan = await RasterPlan.create(ctx, sites, dims, grid, options);
  } catch (error) {
    return { error: (error as Error).message };
  }
  let kernel: number;
  let copyMs = 0;
  let passes = '';
  try {
    const t = await timedVsCopy(
      ctx,
      profiler,
      (encoder) => plan.encode(encoder),
      plan.setup.pixels * 4,
      timed,
    );
    kernel = t.median;
    copyMs = t.copy;
    // one profiled run: time per stage (own passes; compaction passes are not profiled)
    const encoder = ctx.device.createCommandEncoder();
    await plan.encode(encoder, passProfiler);
    passProfiler.resolve(encoder);
    ctx.device.queue.submit([encoder.finish()]);
    const stages = new Map<string, number>();
    for (const p of await passProfiler.read()) {
      const key = everyPass ? p.name : p.name.replace(/ \d+$/, '');
      stages.set(key, (stages.get(key) ?? 0) + p.ms);
    }
    passes = [...stages].map(([k, ms]) => `${k} ${ms.toFixed(3)}`).join(', ');
  } finally {
    plan.destroy();
  }
  const walls: number[] = [];
  let stats: Awaited<ReturnType<typeof voronoiRasterGpu>>['stats'] | undefined;
  // grids of 2^27 voxels: one untimed and one timed wall run (each reads back 512 MiB)
  const huge = plan.setup.pixels >= 2 ** 27;
  const runs = !wall ? 0 : small || huge ? 1 : wallRuns;
  for (let i = 0; i < (!wall ? 1 : runs + (small ? 0 : 1)); i++) {
    const ms = await wallMs(async () => {
      stats = (await voronoiRasterGpu(ctx, sites, dims, grid, options)).stats;
    });
    if (wall && (small || i > 0)) walls.push(ms);
  }
  return {
    kernel,
    copyMs,
    wall: !wall ? Number.NaN : median(walls),
    wallRuns: walls.length,
    stats: stats!,
    passes,
  };
}

async function speedTable(dims: 2 | 3, sides: number[], counts: number[], modes: RasterMode[]) {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const side of sides.filter((s) => !onlySides || onlySides.includes(s))) {
    // one untimed configuration first at each size: the first one timed at a new size read
    // 40–60 % high in every mode (all its passes alike), the same one timed later did not
    await timeMode(uniformSites(10, dims, 999), dims, side, 'jfa', false, false);
    for (const n of counts.filter((c) => !onlyCounts || onlyCounts.includes(c))) {
      const sites = uniformSites(n, dims, 1000 + n);
      const variants = modes
        .filter((m) => !onlyModes || onlyModes.includes(m))
        .flatMap((m) =>
          withGather && dims === 2 && m !== 'exact'
            ? [
                [m, false],
                [m, true],
              ]
            : [[m, false]],
        );
      for (const [mode, gather] of variants as [RasterMode, boolean][]) {
        const r = await timeMode(sites, dims, side, mode, gather);
        const size = dims === 2 ? `${side}²` : `${side}³`;
        const name = gather ? `${mode} (gather)` : mode;
        if ('error' in r) {
          rows.push([size, label(n), name, 'n/a', 'n/a', '', r.error ?? '']);
          continue;
        }
        const s = r.stats;
        const what =
          mode === 'facet-jfa'
            ? `level ${s.coarseLevel}, ${(s.pixelsProcessed / 1e6).toFixed(2)}M px visited`
            : mode === 'exact'
              ? `${s.nearTies} near-ties (${s.nearTiesChanged} changed)`
              : `${s.jfaSteps.length} passes, ${s.carriedPasses} carrying`;
        rows.push([size, label(n), name, r.kernel, r.wall, what]);
        notes.push(`${size} ${label(n)} ${name}: ${r.passes}`);
        console.error(
          `${size} ${label(n)} ${name}: kernel ${r.kernel.toFixed(3)} ms, wall ${r.wall.toFixed(1)} ms (copy of the labels: ${r.copyMs.toFixed(3)} ms)`,
        );
      }
    }
  }
  console.log(markdownTable(['grid', 'sites', 'mode', 'kernel ms', 'wall ms', 'run'], rows));
  console.log(`\nstage times of one profiled run (ms):\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
}

async function errorTable(sides: number[], counts: number[]) {
  const rows: (string | number)[][] = [];
  for (const side of sides) {
    for (const n of counts) {
      const sites = uniformSites(n, 2, 2000 + n);
      const grid = gridOf(side, 2);
      const exact = (await voronoiRasterGpu(ctx, sites, 2, grid, { mode: 'exact' })).labels;
      const row: (string | number)[] = [`${side}²`, label(n)];
      for (const mode of ['jfa', 'jfa+1', '1+jfa', 'facet-jfa'] as const) {
        const labels = (await voronoiRasterGpu(ctx, sites, 2, grid, { mode })).labels;
        let wrong = 0;
        for (let p = 0; p < labels.length; p++) if (labels[p] !== exact[p]) wrong++;
        row.push(`${((100 * wrong) / labels.length).toPrecision(2)} %`);
      }
      rows.push(row);
      console.error(`errors ${side}² ${label(n)}: ${row.slice(2).join(', ')}`);
    }
  }
  console.log(markdownTable(['grid', 'sites', 'jfa', 'jfa+1', '1+jfa', 'facet-jfa'], rows));
}

if (runPart('2d')) {
  await speedTable(2, small ? [64, 128] : [1024, 4096, 8192], small ? [10, 100] : [10, 1000, 100000], MODES);
}
if (runPart('3d')) {
  await speedTable(3, small ? [16] : [256, 512], small ? [10] : [10, 1000, 100000], MODES);
}
if (runPart('error')) {
  await errorTable(small ? [64, 128] : [512, 1024, 4096], small ? [10, 100] : [10, 100, 1000, 10000, 100000]);
}
profiler.destroy();
passProfiler.destroy();
ctx.destroy();
