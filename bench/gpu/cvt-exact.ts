// Exact-mode CVT on the GPU (issue 21's last bar: 100k sites, 100 Lloyd iterations, ≤ 5 s): 100k
// uniform random sites, uniform ρ, in a square region and in a polygon region (a 64-point star
// with a square hole), through the public API (`centroidalVoronoi({mode: 'exact'})`), in one
// process so that variants compare on one lend:
// - the API's wall for `iterations` Lloyd iterations, split into the start (checks, region, up to
//   the first iteration's end less one mean iteration), the iterations, and the final cells (after
//   the last iteration), read from `onIteration`'s timestamps; run again after the instrumented
//   run, so that the order's effect shows;
// - the same run instrumented (Voronoi kept, moments kernel + read-back, host rows, the host's
//   evaluation, the optimiser), and the evaluation as it was before the lean host pass, for
//   `--few` iterations (scaled);
// - the host's pieces timed alone; the final cells before (polyclip-ts for every crossing cell,
//   a clip in the square too) and now (`cvtColumns`), on the API's final sites;
// - with `--cpu`, the CPU exact mode for `--few` iterations (scaled).
// The first call compiles every kernel: it runs once, timed apart, before anything else.
//
// Bundle it with esbuild (`webgpu` external) as the other GPU benches, then
//   node <bundle>.mjs [--small] [--iterations N] [--few N] [--cpu]
// (`--small`: 2000 sites, to check the script on lavapipe).
import type { Box } from '../../packages/core/src/index.js';
import { type GeometryArray, GeometryBuilder, GeometryType } from '../../packages/core/src/index.js';
import { zeroClipCounts } from '../../packages/cpu/src/clip/clip-cells.js';
import { clipCellsToRegion, uniqueCvtSites } from '../../packages/cpu/src/index.js';
import { cvtColumns } from '../../packages/geo/src/cvt/cvt-output.js';
import type { CvtRegion } from '../../packages/geo/src/cvt/cvt-region.js';
import { cvtRegion } from '../../packages/geo/src/cvt/cvt-region.js';
import { cvtSites } from '../../packages/geo/src/cvt/cvt-sites.js';
import { GeoSeries } from '../../packages/geo/src/index.js';
import { cvtCellSource } from '../../packages/geo/src/ops/engines.js';
import { getGpuContext } from '../../packages/gpu/src/index.js';
import { SeededRandom } from '../../packages/testing/src/index.js';
import { describeDevice, fmt, markdownTable } from './bench-harness.js';
import { grown, hostPieces, instrumentedRun, previousRun } from './cvt-exact-parts.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const k = argv.indexOf(name);
  return k >= 0 ? Number(argv[k + 1]) : fallback;
};
const small = argv.includes('--small');
const withCpu = argv.includes('--cpu');
const n = small ? 2000 : 100_000;
const iterations = option('--iterations', small ? 5 : 100);
const few = option('--few', small ? 2 : 20);
const ctx = await getGpuContext();
console.log(`exact-mode CVT — ${describeDevice(ctx)}; ${n} sites, ${iterations} Lloyd iterations\n`);

const square = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
/** The region as the API takes it (the star is built from core's sources, the API typed by geo's). */
type RegionInput = Parameters<typeof cvtRegion>[0];
const star = starRegion();

function starRegion() {
  const b = new GeometryBuilder(GeometryType.Polygon);
  b.beginGeometry(GeometryType.Polygon);
  b.beginRing();
  for (let k = 0; k <= 64; k++) {
    const t = (2 * Math.PI * (k % 64)) / 64;
    const r = k % 2 ? 0.36 : 0.5;
    b.pushXY(0.5 + r * Math.cos(t), 0.5 + r * Math.sin(t));
  }
  b.beginRing();
  for (const [x, y] of [
    [0.45, 0.45],
    [0.45, 0.55],
    [0.55, 0.55],
    [0.55, 0.45],
    [0.45, 0.45],
  ])
    b.pushXY(x, y);
  b.endGeometry();
  return b.finish();
}

function sitesIn(region: CvtRegion, seed: number): Float64Array {
  const random = new SeededRandom(seed);
  const xy = new Float64Array(2 * n);
  const { minX, minY, maxX, maxY } = region.box;
  for (let i = 0; i < n; ) {
    const x = minX + (maxX - minX) * random.next();
    const y = minY + (maxY - minY) * random.next();
    if (!inside(region, x, y)) continue;
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
    i++;
  }
  return xy;
}

function inside(region: CvtRegion, x: number, y: number): boolean {
  if (region.isBox) return true;
  // the star's ring and hole by crossings (the bench's own test, independent of the library's)
  let inside = false;
  const c = region.clip.coords;
  for (let r = 0; r + 1 < region.clip.ringOffsets.length; r++) {
    for (let k = region.clip.ringOffsets[r]; k + 1 < region.clip.ringOffsets[r + 1]; k++) {
      const [ax, ay, bx, by] = [c[2 * k], c[2 * k + 1], c[2 * k + 2], c[2 * k + 3]];
      if (ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay)) inside = !inside;
    }
  }
  return inside;
}

const series = (xy: Float64Array) =>
  GeoSeries.fromXY(
    Float64Array.from({ length: n }, (_, i) => xy[2 * i]),
    Float64Array.from({ length: n }, (_, i) => xy[2 * i + 1]),
  );

const cases = [
  { name: 'square', input: square as Box | ReturnType<typeof starRegion> },
  { name: 'star polygon with a hole', input: star },
].map((c, k) => {
  const region = cvtRegion(c.input as RegionInput, new Float64Array(0));
  return { ...c, region, sites: sitesIn(region, 100 + k) };
});

// first use: every kernel compiles (timed apart)
for (const c of cases) {
  const t0 = performance.now();
  await series(c.sites).centroidalVoronoi({
    mode: 'exact',
    device: 'gpu',
    iterations: 1,
    region: c.input as RegionInput,
  });
  console.log(`first call (compiles), ${c.name}: ${fmt(performance.now() - t0)} ms`);
}

// the instrumented path once (it calls the pipeline directly), then any compile seen so far
for (const c of cases) await instrumentedRun(ctx, c.region, c.sites, 1);
for (const { kernel, ms } of ctx.pipelines.compileLog)
  if (ms > 500) console.log(`  compiled ${kernel}: ${fmt(ms)} ms`);
let compiled = ctx.pipelines.compileLog.length;

const rows: (string | number)[][] = [];
const laps: (string | number)[][] = [];
const finals: (string | number)[][] = [];
for (const c of cases) {
  const start = series(c.sites);
  const api = async (device: 'gpu' | 'cpu', its: number) => {
    const stamps: number[] = [];
    const t0 = performance.now();
    const out = await start.centroidalVoronoi({
      mode: 'exact',
      device,
      iterations: its,
      tolerance: 0,
      region: c.input as RegionInput,
      onIteration: () => stamps.push(performance.now()),
    });
    const ms = performance.now() - t0;
    const loop = stamps[stamps.length - 1] - stamps[0];
    const mean = stamps.length > 1 ? loop / (stamps.length - 1) : 0;
    const begin = stamps[0] - t0 - mean;
    return { ms, out, begin, loop: loop + mean, end: t0 + ms - stamps[stamps.length - 1] };
  };
  const gpu = await api('gpu', iterations);
  const e = gpu.out.energy;
  const monotone = e.every((v, k) => k === 0 || v <= e[k - 1]);
  rows.push([
    c.name,
    'GPU (the API)',
    iterations,
    gpu.ms,
    gpu.ms / iterations,
    gpu.begin,
    gpu.loop / iterations,
    gpu.end,
    e[0],
    e[e.length - 1],
    monotone ? 'yes' : 'NO',
  ]);
  const now = await instrumentedRun(ctx, c.region, c.sites, iterations);
  laps.push([c.name, 'now', ...now.row]);
  // the API again, after the instrumented run: what run order alone moves
  const again = await api('gpu', iterations);
  rows.push([
    c.name,
    'GPU (the API), again after the instrumented run',
    iterations,
    again.ms,
    again.ms / iterations,
    again.begin,
    again.loop / iterations,
    again.end,
    '',
    '',
    '',
  ]);
  const before = await previousRun(c.region, c.sites, few);
  laps.push([c.name, `before (${few} iterations)`, before / few, '', '', '', '', '']);
  console.log(`  host pieces (${c.name}, ms): ${await hostPieces(c.region, now)}`);
  finals.push(...(await finalCells(c.region, gpu.out.sites.array, c.name)));
  if (withCpu) {
    const cpu = await api('cpu', few);
    rows.push([
      c.name,
      `CPU exact mode (${few} iterations, scaled)`,
      few,
      (cpu.ms * iterations) / few,
      cpu.ms / few,
      cpu.begin,
      cpu.loop / few,
      cpu.end,
      cpu.out.energy[0],
      cpu.out.energy[few - 1],
      '',
    ]);
  }
  const late = ctx.pipelines.compileLog.slice(compiled);
  if (late.length > 0)
    console.log(
      `compiled during the timed runs: ${late.map((l) => `${l.kernel} ${fmt(l.ms)} ms`).join('; ')}`,
    );
  compiled = ctx.pipelines.compileLog.length;
}
console.log(
  `\n${markdownTable(['region', 'run', 'iterations', 'wall ms', 'ms per iteration', 'start ms', 'iterations ms each', 'final cells ms', 'F first', 'F last', 'F monotone'], rows)}\n`,
);
console.log(
  `Where an iteration goes (GPU; ms per iteration):\n${markdownTable(['region', 'evaluation', 'wall', 'Voronoi kept on the device', 'moments kernel + read-back', 'host rows clipped (mean count)', 'rest of the evaluation (site check, host clip, F and ∇F)', 'optimiser'], laps)}\n`,
);
console.log(
  `Final cells (on the API's final sites; ms):\n${markdownTable(['region', 'variant', 'cells', 'clip', 'total', 'crossing cells', 'cut without polyclip-ts'], finals)}`,
);

/**
 * The final cells as before (cells in a box around the region, every crossing cell through
 * polyclip-ts) and now (`cvtColumns`: the region's box when it is one, the convex cut).
 */
async function finalCells(
  region: CvtRegion,
  input: GeometryArray,
  name: string,
): Promise<(string | number)[][]> {
  const sites = cvtSites(input);
  const xy = sites.xy;
  const t0 = performance.now();
  const { xy: unique } = uniqueCvtSites(xy);
  const raw = await cvtCellSource('gpu')(unique, grown(region.box));
  const t1 = performance.now();
  const counts = zeroClipCounts();
  clipCellsToRegion(raw, region.clip, counts);
  const t2 = performance.now();
  const cut = zeroClipCounts();
  clipCellsToRegion(raw, region.clip, cut, undefined, true);
  const t3 = performance.now();
  const t4 = performance.now();
  await cvtColumns(xy, sites, region, input.length, input, 'gpu');
  const t5 = performance.now();
  return [
    [name, 'before: grown box, polyclip-ts', t1 - t0, t2 - t1, t2 - t0, counts.crossing, 0],
    [name, 'grown box, convex cut', t1 - t0, t3 - t2, t1 - t0 + t3 - t2, cut.crossing, cut.cut],
    [name, 'now: cvtColumns (whole)', '', '', t5 - t4, '', ''],
  ];
}
