// Raster Voronoi wall time on the GPU host (issue 24's raster bars) and the `auto` crossover of
// voronoiRaster / voronoiVolume, in one run:
// - 4096², 100k uniform sites, every mode: wall time through the public API
//   (`GeoSeries.voronoiRaster({device: 'gpu'})`) and through the engine (`voronoiRasterGpu`),
//   the engine's host spans (median per span), and its GPU passes (timestamps, one profiled run);
// - the floor's parts on this host: the labels' readback through reused staging (submit, map,
//   one JS copy into a fresh array), and a JS copy of the same bytes into fresh and touched memory;
// - the crossover: public API wall time with device 'cpu' and 'gpu' on growing grids (2D and 3D),
//   the same sites and run, to find the smallest grid at which the GPU wins.
//
// Bundle with esbuild (the `webgpu` package left external; the GPU host's packing script does it), then
//   node --expose-gc .gpu/bundle/<name>.mjs [--runs N] [--warmup N] [--small]
//   RASTER_WALL_PARTS=bars,floor,crossover (default all)
import type { RasterMode } from '../../packages/core/src/index.js';
import { preparedFloat32Array, preparedInt32Array } from '../../packages/cpu/src/index.js';
import { GeoSeries } from '../../packages/geo/src/index.js';
import { GpuProfiler, getGpuContext, voronoiRasterGpu } from '../../packages/gpu/src/index.js';
import { scratchBuffer } from '../../packages/gpu/src/primitives/scratch.js';
import { submitForRead } from '../../packages/gpu/src/runtime/staging.js';
import { describeDevice, fmt, markdownTable, median, parseBenchArgs } from './bench-harness.js';

const args = parseBenchArgs();
const parts = (process.env.RASTER_WALL_PARTS ?? 'bars,floor,crossover').split(',');
const small = args.small;
const ctx = await getGpuContext();
const collect = (globalThis as { gc?: () => void }).gc;
const MODES: RasterMode[] = ['jfa', 'jfa+1', '1+jfa', 'facet-jfa', 'exact'];
console.log(
  `raster Voronoi wall time — ${describeDevice(ctx)}; medians of ${args.runs} after ${args.warmup} warm-up\n`,
);

/** Seeded uniform sites in the unit square (cube), as raster.ts makes them. */
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

function seriesOf(coords: Float64Array, dims: 2 | 3): GeoSeries {
  const n = coords.length / dims;
  const column = (a: number) => Float64Array.from({ length: n }, (_, i) => coords[i * dims + a]);
  if (dims === 2) return GeoSeries.fromXY(column(0), column(1));
  return GeoSeries.fromWKT(
    Array.from({ length: n }, (_, i) => `POINT Z (${coords.subarray(3 * i, 3 * i + 3).join(' ')})`),
  );
}

/** Median wall ms of `fn` over `runs` after `warmup`, a collection before each. */
async function wall(fn: () => Promise<unknown>, runs = args.runs, warmup = args.warmup): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    collect?.();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

// the arrays the public path copies the labels into (pages touched by worker threads)
const resultArrays = { labels: preparedInt32Array, distance: preparedFloat32Array };
const side = small ? 256 : 4096;
const count = small ? 1000 : 100_000;
const coords = uniformSites(count, 2, 1000 + count);
const series = seriesOf(coords, 3);
const bounds = [0, 0, 1, 1] as const;
const grid = { width: side, height: side, depth: 1, bounds: [...bounds] };

if (parts.includes('bars')) {
  const rows: (string | number)[][] = [];
  const spanNotes: string[] = [];
  const profiler = new GpuProfiler(ctx, { maxPasses: 64 });
  for (const mode of MODES) {
    const t0 = performance.now();
    await series.voronoiRaster({ width: side, height: side, bounds, mode, device: 'gpu' });
    const first = performance.now() - t0;
    const api = await wall(() =>
      series.voronoiRaster({ width: side, height: side, bounds, mode, device: 'gpu' }),
    );
    const spans = new Map<string, number[]>();
    const engine = await wall(async () => {
      const { stats } = await voronoiRasterGpu(ctx, coords, 2, grid, { mode, resultArrays });
      for (const s of stats.hostSpans ?? []) spans.set(s.name, [...(spans.get(s.name) ?? []), s.ms]);
    });
    const profiled = await voronoiRasterGpu(ctx, coords, 2, grid, { mode, profiler });
    const stages = new Map<string, number>();
    for (const p of profiled.stats.kernelPasses ?? []) {
      const key = p.name.replace(/ \d+$/, '');
      stages.set(key, (stages.get(key) ?? 0) + p.ms);
    }
    const kernel = profiled.stats.kernelMs ?? Number.NaN;
    rows.push([
      `${side}²`,
      count,
      mode,
      fmt(kernel),
      fmt(engine, 3),
      fmt(api, 3),
      Math.round(first),
      profiled.stats.nearTies ?? '',
    ]);
    spanNotes.push(
      `${mode}: host spans ${[...spans].map(([k, v]) => `${k} ${fmt(median(v), 3)}`).join(', ')}; ` +
        `GPU passes ${[...stages].map(([k, ms]) => `${k} ${fmt(ms)}`).join(', ')}`,
    );
    console.error(
      `${mode}: kernel ${fmt(kernel)} ms, engine ${fmt(engine, 3)} ms, public API ${fmt(api, 3)} ms`,
    );
  }
  profiler.destroy();
  console.log(
    markdownTable(
      [
        'grid',
        'sites',
        'mode',
        'GPU passes ms',
        'engine wall ms',
        'public API wall ms',
        'first call ms',
        'near-ties',
      ],
      rows,
    ),
  );
  console.log(`\n${spanNotes.map((n) => `- ${n}`).join('\n')}\n`);
}

if (parts.includes('floor')) {
  const bytes = side * side * 4;
  const source = scratchBuffer(ctx, 'bench/raster-wall/labels', bytes);
  const readMs: number[] = [];
  const copyMs: number[] = [];
  for (let i = 0; i < args.runs + args.warmup; i++) {
    collect?.();
    const t0 = performance.now();
    const encoder = ctx.device.createCommandEncoder();
    const pending = await submitForRead(ctx, encoder, 'bench/raster-wall', [{ source, bytes }]);
    const out = new Int32Array(bytes / 4);
    const { copyMs: c } = await pending.into([out]);
    if (i >= args.warmup) {
      readMs.push(performance.now() - t0);
      copyMs.push(c);
    }
  }
  const src = new Int32Array(bytes / 4).fill(7);
  const fresh = await wall(async () => new Int32Array(bytes / 4).set(src));
  const touchedCopy: number[] = [];
  const touchMs: number[] = [];
  for (let i = 0; i < args.runs; i++) {
    collect?.();
    const t0 = performance.now();
    const d = new Int32Array(bytes / 4);
    for (let k = 0; k < d.length; k += 1024) d[k] = 0;
    const t1 = performance.now();
    d.set(src);
    touchMs.push(t1 - t0);
    touchedCopy.push(performance.now() - t1);
  }
  const prepared = await wall(() => preparedInt32Array(bytes / 4));
  const mib = bytes / 2 ** 20;
  console.log(
    markdownTable(
      ['what', `ms for ${mib} MiB`, 'GB/s'],
      [
        [
          'readback: submit, map, copy into a fresh array',
          fmt(median(readMs), 3),
          fmt(bytes / 1e6 / median(readMs), 3),
        ],
        [
          '  of which the copy out of the mapping',
          fmt(median(copyMs), 3),
          fmt(bytes / 1e6 / median(copyMs), 3),
        ],
        ['JS copy into a fresh array (page faults included)', fmt(fresh, 3), fmt(bytes / 1e6 / fresh, 3)],
        ['touching a fresh array (one write a page)', fmt(median(touchMs), 3), ''],
        ['a fresh array touched by the worker threads (preparedInt32Array)', fmt(prepared, 3), ''],
        [
          'JS copy into a touched array',
          fmt(median(touchedCopy), 3),
          fmt(bytes / 1e6 / median(touchedCopy), 3),
        ],
      ],
    ),
  );
  console.log('');
}

if (parts.includes('crossover')) {
  // rows = pixels (voxels); the CPU's time grows with the pixels, the GPU's has a fixed part
  const rows: (string | number)[][] = [];
  const cases: { dims: 2 | 3; side: number; sites: number; mode: RasterMode }[] = [];
  const sides2 = small ? [32, 64] : [32, 64, 128, 181, 256, 362, 512, 1024];
  const sides3 = small ? [8] : [8, 16, 24, 32, 48, 64];
  for (const mode of ['exact', 'jfa+1'] as RasterMode[]) {
    for (const s of sides2) for (const sites of [100, 10_000]) cases.push({ dims: 2, side: s, sites, mode });
    for (const s of sides3) for (const sites of [100, 10_000]) cases.push({ dims: 3, side: s, sites, mode });
  }
  for (const c of cases) {
    const pts = seriesOf(uniformSites(c.sites, c.dims, 7000 + c.sites), c.dims);
    const call = (device: 'cpu' | 'gpu') =>
      c.dims === 2
        ? pts.voronoiRaster({ width: c.side, height: c.side, bounds, mode: c.mode, device })
        : pts.voronoiVolume({
            dims: [c.side, c.side, c.side],
            bounds: [0, 0, 0, 1, 1, 1],
            mode: c.mode,
            device,
          });
    const pixels = c.side ** c.dims;
    const runs = pixels > 300_000 ? 3 : args.runs;
    const cpu = await wall(() => call('cpu'), runs, 1);
    const gpu = await wall(() => call('gpu'), runs, 1);
    rows.push([
      c.dims === 2 ? `${c.side}²` : `${c.side}³`,
      String(pixels),
      c.sites,
      c.mode,
      fmt(cpu, 3),
      fmt(gpu, 3),
      cpu > gpu ? 'GPU' : 'CPU',
    ]);
    console.error(
      `crossover ${c.dims}D ${c.side} ${c.sites} ${c.mode}: cpu ${fmt(cpu, 3)} gpu ${fmt(gpu, 3)}`,
    );
  }
  console.log(
    markdownTable(['grid', 'pixels', 'sites', 'mode', 'CPU wall ms', 'GPU wall ms', 'faster'], rows),
  );
}
