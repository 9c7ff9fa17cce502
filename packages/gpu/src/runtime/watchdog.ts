import { classifyAdapter } from '@geoframe/core';
import { GpuTimeoutError } from './errors.js';
import type { GpuAdapterSummary, GpuContext } from './gpu-context.js';
import { getGpuContext } from './shared-context.js';

/** Environment variable that sets every GPU run's deadline, in milliseconds. */
export const GPU_TIMEOUT_ENV = 'GEOFRAME_GPU_TIMEOUT_MS';

/**
 * Default deadline of a run on a hardware adapter: a fixed 10 s plus 0.02 ms per element. The
 * H100 runs a 1M-site Voronoi in ~0.4 s and 10M in ~4.1 s; the deadline is 30 s and 210 s, so a
 * GPU 10× slower than the H100 still has a 5× margin.
 */
const HARDWARE = { baseMs: 10_000, perElementMs: 0.02 };
/**
 * Default deadline on a software adapter (lavapipe, SwiftShader): 300 s plus 2 ms per element.
 * Software adapters are only used when asked for (`device: 'gpu'`, CI); they run on the CPU's
 * cores, 100–1000× slower than a GPU, and compiling the Delaunay star kernels alone has taken
 * minutes on a loaded 2-core machine.
 */
const SOFTWARE = { baseMs: 300_000, perElementMs: 2 };

/**
 * Most time spent creating pipelines that a run's deadline does not count (see {@link runOnGpu}):
 * a driver's first compilation of the exact kernels has taken ~100 s on a data-centre card; a
 * compile past this cap is treated as a hang.
 */
const COMPILE_ALLOWANCE_MS = 600_000;

/** Whether the adapter is a CPU emulating a GPU, as dispatch classifies it (core's classifyAdapter). */
export function isSoftwareAdapter(info: GpuAdapterSummary): boolean {
  return classifyAdapter(info).class === 'software';
}

/**
 * The deadline of a GPU run over `elements` elements (sites, pixels) on `adapter`, in ms:
 * `timeoutMs` if given, else `GEOFRAME_GPU_TIMEOUT_MS` if set, else the default for the kind of
 * adapter (see {@link HARDWARE}, {@link SOFTWARE}).
 *
 * @throws RangeError when `timeoutMs` or the environment variable is not a positive number.
 */
export function gpuDeadlineMs(elements: number, adapter: GpuAdapterSummary, timeoutMs?: number): number {
  if (timeoutMs !== undefined) return positiveMs(timeoutMs, 'timeoutMs');
  const env = globalThis.process?.env?.[GPU_TIMEOUT_ENV];
  if (env !== undefined && env !== '') return positiveMs(Number(env), GPU_TIMEOUT_ENV);
  const rate = isSoftwareAdapter(adapter) ? SOFTWARE : HARDWARE;
  return Math.ceil(rate.baseMs + rate.perElementMs * Math.max(0, elements));
}

function positiveMs(ms: number, name: string): number {
  if (!(ms > 0) || !Number.isFinite(ms)) {
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${ms}`);
  }
  return ms;
}

/** Options of {@link runOnGpu}. */
export interface GpuRunOptions {
  /** The deadline in ms; default from the size and adapter (see {@link gpuDeadlineMs}). */
  timeoutMs?: number;
  /** The context to run on; default the shared one ({@link getGpuContext}). */
  context?: GpuContext;
}

/**
 * Runs `run` on a GPU context under a watchdog: when it has not settled `timeoutMs` after it
 * started (not counting time spent creating pipelines, up to COMPILE_ALLOWANCE_MS), the run is abandoned: the context is marked lost and its device given up without
 * blocking ({@link GpuContext.abandon}; the next `getGpuContext()` makes a fresh device), and a
 * {@link GpuTimeoutError} (code `'GPU_TIMEOUT'`, recoverable: `runDispatched` falls back to the
 * CPU under 'auto') is thrown. The abandoned run's later outcome is ignored. `work` names the run
 * in the error, `elements` sizes its default deadline.
 */
export async function runOnGpu<T>(
  work: string,
  elements: number,
  run: (ctx: GpuContext) => Promise<T>,
  options: GpuRunOptions = {},
): Promise<T> {
  const ctx = options.context ?? (await getGpuContext());
  const ms = gpuDeadlineMs(elements, ctx.adapterInfo, options.timeoutMs);
  // pipeline creation (first use of a kernel on this device) does not count against the deadline,
  // up to COMPILE_ALLOWANCE_MS: the timer is re-armed by the compile time seen since the start
  const started = performance.now();
  const compiledBefore = ctx.pipelines.busyMs();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const check = () => {
      const compiling = Math.min(ctx.pipelines.busyMs() - compiledBefore, COMPILE_ALLOWANCE_MS);
      const left = started + ms + compiling - performance.now();
      if (left <= 0) reject(new GpuTimeoutError(work, ms, compiling));
      else timer = setTimeout(check, left);
    };
    timer = setTimeout(check, ms);
  });
  const running = Promise.resolve().then(() => run(ctx));
  try {
    return await Promise.race([running, deadline]);
  } catch (error) {
    if (error instanceof GpuTimeoutError) {
      running.catch(() => undefined); // its end, whenever it comes, is nobody's concern now
      ctx.abandon(error.message);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
