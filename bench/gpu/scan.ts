// Scan, compaction and histogram on the GPU: median GPU time of each primitive with its data
// already on the device, the bandwidth it reaches (bytes read + written once each, as a lower
// bound on its traffic) and its time over a plain vec4 copy kernel of the same bytes (the
// "× copy" column: 1 is device speed; reduce-then-scan, reading twice, cannot beat 1.5, a
// single-pass scan can approach 1). The copy is timed alternately with each primitive and the
// ratio taken to that copy, because the GPU's clocks change during a run: after CPU-only
// stretches (references, checks) the driver may lower them and short timed submissions do not
// always bring them back; each size also starts with ~300 ms of back-to-back copies. Every result
// is checked against a CPU reference before it is timed.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/scan.ts`, then
//   node .gpu/bundle/scan.mjs [--small] [--diag] [--runs N] [--warmup N]
// Sizes 2^20, 2^24, 2^25, 2^26 u32; `--small` runs 2^12 and 2^16 (for a software GPU). At least 20
// timed runs per measurement. `--diag` adds rows that separate the scan's own cost from its
// surroundings (the copy kernel reading the uploaded input buffer, scans of a GPU-written input,
// the chained scan without subgroups). Timing: GPU timestamps of two empty passes around the
// primitive's own passes where `timestamp-query` exists, else wall time to `onSubmittedWorkDone`.
import {
  BufferUsage,
  createStorage,
  encodeCompact,
  encodeHistogram,
  encodeScan,
  type GpuContext,
  GpuProfiler,
  type KernelSpec,
  readback,
  type ScanVariant,
  uploadStorage,
} from '../../packages/gpu/src/index.js';
import { encodeScanWith } from '../../packages/gpu/src/primitives/scan/encode-scan.js';
import {
  copyKernel,
  createBenchContext,
  describeDevice,
  gbps,
  markdownTable,
  median,
  parseBenchArgs,
} from './bench-harness.js';

const argv = process.argv.slice(2);
const diag = argv.includes('--diag');
const args = parseBenchArgs(argv.filter((a) => a !== '--diag'));
const timed = { runs: Math.max(20, args.runs), warmup: Math.max(2, args.warmup) };
const sizes = args.small ? [2 ** 12, 2 ** 16] : [2 ** 20, 2 ** 24, 2 ** 25, 2 ** 26];
const ctx = await createBenchContext();
console.log(
  `scan / compact / histogram — ${describeDevice(ctx)}; subgroups ${ctx.features.subgroups}; ` +
    `median of ${timed.runs} after ${timed.warmup} warm-up\n`,
);

/**
 * GPU time in ms of what `encode` records: the gap between two empty timestamped passes around
 * it (the primitive records its own passes), or wall time without timestamp queries.
 */
async function bracketMs(
  ctx: GpuContext,
  profiler: GpuProfiler,
  encode: (encoder: GPUCommandEncoder) => Promise<void>,
): Promise<number> {
  await ctx.device.queue.onSubmittedWorkDone();
  const encoder = ctx.device.createCommandEncoder();
  // untimed filler first, so the GPU is busy most of the time and keeps its clocks
  if (filler) for (let i = 0; i < filler.times; i++) await encodeCopy4(encoder, filler.src, filler.dst);
  encoder.beginComputePass(profiler.passDescriptor('before')).end();
  await encode(encoder);
  encoder.beginComputePass(profiler.passDescriptor('after')).end();
  profiler.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  const passes = await profiler.read();
  if (profiler.source === 'wall') return passes[0].ms;
  return Math.max(0, passes[1].startMs - (passes[0].startMs + passes[0].ms));
}

function randomWords(n: number, seed: number, mask: number): Uint32Array {
  let a = seed >>> 0;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    out[i] = (a >>> 8) & mask;
  }
  return out;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`${what}: the GPU result differs from the CPU reference`);
}

/** The harness's copy, recordable into any encoder on any buffers (one vec4<u32> per thread). */
const COPY4: KernelSpec<{ workgroupSize: number }> = {
  name: 'bench/scan-copy-vec4',
  source: () => /* wgsl */ `
@group(0) @binding(0) var<storage, read> src: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4u>;
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * 256u + lid;
  if (i < arrayLength(&dst)) {
    dst[i] = src[i];
  }
}
`,
};

async function encodeCopy4(encoder: GPUCommandEncoder, src: GPUBuffer, dst: GPUBuffer): Promise<void> {
  const pipeline = await ctx.pipelines.get(COPY4, { workgroupSize: 256 });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    ctx.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: src } },
        { binding: 1, resource: { buffer: dst } },
      ],
    }),
  );
  const groups = Math.ceil(dst.size / 16 / 256);
  const y = Math.ceil(groups / 65535);
  pass.dispatchWorkgroups(Math.ceil(groups / y), y);
  pass.end();
}

/**
 * Keeps the GPU busy with back-to-back copies for about `ms` milliseconds: after the CPU-only
 * stretches of this script (references, checks) the driver may have lowered the clocks, and a
 * few short timed submissions do not bring them back.
 */
async function heat(ms: number, src: GPUBuffer, dst: GPUBuffer): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const encoder = ctx.device.createCommandEncoder();
    for (let i = 0; i < 20; i++) await encodeCopy4(encoder, src, dst);
    ctx.device.queue.submit([encoder.finish()]);
    await ctx.device.queue.onSubmittedWorkDone();
  }
}

/**
 * Median GPU time of `encode` and of the copy kernel on `copyPair` (the same bytes), timed
 * alternately so that both see the same clocks: the "× copy" column is their ratio.
 */
async function timedVsCopy(
  encode: (encoder: GPUCommandEncoder) => Promise<void>,
  copyPair: [GPUBuffer, GPUBuffer],
): Promise<{ median: number; copy: number; min: number }> {
  const copy = (e: GPUCommandEncoder) => encodeCopy4(e, copyPair[0], copyPair[1]);
  await heat(150, copyPair[0], copyPair[1]);
  for (let i = 0; i < timed.warmup; i++) {
    await bracketMs(ctx, profiler, copy);
    await bracketMs(ctx, profiler, encode);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < timed.runs; i++) {
    b.push(await bracketMs(ctx, profiler, copy));
    a.push(await bracketMs(ctx, profiler, encode));
  }
  return { median: median(a), copy: median(b), min: Math.min(...a) };
}

/** Copies recorded before every timed region (see {@link bracketMs}); set per size. */
let filler: { src: GPUBuffer; dst: GPUBuffer; times: number } | null = null;

const rows: (string | number)[][] = [];
const profiler = new GpuProfiler(ctx);
for (const n of sizes) {
  const bytes = n * 4;
  const pair: [GPUBuffer, GPUBuffer] = [
    await createStorage(ctx, bytes, 'bench copy source'),
    await createStorage(ctx, bytes, 'bench copy target'),
  ];
  // about 1 ms of copies before each timed region (less on a software GPU)
  filler = { src: pair[0], dst: pair[1], times: args.small ? 1 : Math.ceil(2 ** 26 / n) * 4 };
  await heat(300, pair[0], pair[1]);
  const copy = await copyKernel(ctx, bytes, timed);
  rows.push(['copy (vec4)', `2^${Math.log2(n)}`, copy.median, gbps(2 * bytes, copy.median), copy.median, 1]);
  const row = (name: string, t: { median: number; copy: number }, moved: number) =>
    rows.push([name, `2^${Math.log2(n)}`, t.median, gbps(moved, t.median), t.copy, t.median / t.copy]);

  const values = randomWords(n, 1, 0xffffffff);
  const input = await uploadStorage(ctx, values, 'bench scan input', BufferUsage.COPY_SRC);
  const output = await createStorage(ctx, bytes, 'bench scan output', BufferUsage.COPY_SRC);
  const expected = new Uint32Array(n);
  for (let i = 1; i < n; i++) expected[i] = (expected[i - 1] + values[i - 1]) >>> 0;
  // a GPU-written copy of the input (never mapped): the same bytes in a buffer made like the copy's
  const gpuInput = await createStorage(
    ctx,
    bytes,
    'bench gpu-written input',
    BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
  );
  {
    const enc = ctx.device.createCommandEncoder();
    enc.copyBufferToBuffer(input, 0, gpuInput, 0, bytes);
    ctx.device.queue.submit([enc.finish()]);
  }
  if (diag) {
    const b = await timedVsCopy((e) => encodeCopy4(e, input, output), pair);
    row('diag: copy from the uploaded input', b, 2 * bytes);
  }
  const variants: [string, ScanVariant, number | undefined][] = [
    ['scan reduce-then-scan', 'reduce-then-scan', undefined],
    ['scan chained (vec4 ×4)', 'chained', 4],
    ['scan chained (vec4 ×2)', 'chained', 2],
    ['scan chained (vec4 ×6)', 'chained', 6],
    ['scan chained (vec4 ×8)', 'chained', 8],
  ];
  for (const [name, variant, vectorsPerThread] of variants) {
    const encode = (encoder: GPUCommandEncoder) =>
      vectorsPerThread === undefined
        ? encodeScan(ctx, encoder, { input, output, count: n, variant })
        : encodeScanWith(ctx, encoder, { input, output, count: n, variant }, { vectorsPerThread });
    await bracketMs(ctx, profiler, encode);
    const got = await readback(ctx, output, new Uint32Array(n));
    check(
      got.every((v, i) => v === expected[i]),
      name,
    );
    const t = await timedVsCopy(encode, pair);
    row(name, t, 2 * bytes);
  }
  if (diag) {
    for (const [name, variant, source] of [
      ['diag: reduce-then-scan of the GPU-written input', 'reduce-then-scan', gpuInput],
      ['diag: chained of the GPU-written input', 'chained', gpuInput],
      ['diag: chained, no subgroups (scalar kernel)', 'chained', input],
    ] as const) {
      const encode = (encoder: GPUCommandEncoder) =>
        encodeScan(ctx, encoder, {
          input: source,
          output,
          count: n,
          variant,
          useSubgroups: !name.includes('no subgroups'),
        });
      await bracketMs(ctx, profiler, encode);
      const got = await readback(ctx, output, new Uint32Array(n));
      check(
        got.every((v, i) => v === expected[i]),
        name,
      );
      const t = await timedVsCopy(encode, pair);
      row(name, t, 2 * bytes);
    }
  }
  gpuInput.destroy();

  const flags = randomWords(n, 2, 1);
  const flagBuffer = await uploadStorage(ctx, flags, 'bench flags');
  const countOut = await createStorage(ctx, 4, 'bench count', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
  const kept = flags.reduce((s, f) => s + f, 0);
  const compact = (encoder: GPUCommandEncoder) =>
    encodeCompact(ctx, encoder, { flags: flagBuffer, count: n, indicesOut: output, countOut });
  await bracketMs(ctx, profiler, compact);
  check((await readback(ctx, countOut, new Uint32Array(1)))[0] === kept, 'compact count');
  const t = await timedVsCopy(compact, pair);
  row('compact (50% kept)', t, bytes + kept * 4);

  for (const bins of [256, 65536]) {
    const keys = randomWords(n, 3, bins - 1);
    const keyBuffer = await uploadStorage(ctx, keys, 'bench keys');
    const counts = await createStorage(
      ctx,
      bins * 4,
      'bench counts',
      BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    );
    const histogram = (encoder: GPUCommandEncoder) =>
      encodeHistogram(ctx, encoder, { keys: keyBuffer, count: n, bins, countsOut: counts });
    await bracketMs(ctx, profiler, histogram);
    const cpu = new Uint32Array(bins);
    for (const k of keys) cpu[k]++;
    const gpu = await readback(ctx, counts, new Uint32Array(bins));
    check(
      gpu.every((v, i) => v === cpu[i]),
      `histogram ${bins}`,
    );
    const h = await timedVsCopy(histogram, pair);
    row(`histogram ${bins} bins`, h, bytes);
    keyBuffer.destroy();
    counts.destroy();
  }
  for (const b of [input, output, flagBuffer, countOut, ...pair]) b.destroy();
}
profiler.destroy();
console.log(markdownTable(['primitive', 'elements', 'ms', 'GB/s', 'copy ms (same time)', '× copy'], rows));
ctx.destroy();
