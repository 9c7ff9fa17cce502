// Exact-mode CVT on the GPU (issue 21's last bar: 100k sites, 100 Lloyd iterations, ≤ 5 s): 100k
// uniform random sites, uniform ρ, in a square region and in a polygon region (a 64-point star
// with a square hole), through the public API (`centroidalVoronoi({mode: 'exact'})`):
// - GPU, cells kept on the device (what the API runs now): wall time of `iterations` Lloyd
//   iterations, per iteration; the same run instrumented (Voronoi kept, moments kernel + read-back,
//   host rows clipped on the host, the rest);
// - GPU as it was before (host cells every iteration, every cell integrated on the host, crossing
//   cells through polyclip-ts, a sort for the unique check), for a few iterations, scaled;
// - the CPU exact mode (`device: 'cpu'`) on the same host, for a few iterations, scaled.
// The first call compiles every kernel (the Delaunay stars' ~75 s on a fresh lend): it runs once,
// timed apart, before anything else.
//
// Bundle it with esbuild (`webgpu` external) as the other GPU benches, then
//   node <bundle>.mjs [--small] [--iterations N] [--few N] [--gpu-only]
// (`--small`: 2000 sites, to check the script on lavapipe; `--few`: iterations of the slow rows;
// `--gpu-only`: the API's GPU row and the instrumented run only).
import type { Box } from '../../packages/core/src/index.js';
import { CvtError, GeometryBuilder, GeometryType } from '../../packages/core/src/index.js';
import {
  addUniformMoments,
  type CellSource,
  type CvtEvaluation,
  cellMoments,
  clipCellsToRegion,
  exactEvaluator,
  type MomentSource,
  runCvtAsync,
} from '../../packages/cpu/src/index.js';
import type { CvtRegion } from '../../packages/geo/src/cvt/cvt-region.js';
import { cvtRegion } from '../../packages/geo/src/cvt/cvt-region.js';
import { GeoSeries } from '../../packages/geo/src/index.js';
import { CPU_STAGES, cvtCellSource } from '../../packages/geo/src/ops/engines.js';
import { cvtCellMomentsGpu, getGpuContext, voronoiCellsGpuOnDevice } from '../../packages/gpu/src/index.js';
import { SeededRandom } from '../../packages/testing/src/index.js';
import { describeDevice, fmt, markdownTable } from './bench-harness.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const k = argv.indexOf(name);
  return k >= 0 ? Number(argv[k + 1]) : fallback;
};
const small = argv.includes('--small');
/** `--gpu-only`: only the GPU rows (the API and the instrumented run). */
const gpuOnly = argv.includes('--gpu-only');
const n = small ? 2000 : 100_000;
const iterations = option('--iterations', small ? 5 : 100);
const few = option('--few', small ? 2 : 3);
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
for (const c of cases) await instrumentedRun(c.region, c.sites, 1);
for (const { kernel, ms } of ctx.pipelines.compileLog)
  if (ms > 500) console.log(`  compiled ${kernel}: ${fmt(ms)} ms`);
let compiled = ctx.pipelines.compileLog.length;

const rows: (string | number)[][] = [];
const laps: (string | number)[][] = [];
for (const c of cases) {
  const start = series(c.sites);
  const api = async (device: 'gpu' | 'cpu', its: number) => {
    const t0 = performance.now();
    const out = await start.centroidalVoronoi({
      mode: 'exact',
      device,
      iterations: its,
      tolerance: 0,
      region: c.input as RegionInput,
    });
    return { ms: performance.now() - t0, out };
  };
  const gpu = await api('gpu', iterations);
  const e = gpu.out.energy;
  const monotone = e.every((v, k) => k === 0 || v <= e[k - 1]);
  rows.push([
    c.name,
    'GPU, cells kept on the device (the API)',
    iterations,
    gpu.ms,
    gpu.ms / iterations,
    e[0],
    e[e.length - 1],
    monotone ? 'yes' : 'NO',
  ]);
  if (gpuOnly) {
    laps.push([c.name, ...(await instrumentedRun(c.region, c.sites, iterations))]);
    continue;
  }
  const cpu = await api('cpu', few);
  rows.push([
    c.name,
    `CPU exact mode (${few} iterations, scaled)`,
    few,
    (cpu.ms * iterations) / few,
    cpu.ms / few,
    cpu.out.energy[0],
    cpu.out.energy[few - 1],
    '',
  ]);
  const before = await legacyRun(c.region, c.sites, few);
  rows.push([
    c.name,
    `GPU as before: host cells (${few} iterations, scaled)`,
    few,
    (before * iterations) / few,
    before / few,
    '',
    '',
    '',
  ]);
  laps.push([c.name, ...(await instrumentedRun(c.region, c.sites, iterations))]);
  const late = ctx.pipelines.compileLog.slice(compiled);
  if (late.length > 0)
    console.log(
      `compiled during the timed runs: ${late.map((l) => `${l.kernel} ${fmt(l.ms)} ms`).join('; ')}`,
    );
  compiled = ctx.pipelines.compileLog.length;
}
console.log(
  `\n${markdownTable(['region', 'run', 'iterations', 'wall ms (for the full count)', 'ms per iteration', 'F first', 'F last', 'F monotone'], rows)}\n`,
);
console.log(
  `Where an iteration goes (GPU, cells kept; ms per iteration over ${iterations}):\n${markdownTable(['region', 'wall', 'Voronoi kept on the device', 'moments kernel + read-back', 'host rows clipped (mean count)', 'rest of the evaluation (unique check, host clip, F and ∇F)', 'optimiser'], laps)}`,
);

function problemOf(region: CvtRegion, sites: Float64Array, its: number) {
  return {
    sites,
    region: region.clip,
    ...(region.isBox ? { regionBox: region.box } : {}),
    density: { kind: 'uniform' as const },
    method: 'lloyd' as const,
    maxIterations: its,
    tolerance: 0,
  };
}

function diagonal(region: CvtRegion): number {
  const b = region.box;
  return Math.hypot(b.maxX - b.minX, b.maxY - b.minY);
}

/** The same Lloyd run with a timed moment source of its own (the pieces the API's source runs). */
async function instrumentedRun(
  region: CvtRegion,
  sites: Float64Array,
  iterations: number,
): Promise<(string | number)[]> {
  const t = { voronoi: 0, moments: 0, hostRows: 0, evaluate: 0, cpuDelaunay: 0 };
  const stages = new Map<string, number>();
  const source: MomentSource = async (xy, box, interior) => {
    const t0 = performance.now();
    const { cells, stats } = await voronoiCellsGpuOnDevice(ctx, xy, box, { cpu: CPU_STAGES });
    const t1 = performance.now();
    for (const { stage, ms } of stats.stages) stages.set(stage, (stages.get(stage) ?? 0) + ms);
    if (stats.delaunay.path === 'cpu') t.cpuDelaunay++;
    const got = await cvtCellMomentsGpu(cells, xy, interior);
    t.moments += performance.now() - t1;
    t.voronoi += t1 - t0;
    t.hostRows += got.hostRows.length;
    cells.destroy();
    return got;
  };
  const never: CellSource = () => {
    throw new CvtError('cells asked for');
  };
  const evaluator = exactEvaluator(problemOf(region, sites, iterations), never, source);
  const evaluate = async (x: Float64Array) => {
    const t0 = performance.now();
    const e = await evaluator(x);
    t.evaluate += performance.now() - t0;
    return e;
  };
  const t0 = performance.now();
  await runCvtAsync(sites, evaluate, {
    method: 'lloyd',
    maxIterations: iterations,
    tolerance: 0,
    diagonal: diagonal(region),
  });
  const wall = performance.now() - t0;
  const per = (v: number) => v / iterations;
  if (iterations > 1) {
    const laps = [...stages].map(([stage, ms]) => `${stage} ${fmt(per(ms))}`).join('; ');
    console.log(
      `  Voronoi stages per iteration (${region.isBox ? 'square' : 'star'}): ${laps}; CPU Delaunay in ${t.cpuDelaunay} of ${iterations}`,
    );
  }
  return [
    per(wall),
    per(t.voronoi),
    per(t.moments),
    fmt(per(t.hostRows), 4),
    per(t.evaluate - t.voronoi - t.moments),
    per(wall - t.evaluate),
  ];
}

/**
 * This morning's exact mode on the GPU: host cells from the dispatcher every evaluation, the
 * unique check by sorting, cells clipped by `clipCellsToRegion` (polyclip-ts where they cross),
 * every cell integrated on the host. Wall ms of `its` Lloyd iterations.
 */
async function legacyRun(region: CvtRegion, sites: Float64Array, its: number): Promise<number> {
  const cells = cvtCellSource('gpu');
  const box = region.box;
  const evaluate = async (x: Float64Array): Promise<CvtEvaluation> => {
    const count = x.length >> 1;
    const order = Int32Array.from({ length: count }, (_, i) => i).sort(
      (a, b) => x[2 * a] - x[2 * b] || x[2 * a + 1] - x[2 * b + 1] || a - b,
    );
    if (order.length !== count) throw new Error('unreachable');
    const raw = await cells(x, region.isBox ? box : grown(box));
    const m = cellMoments(count);
    const parts = region.isBox ? null : clipCellsToRegion(raw, region.clip);
    const span = {
      coords: parts?.coords ?? raw.coords,
      ringOffsets: parts?.ringOffsets ?? raw.ringOffsets,
      first: 0,
      last: 0,
    };
    for (let i = 0; i < count; i++) {
      span.first = parts ? parts.polygonOffsets[parts.geometryOffsets[i]] : i;
      span.last = parts ? parts.polygonOffsets[parts.geometryOffsets[i + 1]] : i + 1;
      addUniformMoments(span, x[2 * i], x[2 * i + 1], 1, m, i);
    }
    const gradient = new Float64Array(2 * count);
    const centroids = new Float64Array(2 * count);
    let energy = 0;
    let total = 0;
    for (let i = 0; i < count; i++) {
      energy += m.energy[i];
      total += m.mass[i];
      gradient[2 * i] = -2 * m.sx[i];
      gradient[2 * i + 1] = -2 * m.sy[i];
      centroids[2 * i] = m.mass[i] > 0 ? x[2 * i] + m.sx[i] / m.mass[i] : x[2 * i];
      centroids[2 * i + 1] = m.mass[i] > 0 ? x[2 * i + 1] + m.sy[i] / m.mass[i] : x[2 * i + 1];
    }
    return { energy, gradient, centroids, totalMass: total };
  };
  const t0 = performance.now();
  await runCvtAsync(sites, evaluate, {
    method: 'lloyd',
    maxIterations: its,
    tolerance: 0,
    diagonal: diagonal(region),
  });
  return performance.now() - t0;
}

function grown(b: Box): Box {
  const g = 0.1 * Math.max(b.maxX - b.minX, b.maxY - b.minY);
  return { minX: b.minX - g, minY: b.minY - g, maxX: b.maxX + g, maxY: b.maxY + g };
}
