// GPU sorting: median GPU time of the radix sort (key-value and key-only, 32-bit keys) and of the
// segmented sort (in-workgroup path) with their data already on the device; the bandwidth that is
// (counting the bytes every pass reads and writes: keys, values and the digit histograms); pairs
// per second; and the time of a plain copy kernel moving the same bytes, timed alternately with the
// sort after back-to-back copies that bring the clocks back up (the harness's timedVsCopy), and
// their ratio (the "× copy" column: 1 would be a sort as fast as moving its traffic once at device
// speed). Each result is checked against the input before it is timed (order, permutation,
// stability).
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/sort.ts`, then
//   node .gpu/bundle/sort.mjs [--small] [--runs N] [--warmup N]
// Sizes 2^20, 2^22, 2^24 pairs, segmented 2^20 elements in segments of ~6 and ~32; `--small` runs
// 2^12 and 2^16 (for a software GPU). At least 20 timed runs per measurement. Timing: GPU
// timestamps of two empty passes around the sort's own passes where `timestamp-query` exists,
// else wall time to `onSubmittedWorkDone`.
import { GpuProfiler } from '../../packages/gpu/src/index.js';
import { encodeRadixSort } from '../../packages/gpu/src/primitives/sort/radix-sort.js';
import { encodeSegmentedSort } from '../../packages/gpu/src/primitives/sort/segmented-sort.js';
import { planDigitPasses } from '../../packages/gpu/src/primitives/sort/sort-plan.js';
import { readback, uploadStorage } from '../../packages/gpu/src/runtime/buffers.js';
import { BufferUsage } from '../../packages/gpu/src/runtime/usage.js';
import {
  createBenchContext,
  describeDevice,
  type Encode,
  gbps,
  markdownTable,
  parseBenchArgs,
  submitAndWait,
  timedVsCopy,
} from './bench-harness.js';

const args = parseBenchArgs();
const timed = { runs: Math.max(20, args.runs), warmup: Math.max(2, args.warmup) };
const sizes = args.small ? [2 ** 12, 2 ** 16] : [2 ** 20, 2 ** 22, 2 ** 24];
const segmentedSize = args.small ? 2 ** 16 : 2 ** 20;
const ctx = await createBenchContext();
console.log(
  `radix / segmented sort — ${describeDevice(ctx)}; median of ${timed.runs} after ${timed.warmup} warm-up\n`,
);

/** Keys per radix tile and histogram bytes per tile and pass (256 u32 counters). */
const TILE = 2048;
const HISTOGRAM_BYTES = 256 * 4;

function randomWords(n: number, seed: number): Uint32Array {
  let a = seed >>> 0;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    out[i] = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) >>> 0;
  }
  return out;
}

/**
 * Throws unless `sortedIndex` is a permutation of [begin, end) that orders `keys` ascending with
 * ties in index order, and `sortedKeys` holds the keys in that order (a stable sort, checked
 * without sorting on the CPU).
 */
function checkStableSort(
  keys: Uint32Array,
  sortedKeys: Uint32Array,
  sortedIndex: Uint32Array,
  begin: number,
  end: number,
  seen: Uint8Array,
): void {
  for (let p = begin; p < end; p++) {
    const i = sortedIndex[p];
    if (i < begin || i >= end || seen[i])
      throw new Error(`sort check: index ${i} at ${p} is not a permutation`);
    seen[i] = 1;
    if (sortedKeys[p] !== keys[i]) throw new Error(`sort check: key at ${p} is not the key of index ${i}`);
    if (p > begin) {
      const [k0, k1] = [sortedKeys[p - 1], sortedKeys[p]];
      if (k0 > k1 || (k0 === k1 && sortedIndex[p - 1] > i))
        throw new Error(`sort check: order broken at ${p}`);
    }
  }
}

const rows: (string | number)[][] = [];
const profiler = new GpuProfiler(ctx);
const passes = planDigitPasses(32).length;

/** Times `encode` against a copy of the same traffic (read + written) and adds its row. */
async function timedRow(name: string, n: number, encode: Encode, traffic: number): Promise<void> {
  const t = await timedVsCopy(ctx, profiler, encode, traffic / 2, timed);
  rows.push([
    name,
    `2^${Math.log2(n)}`,
    t.median,
    gbps(traffic, t.median),
    n / t.median / 1e3,
    t.copy,
    t.ratio,
  ]);
}

for (const n of sizes) {
  const keys = randomWords(n, n);
  const index = Uint32Array.from({ length: n }, (_, i) => i);
  const blocks = Math.ceil(n / TILE);
  for (const withValues of [true, false]) {
    const keyBuffer = await uploadStorage(
      ctx,
      keys,
      'bench keys',
      BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    );
    const valueBuffer = await uploadStorage(
      ctx,
      index,
      'bench values',
      BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    );
    const values = withValues ? valueBuffer : undefined;
    const encode = (encoder: GPUCommandEncoder) =>
      encodeRadixSort(ctx, encoder, { keys: keyBuffer, values, count: n });
    await submitAndWait(ctx, encode);
    const sortedKeys = await readback(ctx, keyBuffer, new Uint32Array(n));
    if (withValues) {
      checkStableSort(
        keys,
        sortedKeys,
        await readback(ctx, valueBuffer, new Uint32Array(n)),
        0,
        n,
        new Uint8Array(n),
      );
    } else {
      for (let p = 1; p < n; p++)
        if (sortedKeys[p - 1] > sortedKeys[p]) throw new Error('key-only sort unsorted');
    }
    // the timed runs sort sorted keys, no faster for an LSD radix sort (every pass moves every
    // key); per pass: upsweep reads keys; downsweep reads keys (+ values) and writes them; the
    // histogram table is written, read and written by the scan, read by the downsweep
    const perPass = n * 4 * (withValues ? 5 : 3) + blocks * HISTOGRAM_BYTES * 4;
    await timedRow(withValues ? 'radix key-value' : 'radix key-only', n, encode, passes * perPass);
    keyBuffer.destroy();
    valueBuffer.destroy();
  }
}

for (const mean of [6, 32]) {
  const n = segmentedSize;
  const lengths: number[] = [];
  let total = 0;
  let seed = 12345 + mean;
  while (total < n) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const len = Math.min(n - total, 1 + (seed % (2 * mean - 1))); // uniform in [1, 2·mean − 1]
    lengths.push(len);
    total += len;
  }
  const offsets = new Uint32Array(lengths.length + 1);
  lengths.forEach((len, s) => {
    offsets[s + 1] = offsets[s] + len;
  });
  const keys = randomWords(n, 99 + mean);
  const index = Uint32Array.from({ length: n }, (_, i) => i);
  const keyBuffer = await uploadStorage(ctx, keys, 'bench keys', BufferUsage.COPY_SRC);
  const valueBuffer = await uploadStorage(ctx, index, 'bench values', BufferUsage.COPY_SRC);
  const offsetBuffer = await uploadStorage(ctx, offsets, 'bench offsets');
  const encode = (encoder: GPUCommandEncoder) =>
    encodeSegmentedSort(ctx, encoder, {
      keys: keyBuffer,
      values: valueBuffer,
      segmentOffsets: offsetBuffer,
      segments: lengths.length,
      count: n,
      maxSegmentLength: 2 * mean - 1,
    });
  await submitAndWait(ctx, encode);
  const sortedKeys = await readback(ctx, keyBuffer, new Uint32Array(n));
  const sortedIndex = await readback(ctx, valueBuffer, new Uint32Array(n));
  const seen = new Uint8Array(n);
  for (let s = 0; s < lengths.length; s++) {
    checkStableSort(keys, sortedKeys, sortedIndex, offsets[s], offsets[s + 1], seen);
  }
  // the sort is in place: later runs sort sorted segments, which the odd–even path finishes in
  // the same number of rounds (it runs as many rounds as the longest segment, whatever the order)
  await timedRow(`segmented, segments ~${mean}`, n, encode, n * 16 + offsets.byteLength);
  for (const b of [keyBuffer, valueBuffer, offsetBuffer]) b.destroy();
}
profiler.destroy();
console.log(
  markdownTable(['sort', 'elements', 'ms', 'GB/s', 'Mpairs/s', 'copy ms (same time)', '× copy'], rows),
);
ctx.destroy();
