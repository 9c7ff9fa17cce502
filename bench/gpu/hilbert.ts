// Hilbert keys on the GPU: kernel time (cells already on the GPU), its bandwidth and its ratio to
// a plain copy kernel of the same traffic timed alongside it (the harness's timedVsCopy, which
// brings the clocks back up after the CPU work first), the whole call (CPU quantization, upload, kernel,
// readback) and the CPU reference, for 1M and 16M uniform points with 16- and 32-bit keys.
// Every GPU result is checked against the CPU keys before it is timed.
//
// Bundle with esbuild (the `webgpu` package left external) and run with Node, e.g. through the
// GPU-host packing script: `pack.sh bench/gpu/hilbert.ts`, then
//   node .gpu/bundle/hilbert.mjs [--small] [--runs N] [--warmup N]
// `--small` runs 100k and 250k points (for a software GPU). Prints a markdown table.

import { GpuProfiler, hilbertKeysGpu } from '../../packages/gpu/src/index.js';
import { encodeHilbertKeys } from '../../packages/gpu/src/primitives/hilbert/hilbert.js';
import { hilbertKeysOfGrid } from '../../packages/gpu/src/primitives/hilbert/hilbert-cpu.js';
import {
  type HilbertBits,
  quantizeHilbertGrid,
} from '../../packages/gpu/src/primitives/hilbert/hilbert-grid.js';
import { createStorage, readback, uploadStorage } from '../../packages/gpu/src/runtime/buffers.js';
import { BufferUsage } from '../../packages/gpu/src/runtime/usage.js';
import { generatePoints } from '../../packages/testing/src/index.js';
import {
  createBenchContext,
  describeDevice,
  type Encode,
  gbps,
  markdownTable,
  measure,
  parseBenchArgs,
  submitAndWait,
  timedVsCopy,
  wallMs,
} from './bench-harness.js';

const args = parseBenchArgs();
const sizes = args.small ? [100_000, 250_000] : [1_000_000, 16_000_000];
const cpuRuns = { runs: Math.min(args.runs, 3), warmup: Math.min(args.warmup, 1) };
const ctx = await createBenchContext();
console.log(`hilbert keys — ${describeDevice(ctx)}; median of ${args.runs} after ${args.warmup} warm-up\n`);

const rows: (string | number)[][] = [];
const profiler = new GpuProfiler(ctx);
for (const n of sizes) {
  const xy = generatePoints('uniform', n, 42);
  for (const bits of [16, 32] as HilbertBits[]) {
    const quantize = await measure(() => wallMs(() => quantizeHilbertGrid(xy, { bits })), cpuRuns);
    const grid = quantizeHilbertGrid(xy, { bits });
    const cpuKeys = await measure(() => wallMs(() => hilbertKeysOfGrid(grid, bits)), cpuRuns);
    const expected = hilbertKeysOfGrid(grid, bits);
    const bytes = grid.byteLength; // read, and written again as keys
    const gridBuffer = await uploadStorage(ctx, grid, 'bench grid');
    const keysBuffer = await createStorage(ctx, bytes, 'bench keys', BufferUsage.COPY_SRC);
    const encode: Encode = (encoder) =>
      encodeHilbertKeys(ctx, encoder, { bits, count: n, grid: gridBuffer, keys: keysBuffer });
    await submitAndWait(ctx, encode);
    if (!equal(await readback(ctx, keysBuffer, new Uint32Array(grid.length)), expected))
      throw new Error(`GPU keys differ from the CPU keys (${n} points, ${bits} bits)`);
    const kernel = await timedVsCopy(ctx, profiler, encode, bytes, args);
    gridBuffer.destroy();
    keysBuffer.destroy();
    let whole: Uint32Array | undefined;
    const call = await measure(
      () =>
        wallMs(async () => {
          whole = await hilbertKeysGpu(ctx, xy, { bits });
        }),
      cpuRuns,
    );
    if (!whole || !equal(whole, expected))
      throw new Error(`hilbertKeysGpu differs from the CPU (${n}, ${bits})`);
    rows.push([
      n.toLocaleString('en-US'),
      bits,
      kernel.median,
      gbps(2 * bytes, kernel.median),
      kernel.copy,
      gbps(2 * bytes, kernel.copy),
      kernel.ratio,
      call.median,
      quantize.median,
      cpuKeys.median,
    ]);
  }
}
console.log(
  markdownTable(
    [
      'points',
      'bits',
      'kernel ms',
      'kernel GB/s',
      'copy ms (same time)',
      'copy GB/s',
      '× copy',
      'hilbertKeysGpu ms',
      'CPU quantize ms',
      'CPU keys ms',
    ],
    rows,
  ),
);
console.log(
  '\nkernel: GPU time of the key pass on cells already on the GPU; GB/s counts bytes read + written;' +
    '\ncopy: a vec4<u32> copy kernel of the same bytes, timed alternately with the kernel;' +
    '\n× copy = kernel ms / copy ms (1 = as fast as a copy);' +
    '\nhilbertKeysGpu: the whole call (CPU check and quantization, upload, kernel, readback), wall time.',
);
profiler.destroy();
ctx.destroy();

function equal(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
