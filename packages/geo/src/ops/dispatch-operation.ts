import {
  type DeviceOption,
  type DispatchEvent,
  type Dispatched,
  type ExecutionPath,
  type GpuRunReport,
  kernelProfile,
  planDispatch,
  runDispatched,
} from '@geoframe/core';
import {
  awaitWarmUp,
  type GpuContext,
  getGpuContext,
  probedGpuAdapter,
  probeGpuAdapter,
  runOnGpu,
} from '@geoframe/gpu';

// How one operation is planned and run on the engines `ops/engines.ts` pairs for it: the plan for
// the adapter in hand, the GPU path under the watchdog (after a brief wait for its warm-up), the
// CPU after a recoverable GPU failure under 'auto' (adr/0019, adr/0035).

/**
 * Where `kernel` runs for `rows` elements, decided for the adapter in hand: under `'auto'`, from
 * the smallest size at which any adapter class could take the GPU, the default adapter is probed
 * once per process (`probeGpuAdapter`, no device created) and its class sets the crossover; a
 * software adapter is never taken. Below that size, and for a forced device, nothing is probed
 * (an adapter probed earlier is named in the reason, as `explain` names it).
 */
export async function planOperation(
  kernel: string,
  rows: number,
  device: DeviceOption,
): Promise<DispatchEvent> {
  const profile = kernelProfile(kernel);
  if (device !== 'auto' || !profile.gpu || rows < profile.crossover) {
    // what is known of the adapter, as `explain` reports it
    return planDispatch(kernel, rows, { device, adapter: probedGpuAdapter() });
  }
  return planDispatch(kernel, rows, { device, adapter: await probeGpuAdapter() });
}

/**
 * Plans `kernel` for `rows` (or takes `planned`, a plan made earlier for the same run) and runs
 * it: `gpu` gets the shared context and the run's report
 * (for stage fallbacks), `cpu` runs otherwise or after a recoverable GPU failure under `'auto'`.
 * Returns the value with the decision that ran (the call's own, whatever else runs meanwhile);
 * `listener` hears this call's events only (the decision, then a fallback if one happens).
 */
export async function dispatchOperation<T>(
  kernel: string,
  rows: number,
  device: DeviceOption,
  paths: EnginePair<T>,
  listener?: (event: DispatchEvent) => void,
  planned?: DispatchEvent,
): Promise<Dispatched<T>> {
  const decision = planned ?? (await planOperation(kernel, rows, device));
  const gpu = async (report: GpuRunReport) => {
    // under 'auto', a first use never waits long on compilation: the CPU answers meanwhile
    // (GPU_COMPILING) while the warm-up goes on for the next call
    const warm = paths.warmUp;
    if (device === 'auto' && warm) await awaitWarmUp(await getGpuContext(), warm.name, warm.run);
    // every GPU run is under the watchdog: past its deadline it is abandoned (GPU_TIMEOUT → CPU)
    return runOnGpu(kernel, rows, (ctx) => paths.gpu(ctx, report));
  };
  return runDispatched(decision, device, { gpu, cpu: paths.cpu }, listener);
}

/** The two engines of one dispatched operation, as {@link dispatchOperation} takes them. */
export interface EnginePair<T> {
  gpu: (ctx: GpuContext, report: GpuRunReport) => Promise<T>;
  cpu: () => T | Promise<T>;
  /**
   * A small run creating the GPU path's pipelines, shared by the operations that name it: under
   * 'auto' the first GPU run waits for it only briefly (see `awaitWarmUp`). Only for paths whose
   * kernels can compile for long.
   */
  warmUp?: { name: string; run: (ctx: GpuContext) => Promise<unknown> };
}

/**
 * 'voronoiPolygons' for each evaluation of an iterative run, planned once (the first call emits
 * the decision to `listener`, later ones only fallbacks); once on the CPU the run stays there.
 */
export function stickyDispatch<T>(
  device: DeviceOption,
  listener?: (event: DispatchEvent) => void,
): (rows: number, engines: EnginePair<T>) => Promise<T> {
  let path: ExecutionPath | null = null;
  let plan: DispatchEvent | null = null;
  const quiet = (event: DispatchEvent) => event.type === 'fallback' && listener?.(event);
  return async (rows, engines) => {
    if (path === 'cpu') return engines.cpu();
    const hear = plan === null ? listener : quiet;
    plan ??= await planOperation('voronoiPolygons', rows, device);
    const ran = await dispatchOperation('voronoiPolygons', rows, device, engines, hear, plan);
    path = ran.decision.type === 'fallback' && ran.decision.stage === undefined ? 'cpu' : ran.decision.path;
    return ran.value;
  };
}
