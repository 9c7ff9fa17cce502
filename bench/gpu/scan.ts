// Scan, compaction and histogram on the GPU: median GPU time of each primitive with its data
// already on the device, the bandwidth it reaches (bytes read + written once each, as a lower
// bound on its traffic) and its time over a plain vec4 copy kernel of the same bytes (the
// "× copy" column: 1 is device speed; reduce-then-scan, reading twice, cannot beat 1.5, a
// single-pass scan can approach 1). Timed with the harness's timedVsCopy: the copy is timed
// alternately with each primitive after back-to-back copies that bring the clocks back up (the
// driver lowers them during the CPU-only stretches: references, checks). Every result is checked
// against a CPU reference before it is timed.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/scan.ts`, then
//   node .gpu/bundle/scan.mjs [--small] [--diag] [--runs N] [--warmup N]
// Sizes 2^20, 2^24, 2^25, 2^26 u32; `--small` runs 2^12 and 2^16 (for a software GPU). At least 20
// timed runs per measurement. `--diag` adds rows that separate the scan's own cost from its
// surroundings (the copy kernel reading the uploaded input buffer, scans of a GPU-written input,
// the chained scan without subgroups). Timing: GPU timestamps of two empty passes around the
// primitive's own passes where `timestamp-query` exists, else wall time to `onSubmittedWorkDone`.
import { GpuProfiler } from '../../packages/gpu/src/index.js';
import { encodeCompact } from '../../packages/gpu/src/primitives/compact/index.js';
import { encodeHistogram } from '../../packages/gpu/src/primitives/histogram/index.js';
import { encodeScanWith } from '../../packages/gpu/src/primitives/scan/encode-scan.js';
import { encodeScan, type ScanVariant } from '../../packages/gpu/src/primitives/scan/index.js';
import { createStorage, readback, uploadStorage } from '../../packages/gpu/src/runtime/buffers.js';
import { BufferUsage } from '../../packages/gpu/src/runtime/usage.js';
import {
  type CopyTiming,
  copyEncoder,
  createBenchContext,
  createCopyPair,
  describeDevice,
  type Encode,
  gbps,
  markdownTable,
  parseBenchArgs,
  submitAndWait,
  timedVsCopy,
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
  const pair = await createCopyPair(ctx, bytes);
  const time = (encode: Encode) => timedVsCopy(ctx, profiler, encode, pair, timed);
  const row = (name: string, t: CopyTiming, moved: number) =>
    rows.push([name, `2^${Math.log2(n)}`, t.median, gbps(moved, t.median), t.copy, t.ratio]);
  // the copy against itself: its ratio shows how far two medians of the same work drift apart
  row('copy (vec4)', await time(await copyEncoder(ctx, pair[0], pair[1])), 2 * bytes);

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
    row('diag: copy from the uploaded input', await time(await copyEncoder(ctx, input, output)), 2 * bytes);
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
    await submitAndWait(ctx, encode);
    const got = await readback(ctx, output, new Uint32Array(n));
    check(
      got.every((v, i) => v === expected[i]),
      name,
    );
    const t = await time(encode);
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
      await submitAndWait(ctx, encode);
      const got = await readback(ctx, output, new Uint32Array(n));
      check(
        got.every((v, i) => v === expected[i]),
        name,
      );
      const t = await time(encode);
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
  await submitAndWait(ctx, compact);
  check((await readback(ctx, countOut, new Uint32Array(1)))[0] === kept, 'compact count');
  const t = await time(compact);
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
    await submitAndWait(ctx, histogram);
    const cpu = new Uint32Array(bins);
    for (const k of keys) cpu[k]++;
    const gpu = await readback(ctx, counts, new Uint32Array(bins));
    check(
      gpu.every((v, i) => v === cpu[i]),
      `histogram ${bins}`,
    );
    const h = await time(histogram);
    row(`histogram ${bins} bins`, h, bytes);
    keyBuffer.destroy();
    counts.destroy();
  }
  for (const b of [input, output, flagBuffer, countOut, ...pair]) b.destroy();
}
profiler.destroy();
console.log(markdownTable(['primitive', 'elements', 'ms', 'GB/s', 'copy ms (same time)', '× copy'], rows));
ctx.destroy();
