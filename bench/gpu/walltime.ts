// What users wait for, through the public API, on the GPU host (issue 24's bars):
// - `voronoiPolygons({device: 'gpu'})` on a point GeoSeries, host result: wall time;
// - `voronoiPolygons({device: 'gpu', keep: 'device'})` then `await area()`: wall time, and each
//   half alone (the cells kept; the area kernel and its 8 bytes a row back);
// - the public call's own laps (HostLaps: input sites, dispatch, the pipeline's stage laps inside
//   it, repeated points, output check, GeoArrow column), medians per step, and the host passes
//   timed alone on this host's CPU (serial against worker threads) on the call's own output;
// - the Delaunay stage alone with GPU timestamps: its wall, its steps and its passes' GPU time
//   (how much of "submission to the stars' statistics" is GPU work and how much waiting);
// - the kept path's stage laps (`stats.stages`), medians per stage;
// - transfer rates on this host: a readback through the reused staging buffers (map + one JS copy)
//   of the host result's size, and of the areas' size, for the floors;
// - the peer in the same run: CuPy's `cupyx.scipy.spatial.Delaunay` on the same points (python3
//   with CuPy; skipped with a note where it is missing).
//
// Bundle with esbuild (the `webgpu` package left external; the GPU host's packing script does it), then
//   node .gpu/bundle/<name>.mjs [--runs N] [--warmup N]     (WALLTIME_SIZES=1e6,1e7; WALLTIME_PEER=0)
// It first times the compilation of the cell kernels and the area kernel, one line each.
import { spawnSync } from 'node:child_process';
import {
  boxOfXY,
  clipBox,
  extractSites,
  GeometryArray,
  GeometryType,
  uniqueSites,
} from '../../packages/core/src/index.js';
import { uniqueSitesParallel } from '../../packages/cpu/src/index.js';
import { CPU_STAGES } from '../../packages/geo/src/ops/engines.js';
import { HostLaps } from '../../packages/geo/src/voronoi/host-laps.js';
import {
  checkRings,
  checkRingsParallel,
  withoutRepeatedPoints,
  withoutRepeatedPointsParallel,
} from '../../packages/geo/src/voronoi/output-check.js';
import { computeVoronoiOnDevice } from '../../packages/geo/src/voronoi/voronoi-on-device.js';
import { computeVoronoi } from '../../packages/geo/src/voronoi/voronoi-polygons.js';
import { gpuDelaunayStage } from '../../packages/gpu/src/delaunay/delaunay-gpu.js';
import {
  GpuProfiler,
  getGpuContext,
  residentArea,
  voronoiCellsGpu,
  voronoiCellsGpuOnDevice,
} from '../../packages/gpu/src/index.js';
import { RING_AREA_KERNEL } from '../../packages/gpu/src/resident/measure-kernels.js';
import type { KernelConstants, KernelSpec } from '../../packages/gpu/src/runtime/pipeline-cache.js';
import { submitForRead } from '../../packages/gpu/src/runtime/staging.js';
import { EMIT_RINGS_KERNEL } from '../../packages/gpu/src/voronoi/cells/emit-kernels.js';
import { RING_KERNEL } from '../../packages/gpu/src/voronoi/cells/ring-kernel.js';
import {
  EMIT_INDEX_KERNEL,
  RING_VERTEX_IDS_KERNEL,
  VERTEX_TABLE_KERNEL,
} from '../../packages/gpu/src/voronoi/cells/vertex-kernels.js';
import {
  HULL_START_KERNEL,
  PLAN_CELLS_KERNEL,
  WALK_START_KERNEL,
} from '../../packages/gpu/src/voronoi/cells/walk-kernels.js';
import { CIRCUMCENTER_KERNEL } from '../../packages/gpu/src/voronoi/circumcenters/circumcenter-kernel.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import { describeDevice, fmt, markdownTable, median, parseBenchArgs } from './bench-harness.js';

const args = parseBenchArgs();
const sizes = process.env.WALLTIME_SIZES?.split(',').map(Number) ?? [1e6, 1e7];
const ctx = await getGpuContext();
const collect = (globalThis as { gc?: () => void }).gc;
console.log(
  `wall time through the public API — ${describeDevice(ctx)}; medians of ${args.runs} after ${args.warmup} warm-up\n`,
);

async function timed<T>(fn: () => Promise<T>, after?: (value: T) => void): Promise<number> {
  for (let i = 0; i < args.warmup; i++) after?.(await fn());
  const times: number[] = [];
  for (let i = 0; i < args.runs; i++) {
    collect?.();
    const t0 = performance.now();
    const value = await fn();
    times.push(performance.now() - t0);
    after?.(value);
  }
  return median(times);
}

/** Median per stage name over runs of `run` (which returns the stage laps). */
async function stageMedians(
  run: () => Promise<{ stage: string; ms: number }[]>,
): Promise<Map<string, number>> {
  const laps = new Map<string, number[]>();
  for (let i = 0; i < Math.max(3, args.runs); i++) {
    for (const { stage, ms } of await run()) laps.set(stage, [...(laps.get(stage) ?? []), ms]);
  }
  return new Map([...laps].map(([stage, ms]) => [stage, median(ms)]));
}

/** GB/s of a readback of `bytes` through the reused staging buffers (map, one JS copy). */
async function readbackRate(bytes: number): Promise<{ gbps: number; ms: number }> {
  const source = ctx.device.createBuffer({ size: bytes, usage: 0x80 | 0x4 | 0x8 });
  const target = new Uint8Array(bytes);
  const ms = await timed(async () => {
    const pending = await submitForRead(ctx, ctx.device.createCommandEncoder(), 'bench/rate', [
      { source, bytes },
    ]);
    await pending.into([target]);
  });
  source.destroy();
  return { gbps: bytes / ms / 1e6, ms };
}

// first compilation of the cell kernels and the area kernel, each timed and printed as it ends
// (a fresh lend's driver cache is empty; on 2026-11-28 the first Voronoi run did not finish)
for (const [name, kernel, constants] of [
  ['walk start', WALK_START_KERNEL, {}],
  ['hull start', HULL_START_KERNEL, {}],
  ['plan cells', PLAN_CELLS_KERNEL, {}],
  ['circumcentres', CIRCUMCENTER_KERNEL, { workgroupSize: 128 }],
  ['rings', RING_KERNEL, {}],
  ['emit rings', EMIT_RINGS_KERNEL, {}],
  ['vertex table', VERTEX_TABLE_KERNEL, {}],
  ['ring vertex ids', RING_VERTEX_IDS_KERNEL, {}],
  ['emit index', EMIT_INDEX_KERNEL, {}],
  ['ring area', RING_AREA_KERNEL, {}],
] as const) {
  const t0 = performance.now();
  await ctx.pipelines.get(kernel as KernelSpec<KernelConstants>, constants);
  console.log(`compile ${name}: ${fmt(performance.now() - t0)} ms`);
}

// the first run compiles every pipeline (seconds on this host's driver): timed on its own, outside
// the watchdog, so the public calls below meet compiled pipelines
{
  const warm = uniqueSites(generatePoints('uniform', 20_000, 7)).xy;
  const box = clipBox(warm, null);
  const t0 = performance.now();
  await voronoiCellsGpu(ctx, warm, box, { cpu: CPU_STAGES });
  const t1 = performance.now();
  const { cells } = await voronoiCellsGpuOnDevice(ctx, warm, box, { cpu: CPU_STAGES });
  await residentArea(cells);
  cells.destroy();
  console.log(
    `first run (pipelines compiled): voronoiCellsGpu 2e4 ${fmt(t1 - t0)} ms; kept + area ${fmt(performance.now() - t1)} ms\n`,
  );
}

/** Median of `runs` timings of `fn` (after one untimed run), in ms. */
async function alone(fn: () => unknown, runs = 3): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Pushes each lap of `laps` onto its stage's list in `into` (first-seen order). */
function addLaps(into: Map<string, number[]>, laps: { stage: string; ms: number }[]): void {
  for (const { stage, ms } of laps) into.set(stage, [...(into.get(stage) ?? []), ms]);
}

const rows: string[][] = [];
const stageRows: string[][] = [];
const lapRows: string[][] = [];
const passRows: string[][] = [];
const hostPassRows: string[][] = [];
const profiler = new GpuProfiler(ctx, { maxPasses: 256 });
for (const n of sizes) {
  const xy = generatePoints('uniform', n, 42);
  // a point column, as GeoSeries.fromXY makes it (the bundle leaves GeoSeries' plotting out:
  // computeVoronoi / computeVoronoiOnDevice and residentArea are what its methods run)
  const column = new GeometryArray({
    type: GeometryType.Point,
    dimension: 'xy',
    coords: xy,
    offsets: [],
    length: n,
  });
  const keptCells = async () => (await computeVoronoiOnDevice(column, { device: 'gpu' })).cells;
  let points = 0;
  let last: Awaited<ReturnType<typeof computeVoronoi>> | null = null;
  const publicLaps = new Map<string, number[]>();
  const host = await timed(
    async () => {
      const laps = new HostLaps();
      const result = await computeVoronoi(column, { device: 'gpu' }, laps);
      laps.lap('returned');
      return { result, laps: laps.laps };
    },
    ({ result, laps }) => {
      points = result.geometry.coordCount;
      addLaps(publicLaps, laps);
      last = result;
    },
  );
  for (const [stage, ms] of publicLaps) lapRows.push([fmt(n, 2), stage, fmt(median(ms))]);
  // the host passes alone on this host's CPU, on the call's own output (before: serial; now: workers)
  if (last !== null) {
    const { geometry } = last as Awaited<ReturnType<typeof computeVoronoi>>;
    const rings = { coords: geometry.coords, ringOffsets: geometry.offsets[1] };
    const what = (r: number) => `ring ${r}`;
    const shared = geometry.coords.buffer instanceof SharedArrayBuffer;
    last = null;
    for (const [pass, fn] of [
      ['extractSites (point column)', () => extractSites(column)],
      ['uniqueSites, one thread', () => uniqueSites(xy)],
      ['uniqueSitesParallel (workers, box)', () => uniqueSitesParallel(xy)],
      [
        'sites copied to shared memory (fresh)',
        () => new Float64Array(new SharedArrayBuffer(16 * n)).set(xy),
      ],
      ['repeated points, one thread', () => withoutRepeatedPoints(rings)],
      [
        'repeated points and output check in one pass, workers (the GPU path)',
        () => withoutRepeatedPointsParallel(rings),
      ],
      ['output check, one thread', () => checkRings(rings.coords, rings.ringOffsets, what)],
      [
        'output check alone, workers (the CPU path)',
        () => checkRingsParallel(rings.coords, rings.ringOffsets, what),
      ],
    ] as const) {
      hostPassRows.push([fmt(n, 2), `${pass}${shared ? '' : ' (output not shared)'}`, fmt(await alone(fn))]);
    }
  }
  const keptLaps = new Map<string, number[]>();
  const keptAndArea = await timed(
    async () => {
      const laps = new HostLaps();
      const kept = (await computeVoronoiOnDevice(column, { device: 'gpu' }, laps)).cells;
      await residentArea(kept);
      laps.lap('area() on the device, back');
      return { kept, laps: laps.laps };
    },
    ({ kept, laps }) => {
      kept.destroy();
      addLaps(keptLaps, laps);
    },
  );
  for (const [stage, ms] of keptLaps) lapRows.push([fmt(n, 2), `kept + area: ${stage}`, fmt(median(ms))]);
  const keptOnly = await timed(
    () => keptCells(),
    (kept) => kept.destroy(),
  );
  const kept = await keptCells();
  const areaOnly = await timed(() => residentArea(kept));
  kept.destroy();
  const bigRead = await readbackRate(16 * points + 4 * (n + 1));
  const smallRead = await readbackRate(8 * n);
  rows.push([
    fmt(n, 2),
    fmt(host),
    fmt(keptAndArea),
    fmt(keptOnly),
    fmt(areaOnly),
    `${fmt((16 * points) / 2 ** 20)} MiB at ${fmt(bigRead.gbps)} GB/s = ${fmt(bigRead.ms)} ms`,
    `${fmt((8 * n) / 2 ** 20)} MiB at ${fmt(smallRead.gbps)} GB/s = ${fmt(smallRead.ms)} ms`,
  ]);

  const sites = uniqueSites(xy).xy;
  const box = clipBox(sites, null);
  // the Delaunay stage alone, with its passes' GPU time
  const stageLaps = new Map<string, number[]>();
  const passTimes = new Map<string, number[]>();
  for (let r = 0; r < args.warmup + args.runs; r++) {
    const t0 = performance.now();
    const out = await gpuDelaunayStage(ctx, sites, { profiler, cpuDelaunay: CPU_STAGES.delaunay });
    const wall = performance.now() - t0;
    const passes = await profiler.read();
    if (r < args.warmup || out === null) continue;
    const { hullMs, encodeMs, resultMs } = out.stats;
    addLaps(stageLaps, [
      { stage: 'wall', ms: wall },
      { stage: 'hull round trip', ms: hullMs },
      { stage: 'recording the stars', ms: encodeMs },
      { stage: "submission to the stars' statistics", ms: resultMs },
      { stage: 'GPU passes, all', ms: passes.reduce((sum, p) => sum + p.ms, 0) },
    ]);
    addLaps(
      passTimes,
      passes.map((p) => ({ stage: p.name, ms: p.ms })),
    );
  }
  for (const [stage, ms] of stageLaps) passRows.push([fmt(n, 2), stage, fmt(median(ms))]);
  for (const [stage, ms] of passTimes) passRows.push([fmt(n, 2), `  pass ${stage}`, fmt(median(ms))]);

  // the cells' emit, indexed against coordinates, interleaved in this run: the pipeline and the
  // host passes after it as the GPU engine runs them (repeats, output check), wall per variant
  const emitWall = new Map<string, number[]>();
  const emitLaps = new Map<string, number[]>();
  let indexedBytes = 0;
  for (let r = 0; r < args.warmup + args.runs; r++) {
    // before this change: every point as f64, repeats compacted on the host
    const plainCopy = { ...CPU_STAGES, copyRings: undefined };
    for (const [emit, keepRepeats, cpu, label] of [
      ['coordinates', true, plainCopy, 'coordinates, repeats dropped on the host (before)'],
      ['coordinates', false, plainCopy, 'coordinates, one copy then the check'],
      ['coordinates', false, CPU_STAGES, 'coordinates, checked by workers while copied'],
      ['indexed', false, CPU_STAGES, 'indexed'],
    ] as const) {
      collect?.();
      const t0 = performance.now();
      const { cells, stats } = await voronoiCellsGpu(ctx, sites, box, { cpu, emit, keepRepeats });
      const rings = await withoutRepeatedPointsParallel(cells);
      await checkRingsParallel(rings.coords, rings.ringOffsets, (k) => `ring ${k}`);
      const wall = performance.now() - t0;
      if (r < args.warmup) continue;
      addLaps(emitWall, [{ stage: label, ms: wall }]);
      addLaps(
        emitLaps,
        stats.stages.map((st) => ({ stage: `${label}: ${st.stage}`, ms: st.ms })),
      );
      if (emit === 'indexed') indexedBytes = stats.bytesDown;
    }
  }
  // the sites' duplicates: removed on the host first (before) or left to the GPU's check (now),
  // through the cells and the host passes after them, interleaved
  const dupWall = new Map<string, number[]>();
  for (let r = 0; r < args.warmup + args.runs; r++) {
    for (const label of [
      'duplicates removed on workers, then the GPU',
      'box, then the GPU checks them distinct',
    ]) {
      collect?.();
      const t0 = performance.now();
      const gpuSites = label.startsWith('box') ? xy : (await uniqueSitesParallel(xy)).xy;
      if (label.startsWith('box')) boxOfXY(xy);
      const { cells } = await voronoiCellsGpu(ctx, gpuSites, box, {
        cpu: CPU_STAGES,
        sitesMayRepeat: label.startsWith('box'),
      });
      const rings = await withoutRepeatedPointsParallel(cells);
      await checkRingsParallel(rings.coords, rings.ringOffsets, (k) => `ring ${k}`);
      if (r >= args.warmup) addLaps(dupWall, [{ stage: label, ms: performance.now() - t0 }]);
    }
  }
  for (const [stage, ms] of dupWall)
    stageRows.push([fmt(n, 2), 'sites A/B wall (sites + pipeline + check)', stage, fmt(median(ms))]);
  const indexedRead = await readbackRate(indexedBytes);
  for (const [stage, ms] of emitWall)
    stageRows.push([fmt(n, 2), 'emit A/B wall (pipeline + repeats + check)', stage, fmt(median(ms))]);
  stageRows.push([
    fmt(n, 2),
    'emit A/B',
    `indexed bytes back: ${fmt(indexedBytes / 2 ** 20)} MiB at ${fmt(indexedRead.gbps)} GB/s`,
    fmt(indexedRead.ms),
  ]);
  for (const [stage, ms] of emitLaps) stageRows.push([fmt(n, 2), 'emit A/B laps', stage, fmt(median(ms))]);

  const keptStages = await stageMedians(async () => {
    const { cells, stats } = await voronoiCellsGpuOnDevice(ctx, sites, box, { cpu: CPU_STAGES });
    const t0 = performance.now();
    await residentArea(cells);
    cells.destroy();
    return [...stats.stages, { stage: 'area() on the device, back', ms: performance.now() - t0 }];
  });
  for (const [stage, ms] of keptStages) stageRows.push([fmt(n, 2), 'kept + area', stage, fmt(ms)]);
}

console.log(
  markdownTable(
    [
      'sites',
      'voronoiPolygons, host result (ms)',
      'kept + area() (ms)',
      'kept alone (ms)',
      'area() alone (ms)',
      'cells readback',
      'areas readback',
    ],
    rows,
  ),
);
console.log(
  "\nthe public calls' laps, host result then kept + area (medians; indented: the pipeline's own stages)\n",
);
console.log(markdownTable(['sites', 'step', 'ms'], lapRows));
console.log('\nhost passes alone on this CPU, on the output of the last call (medians of 3)\n');
console.log(markdownTable(['sites', 'pass', 'ms'], hostPassRows));
console.log(`\nDelaunay stage alone (gpuDelaunayStage, GPU time: ${profiler.source})\n`);
console.log(markdownTable(['sites', 'step', 'ms'], passRows));
console.log('\nkept path stage laps (medians; "(of which …)" rows are inside the row above them)\n');
console.log(markdownTable(['sites', 'run', 'stage', 'ms'], stageRows));

if (process.env.WALLTIME_PEER !== '0') {
  const script = `
import time, sys
try:
    import cupy as cp
    from cupyx.scipy.spatial import Delaunay
except Exception as e:
    print("peer: CuPy not available:", e); sys.exit(0)
print("peer: CuPy", cp.__version__)
for n in [${sizes.map((s) => Math.round(s)).join(',')}]:
    rng = cp.random.default_rng(42)
    pts = rng.random((n, 2), dtype=cp.float64) * 1000
    Delaunay(pts); cp.cuda.Device().synchronize()
    ts = []
    for _ in range(${args.runs}):
        t0 = time.perf_counter(); d = Delaunay(pts); cp.cuda.Device().synchronize(); ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    print(f"peer: cupyx Delaunay n={n}: median {ts[len(ts)//2]:.1f} ms (runs {', '.join(f'{t:.1f}' for t in ts)})")
`;
  const peer = spawnSync('python3', ['-c', script], { encoding: 'utf8', timeout: 240_000 });
  console.log(`\n${peer.stdout}${peer.stderr ? `\n${peer.stderr.slice(-2000)}` : ''}`);
}
process.exit(0);
