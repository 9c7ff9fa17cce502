// Shared pieces of the GPU benchmarks: argument parsing, medians, a device-bandwidth copy kernel,
// the one way GPU work is timed (timedVsCopy: clocks kept up, the primitive and the copy timed
// alternately, both medians and their ratio for the "× copy" column) and a markdown table printer. Benchmarks import it; it runs nothing by itself.
import { GpuContext, type GpuProfiler } from '../../packages/gpu/src/index.js';
import { createStorage } from '../../packages/gpu/src/runtime/buffers.js';
import { dispatchThreads } from '../../packages/gpu/src/runtime/dispatch.js';
import type { KernelSpec } from '../../packages/gpu/src/runtime/pipeline-cache.js';

/** Command-line options every GPU benchmark understands. */
export interface BenchArgs {
  /** `--small`: sizes that finish quickly on a software GPU (for checking the script, not timing). */
  small: boolean;
  /** `--runs N`: timed runs per measurement (the median is reported); default 10, 3 with `--small`. */
  runs: number;
  /** `--warmup N`: untimed runs first; default 3, 1 with `--small`. */
  warmup: number;
}

/** Parses `--small`, `--runs N`, `--warmup N`; anything else is an error naming it. */
export function parseBenchArgs(argv: string[] = process.argv.slice(2)): BenchArgs {
  let small = false;
  let runs: number | undefined;
  let warmup: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--small') small = true;
    else if (arg === '--runs' || arg === '--warmup') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < (arg === '--runs' ? 1 : 0)) {
        throw new Error(`${arg} needs a count, got ${argv[i]}`);
      }
      if (arg === '--runs') runs = value;
      else warmup = value;
    } else throw new Error(`unknown argument ${arg} (known: --small, --runs N, --warmup N)`);
  }
  return { small, runs: runs ?? (small ? 3 : 10), warmup: warmup ?? (small ? 1 : 3) };
}

/** The Dawn instance of {@link createBenchContext}, kept referenced: Dawn crashes if it is collected. */
let benchGpu: GPU | undefined;

/**
 * A context for benchmarks. In Node, Dawn is asked not to quantize timestamps (by default it
 * rounds them to about 65 µs, too coarse for kernels under a millisecond); elsewhere, or when that
 * fails, the default context.
 */
export async function createBenchContext(): Promise<GpuContext> {
  const specifier = 'webgpu'; // a variable, so bundlers leave the package external
  try {
    const webgpu = (await import(specifier)) as { create(flags: string[]): GPU };
    benchGpu ??= webgpu.create(['disable-dawn-features=timestamp_quantization']);
    return await GpuContext.create({ gpu: benchGpu });
  } catch {
    return GpuContext.create();
  }
}

/** The adapter and timing source, for the line above a table. */
export function describeDevice(ctx: GpuContext): string {
  const { vendor, architecture, description } = ctx.adapterInfo;
  const name = [vendor, architecture, description].filter(Boolean).join(' / ') || 'unknown adapter';
  const timing = ctx.features.timestampQuery ? 'GPU timestamps' : 'wall time (no timestamp-query)';
  return `${name}; ${timing}; maxStorageBufferBindingSize ${ctx.limits.maxStorageBufferBindingSize}`;
}

/** The median of `values` (mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Summary of timed runs, in ms. */
export interface Timing {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/**
 * Runs `run` `warmup` times untimed, then `runs` times, and summarizes what each timed call
 * returned (its own measurement in ms, e.g. {@link wallMs} of CPU work). GPU work is timed with
 * {@link timedVsCopy} instead, which keeps the clocks up.
 */
export async function measure(
  run: () => Promise<number>,
  { runs, warmup }: Pick<BenchArgs, 'runs' | 'warmup'>,
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await run());
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), runs };
}

/** Wall time of `fn` in ms (for {@link measure} on CPU work or whole calls; GPU work: {@link timedVsCopy}). */
export async function wallMs(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Records GPU work into `encoder` (its own passes); what {@link timedVsCopy} times. */
export type Encode = (encoder: GPUCommandEncoder) => Promise<void> | void;

/** Runs what `encode` records in one submission and waits for it (e.g. before checking its result). */
export async function submitAndWait(ctx: GpuContext, encode: Encode): Promise<void> {
  const encoder = ctx.device.createCommandEncoder();
  await encode(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  await ctx.device.queue.onSubmittedWorkDone();
}

const COPY_WORKGROUP = 256;

/** One vec4<u32> (16 bytes) per thread: the device-bandwidth yardstick. */
const COPY_KERNEL: KernelSpec<{ workgroupSize: number }> = {
  name: 'bench/copy-vec4',
  source: ({ workgroupSize }) => /* wgsl */ `
const WG: u32 = ${workgroupSize}u;
@group(0) @binding(0) var<storage, read> src: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4u>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = (wid.y * nwg.x + wid.x) * WG + lid;
  if (i < arrayLength(&dst)) {
    dst[i] = src[i];
  }
}
`,
};

/**
 * A recorder of the copy kernel from `src` into `dst`: each call encodes one compute pass that
 * copies `dst`'s bytes (its size rounded down to 16) from the start of `src`, which must be at
 * least as large, one vec4<u32> per thread. It reads and writes `dst.size` bytes each, so
 * `gbps(2 * dst.size, ms)` is the device's practical bandwidth for a kernel of that traffic.
 */
export async function copyEncoder(ctx: GpuContext, src: GPUBuffer, dst: GPUBuffer): Promise<Encode> {
  const pipeline = await ctx.pipelines.get(COPY_KERNEL, { workgroupSize: COPY_WORKGROUP });
  const bindGroup = ctx.device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: src } },
      { binding: 1, resource: { buffer: dst } },
    ],
  });
  const vectors = Math.floor(dst.size / 16);
  return (encoder) => {
    const pass = encoder.beginComputePass({ label: 'bench copy' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    dispatchThreads(pass, vectors, COPY_WORKGROUP, ctx.limits.maxComputeWorkgroupsPerDimension);
    pass.end();
  };
}

/** Two storage buffers of `bytes` (rounded up to 16) for the copy kernel; destroy both when done. */
export async function createCopyPair(ctx: GpuContext, bytes: number): Promise<[GPUBuffer, GPUBuffer]> {
  const size = Math.max(16, Math.ceil(bytes / 16) * 16);
  return [
    await createStorage(ctx, size, 'bench copy source'),
    await createStorage(ctx, size, 'bench copy target'),
  ];
}

/**
 * Keeps the GPU busy with back-to-back submissions of 20 copies each for about `ms` milliseconds.
 * The driver lowers the clocks while a script works on the CPU only (references, checks) — an
 * H100 falls from 1980 to 345 MHz — and a few short timed submissions do not bring them back.
 */
export async function heat(ctx: GpuContext, copy: Encode, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end)
    await submitAndWait(ctx, async (encoder) => {
      for (let i = 0; i < 20; i++) await copy(encoder);
    });
}

/**
 * GPU time in ms of what `encode` records: the gap between two empty timestamped passes around it
 * (so it counts the gaps between its passes too), after `filler` untimed copies that keep the GPU
 * busy up to the timed region; without timestamp queries, wall time of the whole submission (the
 * filler then counts, so leave it out).
 */
async function bracketMs(
  ctx: GpuContext,
  profiler: GpuProfiler,
  encode: Encode,
  filler: { copy: Encode; times: number },
): Promise<number> {
  await ctx.device.queue.onSubmittedWorkDone();
  const encoder = ctx.device.createCommandEncoder();
  for (let i = 0; i < filler.times; i++) await filler.copy(encoder);
  encoder.beginComputePass(profiler.passDescriptor('before')).end();
  await encode(encoder);
  encoder.beginComputePass(profiler.passDescriptor('after')).end();
  profiler.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  const passes = await profiler.read();
  if (profiler.source === 'wall') return passes[0].ms;
  return Math.max(0, passes[1].startMs - (passes[0].startMs + passes[0].ms));
}

/** Options of {@link timedVsCopy}: runs and warm-up, and how the clocks are kept up. */
export interface TimedVsCopyOptions extends Pick<BenchArgs, 'runs' | 'warmup'> {
  /** Back-to-back copies before the first run, in ms (see {@link heat}); default 250. */
  heatMs?: number;
  /**
   * About how many ms of untimed copies go before each timed region, in the same submission;
   * default 1, 0 for none. Ignored without timestamp queries (the filler would be timed).
   */
  fillMs?: number;
}

/** {@link Timing} of a primitive with the copy timed alongside it. */
export interface CopyTiming extends Timing {
  /** Median ms of the copy kernel, timed alternately with the primitive. */
  copy: number;
  /** `median / copy`: 1 is a primitive as fast as copying the yardstick's bytes. */
  ratio: number;
}

/**
 * The one way the benchmarks time GPU work: the median GPU time of what `encode` records and of
 * the copy kernel ({@link copyEncoder}) on `copy` — a source and target buffer, or a byte count for
 * which a pair is made and freed — timed alternately so that both see the same clocks. First
 * {@link heat}, then `warmup` (at least one) untimed rounds of both, then `runs` timed rounds, each run's timed
 * region preceded by about `fillMs` of untimed copies (their count set from the warm-up copies).
 * Each run is one submission whose time is the gap between timestamped empty passes around the
 * recorded work; `encode` must not use `profiler` itself. The copy moves the bytes of its target
 * (read and written once each): size it to the primitive's traffic for a meaningful ratio.
 */
export async function timedVsCopy(
  ctx: GpuContext,
  profiler: GpuProfiler,
  encode: Encode,
  copy: readonly [GPUBuffer, GPUBuffer] | number,
  { runs, warmup, heatMs = 250, fillMs = 1 }: TimedVsCopyOptions,
): Promise<CopyTiming> {
  const pair = typeof copy === 'number' ? await createCopyPair(ctx, copy) : copy;
  try {
    const copyPass = await copyEncoder(ctx, pair[0], pair[1]);
    await heat(ctx, copyPass, heatMs);
    const filler = { copy: copyPass, times: 0 };
    const warm: number[] = [];
    for (let i = 0; i < Math.max(1, warmup); i++) {
      warm.push(await bracketMs(ctx, profiler, copyPass, filler));
      await bracketMs(ctx, profiler, encode, filler);
    }
    if (profiler.source === 'timestamp' && fillMs > 0) {
      filler.times = Math.min(256, Math.ceil(fillMs / Math.max(median(warm), 1e-3)));
    }
    const times: number[] = [];
    const copies: number[] = [];
    for (let i = 0; i < runs; i++) {
      copies.push(await bracketMs(ctx, profiler, copyPass, filler));
      times.push(await bracketMs(ctx, profiler, encode, filler));
    }
    const ms = median(times);
    const copyMs = median(copies);
    return {
      median: ms,
      min: Math.min(...times),
      max: Math.max(...times),
      runs,
      copy: copyMs,
      ratio: ms / copyMs,
    };
  } finally {
    if (typeof copy === 'number') for (const b of pair) b.destroy();
  }
}

/** Bytes moved per ms as GB/s (10^9 bytes per second). */
export function gbps(bytes: number, ms: number): number {
  return bytes / ms / 1e6;
}

/** A number with `digits` significant digits, no exponent for ordinary magnitudes. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  return Number(value.toPrecision(digits)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** A markdown table: a header row, the separator (numbers right-aligned), then the rows. */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? fmt(cell) : cell)));
  const numeric = headers.map((_, c) => rows.length > 0 && rows.every((row) => typeof row[c] === 'number'));
  const line = (values: readonly string[]) => `| ${values.join(' | ')} |`;
  return [line(headers), line(numeric.map((n) => (n ? '---:' : '---'))), ...cells.map(line)].join('\n');
}
