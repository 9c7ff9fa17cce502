// Shared pieces of the GPU benchmarks: argument parsing, medians after warm-up, GPU pass timing
// through GpuProfiler, a device-bandwidth copy kernel for the "× copy" column, and a markdown
// table printer. Benchmarks import it; it runs nothing by itself.
import {
  BufferUsage,
  createStorage,
  dispatchThreads,
  GpuContext,
  GpuProfiler,
  type KernelSpec,
} from '../../packages/gpu/src/index.js';

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
 * returned (its own measurement in ms, e.g. GPU time from a profiler).
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

/** Wall time of `fn` in ms (for {@link measure} on CPU work or whole calls). */
export async function wallMs(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * GPU time of one submission in ms: `encode` records its passes with `profiler.passDescriptor`,
 * then the profiler resolves, the encoder is submitted and the total of the passes is returned
 * (timestamps where available, else wall time to `onSubmittedWorkDone`, after draining the queue).
 */
export async function gpuMs(
  ctx: GpuContext,
  profiler: GpuProfiler,
  encode: (encoder: GPUCommandEncoder) => Promise<void> | void,
): Promise<number> {
  await ctx.device.queue.onSubmittedWorkDone();
  const encoder = ctx.device.createCommandEncoder();
  await encode(encoder);
  profiler.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  return (await profiler.profile()).totalMs;
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
 * Median GPU time in ms of a kernel copying `bytes` (rounded up to 16) from one buffer into
 * another, one vec4<u32> per thread: it reads and writes `bytes` each, so
 * `gbps(2 * bytes, ms)` is the device's practical bandwidth for a kernel of that traffic.
 */
export async function copyKernel(ctx: GpuContext, bytes: number, args: BenchArgs): Promise<Timing> {
  const size = Math.max(16, Math.ceil(bytes / 16) * 16);
  const pipeline = await ctx.pipelines.get(COPY_KERNEL, { workgroupSize: COPY_WORKGROUP });
  const src = await createStorage(ctx, size, 'bench copy source');
  const dst = await createStorage(ctx, size, 'bench copy target', BufferUsage.COPY_SRC);
  const profiler = new GpuProfiler(ctx);
  try {
    const bindGroup = ctx.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: src } },
        { binding: 1, resource: { buffer: dst } },
      ],
    });
    return await measure(
      () =>
        gpuMs(ctx, profiler, (encoder) => {
          const pass = encoder.beginComputePass(profiler.passDescriptor('copy'));
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, bindGroup);
          dispatchThreads(pass, size / 16, COPY_WORKGROUP, ctx.limits.maxComputeWorkgroupsPerDimension);
          pass.end();
        }),
      args,
    );
  } finally {
    profiler.destroy();
    src.destroy();
    dst.destroy();
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
