import { GpuCompilingError } from './errors.js';
import type { GpuContext } from './gpu-context.js';
import { runOnGpu } from './watchdog.js';

/** Environment variable that sets how long an `'auto'` run waits for its first compilation (ms). */
export const GPU_WARM_WAIT_ENV = 'GEOFRAME_GPU_WARM_WAIT_MS';

/**
 * How long an `'auto'` run waits for its operation's warm-up by default. With the driver's
 * shader cache warm, the Voronoi pipeline's 34 kernels are created in well under a second; cold,
 * the exact Delaunay kernels compiled for tens of seconds on an H200 (bench/gpu/compile.ts).
 */
const DEFAULT_WARM_WAIT_MS = 3000;

/** Each context's warm-ups by name: settled when the pipelines they create are ready. */
const warmUps = new WeakMap<GpuContext, Map<string, Promise<void>>>();

/**
 * The warm-up `name` on `ctx`: `run` (a small instance of the operation, creating every pipeline
 * it uses) started once per context and kept; a failed one is forgotten so that a later call
 * tries again. Runs under the watchdog like any GPU run.
 */
export function warmUp(
  ctx: GpuContext,
  name: string,
  run: (ctx: GpuContext) => Promise<unknown>,
): Promise<void> {
  let byName = warmUps.get(ctx);
  if (!byName) {
    byName = new Map();
    warmUps.set(ctx, byName);
  }
  let warming = byName.get(name);
  if (!warming) {
    warming = runOnGpu(`${name} warm-up`, 0, run, { context: ctx }).then(() => undefined);
    byName.set(name, warming);
    // nobody may be waiting when it fails (its caller went to the CPU): forgotten, not unhandled
    warming.catch(() => byName.delete(name));
  }
  return warming;
}

/**
 * Before an `'auto'` run: waits for the warm-up `name` at most `waitMs` (default
 * `GEOFRAME_GPU_WARM_WAIT_MS`, else 3 s). Resolves when the pipelines are ready (at once after the
 * first time); rejects with the warm-up's own error when it failed, and with a recoverable
 * {@link GpuCompilingError} when it is still compiling — dispatch then runs the CPU and the
 * compilation goes on in the background for the next call.
 */
export async function awaitWarmUp(
  ctx: GpuContext,
  name: string,
  run: (ctx: GpuContext) => Promise<unknown>,
  waitMs = warmWaitMs(),
): Promise<void> {
  const warming = warmUp(ctx, name, run);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
  });
  try {
    if ((await Promise.race([warming.then(() => 'ready' as const), late])) === 'late') {
      throw new GpuCompilingError(name, waitMs);
    }
  } finally {
    clearTimeout(timer);
  }
}

function warmWaitMs(): number {
  const env = globalThis.process?.env?.[GPU_WARM_WAIT_ENV];
  if (env === undefined || env === '') return DEFAULT_WARM_WAIT_MS;
  const ms = Number(env);
  if (!(ms >= 0) || !Number.isFinite(ms)) {
    throw new RangeError(`${GPU_WARM_WAIT_ENV} must be a non-negative number of milliseconds, got ${env}`);
  }
  return ms;
}
