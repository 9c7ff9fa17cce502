// Scan, compaction and histogram on the GPU: median GPU time of each primitive with its data
// already on the device, the bandwidth it reaches (bytes read + written once each, as a lower
// bound on its traffic) and its time over a plain copy kernel of the same bytes measured in the
// same run (the "× copy" column: 1 is device speed; a scan moves the same bytes as a copy, so
// reduce-then-scan, reading twice, should land near 1.5 and the chained scan near 1). Every
// result is checked against a CPU reference before it is timed.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/scan.ts`, then
//   node .gpu/bundle/scan.mjs [--small] [--runs N] [--warmup N]
// Sizes 2^20, 2^24, 2^26 u32; `--small` runs 2^12 and 2^16 (for a software GPU). At least 20
// timed runs per measurement. Timing: GPU timestamps of two empty passes around the primitive's
// own passes where `timestamp-query` exists, else wall time to `onSubmittedWorkDone`.
import {
  BufferUsage,
  createStorage,
  encodeCompact,
  encodeHistogram,
  encodeScan,
  type GpuContext,
  GpuProfiler,
  readback,
  type ScanVariant,
  uploadStorage,
} from '../../packages/gpu/src/index.js';
import {
  copyKernel,
  createBenchContext,
  describeDevice,
  gbps,
  markdownTable,
  measure,
  parseBenchArgs,
} from './bench-harness.js';

const args = parseBenchArgs();
const timed = { runs: Math.max(20, args.runs), warmup: Math.max(2, args.warmup) };
const sizes = args.small ? [2 ** 12, 2 ** 16] : [2 ** 20, 2 ** 24, 2 ** 26];
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

const rows: (string | number)[][] = [];
const profiler = new GpuProfiler(ctx);
for (const n of sizes) {
  const bytes = n * 4;
  const copy = await copyKernel(ctx, bytes, timed);
  rows.push(['copy (vec4)', `2^${Math.log2(n)}`, copy.median, gbps(2 * bytes, copy.median), 1]);
  const row = (name: string, ms: number, moved: number) =>
    rows.push([name, `2^${Math.log2(n)}`, ms, gbps(moved, ms), ms / copy.median]);

  const values = randomWords(n, 1, 0xffffffff);
  const input = await uploadStorage(ctx, values, 'bench scan input', BufferUsage.COPY_SRC);
  const output = await createStorage(ctx, bytes, 'bench scan output', BufferUsage.COPY_SRC);
  const expected = new Uint32Array(n);
  for (let i = 1; i < n; i++) expected[i] = (expected[i - 1] + values[i - 1]) >>> 0;
  for (const variant of ['reduce-then-scan', 'chained'] as ScanVariant[]) {
    const encode = (encoder: GPUCommandEncoder) =>
      encodeScan(ctx, encoder, { input, output, count: n, variant });
    await bracketMs(ctx, profiler, encode);
    const got = await readback(ctx, output, new Uint32Array(n));
    check(
      got.every((v, i) => v === expected[i]),
      `scan ${variant}`,
    );
    const t = await measure(() => bracketMs(ctx, profiler, encode), timed);
    row(`scan ${variant}`, t.median, 2 * bytes);
  }

  const flags = randomWords(n, 2, 1);
  const flagBuffer = await uploadStorage(ctx, flags, 'bench flags');
  const countOut = await createStorage(ctx, 4, 'bench count', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
  const kept = flags.reduce((s, f) => s + f, 0);
  const compact = (encoder: GPUCommandEncoder) =>
    encodeCompact(ctx, encoder, { flags: flagBuffer, count: n, indicesOut: output, countOut });
  await bracketMs(ctx, profiler, compact);
  check((await readback(ctx, countOut, new Uint32Array(1)))[0] === kept, 'compact count');
  const t = await measure(() => bracketMs(ctx, profiler, compact), timed);
  row('compact (50% kept)', t.median, bytes + kept * 4);

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
    const h = await measure(() => bracketMs(ctx, profiler, histogram), timed);
    row(`histogram ${bins} bins`, h.median, bytes);
    keyBuffer.destroy();
    counts.destroy();
  }
  for (const b of [input, output, flagBuffer, countOut]) b.destroy();
}
profiler.destroy();
console.log(markdownTable(['primitive', 'elements', 'ms', 'GB/s', '× copy'], rows));
ctx.destroy();
