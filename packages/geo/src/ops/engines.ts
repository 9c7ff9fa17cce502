import {
  type DeviceOption,
  type DispatchEvent,
  type Dispatched,
  type GpuRunReport,
  kernelProfile,
  planDispatch,
  runDispatched,
} from '@geoframe/core';
import {
  availableThreads,
  preparedFloat64Array,
  type RobustTriangulation,
  triangulateOrdered,
  triangulatePresortedParallel,
  voronoiCells,
  voronoiEdges,
} from '@geoframe/cpu';
import {
  type CpuStages,
  type CpuTriangulation,
  type GpuContext,
  getGpuContext,
  probeGpuAdapter,
} from '@geoframe/gpu';

// The one module where the GPU and CPU engines meet (adr/0001, adr/0019): the GPU pipelines get
// their CPU stages from here, and every dispatched operation plans and runs through here.

/** Fewest sites for which the CPU Delaunay stage splits its exact verification over threads. */
export const PARALLEL_DELAUNAY_FROM = 200_000;

function plain(tri: RobustTriangulation): CpuTriangulation {
  return { triangles: tri.triangles, halfedges: tri.halfedges, flips: tri.flips };
}

/**
 * The CPU Delaunay stage the GPU pipeline hands off to: delaunator on the sites in their given
 * (curve) order, verified and repaired with exact predicates (adr/0004), keeping their numbering;
 * the verification's float filter on worker threads from `parallelFrom` sites. Null when there is
 * no triangle (fewer than three sites, or all collinear, decided exactly).
 */
export async function cpuDelaunayStage(
  sites: Float64Array,
  parallelFrom = PARALLEL_DELAUNAY_FROM,
): Promise<CpuTriangulation | null> {
  const threads = sites.length >> 1 >= parallelFrom ? await availableThreads() : 1;
  if (threads < 2) {
    const ordered = triangulateOrdered(sites, false);
    return ordered === null ? null : plain(ordered.tri);
  }
  const tri = await triangulatePresortedParallel(sites, threads);
  return tri === null ? null : plain(tri);
}

/** The CPU engine's stages, as the GPU pipelines take them. */
export const CPU_STAGES: CpuStages = {
  delaunay: (sites) => cpuDelaunayStage(sites),
  voronoiCells,
  voronoiEdges,
  outputArray: preparedFloat64Array,
};

/**
 * The options the GPU pipelines get from geo: the CPU stages, and a stage fallback reported to
 * the dispatcher (one `fallback` event naming the stage).
 */
export function gpuStages(report: GpuRunReport): {
  cpu: CpuStages;
  onFallback: (stage: string, reason: string) => void;
} {
  return { cpu: CPU_STAGES, onFallback: (stage, reason) => report.stageFallback(stage, reason) };
}

/**
 * Where `kernel` runs for `rows` elements, decided for the adapter in hand: under `'auto'`, from
 * the smallest size at which any adapter class could take the GPU, the default adapter is probed
 * once per process (`probeGpuAdapter`, no device created) and its class sets the crossover; a
 * software adapter is never taken. Below that size, and for a forced device, nothing is probed.
 */
export async function planOperation(
  kernel: string,
  rows: number,
  device: DeviceOption,
): Promise<DispatchEvent> {
  if (device !== 'auto' || !kernelProfile(kernel).gpu || rows < kernelProfile(kernel).crossover) {
    return planDispatch(kernel, rows, { device });
  }
  return planDispatch(kernel, rows, { device, adapter: await probeGpuAdapter() });
}

/**
 * Plans `kernel` for `rows` and runs it: `gpu` gets the shared context and the run's report
 * (for stage fallbacks), `cpu` runs otherwise or after a recoverable GPU failure under `'auto'`.
 * Returns the value with the decision that ran (the call's own, whatever else runs meanwhile);
 * `listener` hears this call's events only (the decision, then a fallback if one happens).
 */
export async function dispatchOperation<T>(
  kernel: string,
  rows: number,
  device: DeviceOption,
  paths: { gpu: (ctx: GpuContext, report: GpuRunReport) => Promise<T>; cpu: () => T | Promise<T> },
  listener?: (event: DispatchEvent) => void,
): Promise<Dispatched<T>> {
  const decision = await planOperation(kernel, rows, device);
  return runDispatched(
    decision,
    device,
    { gpu: async (report) => paths.gpu(await getGpuContext(), report), cpu: paths.cpu },
    listener,
  );
}
