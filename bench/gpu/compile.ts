// First-use pipeline compilation, kernel by kernel: every public GPU operation runs once on a
// small input (device 'gpu', through the geo API, so the kernels compiled are the ones users
// meet), then the shared context's compile log is printed, slowest first, with each operation's
// first and second wall time (the difference is mostly compilation). A fresh lend's driver cache
// is empty, so this is what a user's first call costs on that card.
//
// Bundle with esbuild (the `webgpu` package left external; the GPU host's packing script does it), then
//   node .gpu/bundle/compile.mjs

// the geo package's own instance of @geoframe/gpu, so that its shared context is the one read here
import { getGpuContext } from '@geoframe/gpu';
import { GeoSeries } from '../../packages/geo/src/index.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import { describeDevice, fmt, markdownTable } from './bench-harness.js';

const ctx = await getGpuContext();
console.log(`first-use compilation — ${describeDevice(ctx)}\n`);

const xy = generatePoints('uniform', 2000, 11);
const xs = Float64Array.from({ length: xy.length / 2 }, (_, i) => xy[2 * i] as number);
const ys = Float64Array.from({ length: xy.length / 2 }, (_, i) => xy[2 * i + 1] as number);
const points = GeoSeries.fromXY(xs, ys);
const side = 64;
const cost = {
  values: Float32Array.from({ length: side * side }, (_, i) => 1 + ((i * 7919) % 13)),
  width: side,
  height: side,
  bounds: [0, 0, 1000, 1000] as [number, number, number, number],
};

const operations: [string, () => Promise<unknown>][] = [
  ['voronoiPolygons', () => points.voronoiPolygons({ device: 'gpu' })],
  [
    'voronoiPolygons keep device + area',
    async () => {
      const cells = await points.voronoiPolygons({ device: 'gpu', keep: 'device' });
      return (cells as { area(): Promise<unknown> }).area();
    },
  ],
  ['delaunayTriangles', () => points.delaunayTriangles({ device: 'gpu' })],
  ...(['exact', 'jfa', 'jfa+1', '1+jfa', 'facet-jfa'] as const).map(
    (mode) =>
      [
        `voronoiRaster ${mode}`,
        () => points.voronoiRaster({ width: 256, height: 256, mode, device: 'gpu' }),
      ] as [string, () => Promise<unknown>],
  ),
  ['voronoiVolume', () => points.voronoiVolume({ dims: [32, 32, 8], z: 0, device: 'gpu' })],
  ['costAllocation', () => points.costAllocation({ cost, device: 'gpu' })],
  [
    'centroidalVoronoi raster',
    () => points.centroidalVoronoi({ mode: 'raster', iterations: 5, resolution: 128, device: 'gpu' }),
  ],
  [
    'centroidalVoronoi exact',
    () => points.centroidalVoronoi({ mode: 'exact', iterations: 2, device: 'gpu' }),
  ],
];

const rows: string[][] = [];
for (const [name, run] of operations) {
  const compiled = ctx.pipelines.compileLog.length;
  const t0 = performance.now();
  let outcome = 'ok';
  try {
    await run();
  } catch (error) {
    outcome = `failed: ${(error as Error).message.slice(0, 120)}`;
  }
  const first = performance.now() - t0;
  const t1 = performance.now();
  if (outcome === 'ok') await run();
  const second = performance.now() - t1;
  const kernels = ctx.pipelines.compileLog.length - compiled;
  rows.push([name, fmt(first), outcome === 'ok' ? fmt(second) : outcome, String(kernels)]);
  console.log(`${name}: first ${fmt(first)} ms, second ${fmt(second)} ms, ${kernels} kernels compiled`);
}
console.log(`\n${markdownTable(['operation', 'first call ms', 'second call ms', 'kernels compiled'], rows)}`);

const log = [...ctx.pipelines.compileLog].sort((a, b) => b.ms - a.ms);
const total = log.reduce((sum, { ms }) => sum + ms, 0);
console.log(
  `\n${log.length} pipelines, ${fmt(total)} ms of compilation in all (overlapping ones count each); slowest:`,
);
console.log(
  markdownTable(
    ['kernel', 'compile ms'],
    log.slice(0, 25).map(({ kernel, ms }) => [kernel, fmt(ms)]),
  ),
);
process.exit(0);
