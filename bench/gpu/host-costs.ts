// Where the host's time goes in the GPU Voronoi pipeline, on the GPU host:
// - Dawn's per-call costs the pipeline pays while recording (a small mapped-at-creation uniform
//   buffer, a bind group, a small writeBuffer, an empty submission, a small readback round trip);
// - the copy of a 112 MiB mapped range into host memory on this thread, and whether posting the
//   range to a worker thread transfers it or copies it (Dawn's mapped ranges are external
//   ArrayBuffers);
// - `voronoiCellsGpu` at 1e6 and 1e7 uniform sites with its stage laps, under V8's sampling
//   profiler: the profiles are written to $OUT (or the working directory) as .cpuprofile files;
// - `voronoiPolygons({ device: 'gpu' })` on the same sites as a point column (`computeVoronoi`,
//   what `GeoSeries.voronoiPolygons` runs), end to end, and its steps before the pipeline (the
//   unique sites, the clip box).
// With `node --expose-gc`, the heap is collected before each timed run (untimed): the previous
// run's output (1.1 GB at 1e7) is otherwise freed inside the next one.
//
//   tsc -b (the geo package runs the built GPU package), pack.sh bench/gpu/host-costs.ts, then
//   node --expose-gc .gpu/bundle/host-costs.mjs [--runs N]
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { clipBox, GeometryArray, GeometryType, uniqueSites } from '../../packages/core/src/index.js';
import { preparedFloat64Array } from '../../packages/cpu/src/index.js';
import { CPU_STAGES } from '../../packages/geo/src/ops/engines.js';
import { gatherInputSites } from '../../packages/geo/src/voronoi/input-sites.js';
import { computeVoronoi } from '../../packages/geo/src/voronoi/voronoi-polygons.js';
import { voronoiCellsGpu } from '../../packages/gpu/src/index.js';
import { planned, recordDispatches } from '../../packages/gpu/src/primitives/dispatch-recorder.js';
import { defineKernel } from '../../packages/gpu/src/runtime/pipeline-cache.js';
import { BufferUsage, MapMode } from '../../packages/gpu/src/runtime/usage.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import {
  copyEncoder,
  createBenchContext,
  createCopyPair,
  describeDevice,
  fmt,
  heat,
  median,
  parseBenchArgs,
} from './bench-harness.js';

const args = parseBenchArgs();
const collect = (globalThis as { gc?: () => void }).gc;
const out = process.env.OUT ?? '.';
const ctx = await createBenchContext();
const { device } = ctx;
const [src, dst] = await createCopyPair(ctx, 64 << 20);
const copy = await copyEncoder(ctx, src, dst);
console.log(
  `host costs — ${describeDevice(ctx)}; medians of ${args.runs}; heap collected before timed runs: ${collect ? 'yes' : 'no'}\n`,
);

/** Median over `runs` of the mean time of `count` calls of `fn` (µs a call). */
async function perCall(count: number, fn: (i: number) => unknown): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < args.runs; r++) {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) await fn(i);
    times.push(((performance.now() - t0) * 1e3) / count);
  }
  return median(times);
}

const NOOP = defineKernel({
  name: 'host-costs/noop',
  bindings: { b: 1 },
  source: () => `@group(0) @binding(0) var<uniform> p: vec4u;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { if (g.x < p.x) { b[g.x] = p.y; } }`,
});
const pipeline = await ctx.pipelines.get(NOOP, {});
const target = device.createBuffer({ size: 1 << 16, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC });
const uniform = device.createBuffer({ size: 256, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
const small = device.createBuffer({ size: 256, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
const rows: [string, number][] = [];
rows.push([
  'createBuffer 256 B uniform, mapped at creation, written, unmapped',
  await perCall(200, () => {
    const b = device.createBuffer({ size: 256, usage: BufferUsage.UNIFORM, mappedAtCreation: true });
    new Uint32Array(b.getMappedRange()).set([1, 2, 3, 4]);
    b.unmap();
  }),
]);
rows.push([
  "pushErrorScope('out-of-memory') + popErrorScope, queue idle",
  await perCall(50, async () => {
    device.pushErrorScope('out-of-memory');
    await device.popErrorScope();
  }),
]);
rows.push([
  'pushErrorScope + popErrorScope after submitting 20 copies of 64 MiB',
  await perCall(10, async () => {
    device.pushErrorScope('out-of-memory');
    const encoder = device.createCommandEncoder();
    for (let i = 0; i < 20; i++) await copy(encoder);
    device.queue.submit([encoder.finish()]);
    await device.popErrorScope();
    await device.queue.onSubmittedWorkDone();
  }),
]);
rows.push([
  'createBindGroup (2 entries)',
  await perCall(200, () =>
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: uniform } },
        { binding: 1, resource: { buffer: target } },
      ],
    }),
  ),
]);
rows.push([
  'queue.writeBuffer 256 B',
  await perCall(200, () => device.queue.writeBuffer(uniform, 0, new Uint32Array([1, 2, 3, 4]))),
]);
rows.push([
  'recordDispatches, one dispatch (params buffer, bind group, pass)',
  await perCall(100, async () => {
    const encoder = device.createCommandEncoder();
    await recordDispatches(
      ctx,
      encoder,
      'noop',
      [planned(NOOP, { params: [1, 2], buffers: { b: target }, workgroups: 1 })],
      65535,
    );
    encoder.finish();
  }),
]);
rows.push([
  'empty submission + onSubmittedWorkDone',
  await perCall(50, async () => {
    device.queue.submit([device.createCommandEncoder().finish()]);
    await device.queue.onSubmittedWorkDone();
  }),
]);
rows.push([
  'copy 256 B to a MAP_READ buffer, mapAsync, read, unmap',
  await perCall(50, async () => {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(target, 0, small, 0, 256);
    device.queue.submit([encoder.finish()]);
    await small.mapAsync(MapMode.READ);
    new Uint32Array(small.getMappedRange())[0];
    small.unmap();
  }),
]);
console.log('| Dawn call | µs a call |\n| --- | ---: |');
for (const [what, us] of rows) console.log(`| ${what} | ${fmt(us)} |`);

// a 112 MiB readback: this thread's copy, and a worker's receipt of the mapped range
const bytes = 112 << 20;
const big = device.createBuffer({ size: bytes, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC });
const bigRead = device.createBuffer({ size: bytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
const dest = await preparedFloat64Array(bytes / 8);
const worker = new Worker(
  `const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ range, dest }) => {
  const t = performance.now();
  new Uint8Array(dest.buffer).set(new Uint8Array(range));
  parentPort.postMessage(performance.now() - t);
});`,
  { eval: true },
);
const copyTimes: number[] = [];
const postTimes: number[] = [];
const workerTimes: number[] = [];
let detached = false;
for (let r = 0; r < args.runs + 1; r++) {
  for (const viaWorker of [false, true]) {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(big, 0, bigRead, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await bigRead.mapAsync(MapMode.READ);
    const range = bigRead.getMappedRange();
    const t0 = performance.now();
    if (!viaWorker) {
      new Uint8Array(dest.buffer).set(new Uint8Array(range));
      if (r > 0) copyTimes.push(performance.now() - t0);
    } else {
      const reply = new Promise<number>((resolve) => worker.once('message', resolve));
      worker.postMessage({ range, dest }, [range]);
      const posted = performance.now() - t0;
      detached = range.byteLength === 0;
      const inWorker = await reply;
      if (r > 0) {
        postTimes.push(posted);
        workerTimes.push(inWorker);
      }
    }
    bigRead.unmap();
  }
}
await worker.terminate();
console.log(
  `\n112 MiB out of a mapped range: this thread's copy ${fmt(median(copyTimes))} ms; posted to a worker with the range in the transfer list: postMessage ${fmt(median(postTimes))} ms (range ${detached ? 'detached: transferred' : 'still attached: copied'}), the worker's copy ${fmt(median(workerTimes))} ms`,
);

// garbage collection inside the timed runs (the heap is collected before each, untimed)
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

// the pipeline under the sampling profiler
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
for (const n of (process.env.SIZES ?? '1e6,1e7').split(',').map(Number)) {
  const sites = uniqueSites(generatePoints('uniform', n, 42)).xy;
  const box = clipBox(sites, null);
  const runs = n >= 1e7 ? Math.min(3, args.runs) : args.runs;
  await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES });
  const walls: number[] = [];
  const gcs: number[] = [];
  const stages = new Map<string, number[]>();
  await session.post('Profiler.start');
  for (let r = 0; r < runs; r++) {
    collect?.();
    await heat(ctx, copy, 250);
    // the observer reports after the fact: let the collection above be counted before the clock
    await new Promise((resolve) => setTimeout(resolve, 5));
    const gcBefore = gcMs;
    const t0 = performance.now();
    const { stats } = await voronoiCellsGpu(ctx, sites, box, { cpu: CPU_STAGES });
    walls.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    gcs.push(gcMs - gcBefore);
    for (const { stage, ms } of stats.stages) stages.set(stage, [...(stages.get(stage) ?? []), ms]);
  }
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(`${out}/voronoi-${n}.cpuprofile`, JSON.stringify(profile));
  console.log(
    `\nvoronoiCellsGpu ${n.toExponential(0)}: ${fmt(median(walls))} ms (median of ${runs}); garbage collection within: ${fmt(median(gcs))} ms`,
  );
  for (const [stage, t] of stages) console.log(`  ${stage}: ${fmt(median(t))}`);

  // the same sites as a point column, through the public API
  const column = new GeometryArray({
    type: GeometryType.Point,
    dimension: 'xy',
    coords: sites,
    offsets: [],
    length: n,
    crs: null,
  });
  await computeVoronoi(column, { device: 'gpu' });
  const seriesWalls: number[] = [];
  const before: number[] = [];
  for (let r = 0; r < runs; r++) {
    collect?.();
    await heat(ctx, copy, 250);
    let t0 = performance.now();
    const prepared = await gatherInputSites(column, undefined);
    clipBox(prepared.unique.xy, null, prepared.box);
    before.push(performance.now() - t0);
    collect?.();
    await heat(ctx, copy, 250);
    t0 = performance.now();
    const { geometry, dispatch } = await computeVoronoi(column, { device: 'gpu' });
    seriesWalls.push(performance.now() - t0);
    if (geometry.length !== n || dispatch.type === 'fallback')
      throw new Error(`${geometry.length} cells for ${n} sites (${dispatch.type})`);
  }
  console.log(
    `voronoiPolygons({ device: 'gpu' }) (computeVoronoi, what GeoSeries.voronoiPolygons runs) ${n.toExponential(0)}: ${fmt(median(seriesWalls))} ms; of which the unique sites and the clip box ${fmt(median(before))}`,
  );
}
session.disconnect();
process.exit(0);
