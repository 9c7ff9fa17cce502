import { GeoframeError } from '../errors.js';
import type { DeviceOption, DispatchEvent, ExecutionPath } from './dispatch-events.js';

/**
 * Per operation: whether a GPU implementation exists, and the size above which the GPU pays.
 * Crossovers are measured by the benchmarks on the GPU host and stored here with their date and
 * GPU; `GEOFRAME_CROSSOVER_<KERNEL>` (e.g. GEOFRAME_CROSSOVER_VORONOIPOLYGONS=50000) overrides.
 */
export interface KernelProfile {
  gpu: boolean;
  crossover: number;
  /** Where the crossover comes from (benchmark, GPU, date), shown by `explain`. */
  measured: string;
}

const KERNELS: Record<string, KernelProfile> = {
  // bench/gpu/voronoi.ts, 2026-11-22, H100 (Dawn/Vulkan) and its 16-core host, with the GPU
  // Delaunay stage (per-site stars) in the pipeline: end to end the GPU path won at every size
  // measured, 3e4 (51.8 vs 76.5 ms), 1e5, 3e5, 1e6 (414 vs 1,150) and 1e7 (4,120 vs 20,500)
  voronoiPolygons: {
    gpu: true,
    crossover: 30_000,
    measured: 'bench/gpu/voronoi.ts, H100 + 16-core host, 2026-11-22 (GPU Delaunay stage)',
  },
  // bench/gpu/delaunay.ts (DELAUNAY_CROSSOVER), same host and day: host sites in, host triangles
  // out; the GPU's round trips (hull, statistics, triangles) cost ~80 ms whatever the size, so
  // the CPU won at 1e4 and 3e4 (58.9 vs 83.4 ms), the GPU at 1e5 (116 vs 201) and 3e5 (134 vs 380)
  delaunayTriangles: {
    gpu: true,
    crossover: 100_000,
    measured: 'bench/gpu/delaunay.ts, H100 + 16-core host, 2026-11-22',
  },
  // rows = pixels (voxels) of the grid
  voronoiRaster: { gpu: true, crossover: 65_536, measured: 'provisional, not yet measured' },
  // rows = cells of the cost raster
  costAllocation: { gpu: true, crossover: 262_144, measured: 'provisional, not yet measured' },
};

/** The profile of `kernel` (an operation without one runs on the CPU). */
export function kernelProfile(kernel: string): KernelProfile {
  const profile = KERNELS[kernel] ?? {
    gpu: false,
    crossover: Number.POSITIVE_INFINITY,
    measured: 'unknown kernel',
  };
  const override = globalThis.process?.env?.[`GEOFRAME_CROSSOVER_${kernel.toUpperCase()}`];
  if (override !== undefined && override !== '' && Number.isFinite(Number(override))) {
    return {
      ...profile,
      crossover: Number(override),
      measured: `GEOFRAME_CROSSOVER_${kernel.toUpperCase()}`,
    };
  }
  return profile;
}

/** A forced GPU run that cannot happen (no GPU implementation, no adapter). */
export class GpuRequiredError extends GeoframeError {
  constructor(kernel: string, why: string) {
    super('GPU_REQUIRED', `${kernel} with device 'gpu': ${why}`);
    this.name = 'GpuRequiredError';
  }
}

/** Options of {@link planDispatch}. */
export interface PlanOptions {
  device?: DeviceOption;
  /** Whether a WebGPU adapter is known to exist; undefined when not probed (then 'auto' assumes one may). */
  gpuAvailable?: boolean;
  /** Overrides the stored crossover. */
  crossover?: number;
}

/**
 * Decides where `kernel` runs for `rows` elements: `cpu` forces the CPU; `gpu` forces the GPU and
 * throws {@link GpuRequiredError} when there is no GPU implementation or adapter; `auto` takes the
 * GPU at or above the crossover when an implementation and an adapter exist, else the CPU. The
 * decision comes with its reason and is what `explain` reports; callers emit it as an event.
 */
export function planDispatch(kernel: string, rows: number, options: PlanOptions = {}): DispatchEvent {
  const device = options.device ?? 'auto';
  if (device !== 'auto' && device !== 'gpu' && device !== 'cpu') {
    throw new TypeError(`device must be 'auto', 'gpu' or 'cpu', got ${JSON.stringify(device)}`);
  }
  const profile = kernelProfile(kernel);
  const crossover = options.crossover ?? profile.crossover;
  const decide = (path: ExecutionPath, reason: string): DispatchEvent => ({
    type: 'dispatch',
    kernel,
    rows,
    path,
    reason,
  });
  if (device === 'cpu') return decide('cpu', "device 'cpu' requested");
  if (device === 'gpu') {
    if (!profile.gpu) throw new GpuRequiredError(kernel, 'this operation has no GPU implementation yet');
    if (options.gpuAvailable === false) throw new GpuRequiredError(kernel, 'no WebGPU adapter is available');
    return decide('gpu', "device 'gpu' requested");
  }
  if (!profile.gpu) return decide('cpu', `auto: ${kernel} has no GPU implementation yet, running on the CPU`);
  if (options.gpuAvailable === false) return decide('cpu', 'auto: no WebGPU adapter, running on the CPU');
  if (rows < crossover) {
    return decide('cpu', `auto: ${rows} < crossover ${crossover} (${profile.measured}), CPU is faster`);
  }
  return decide('gpu', `auto: ${rows} ≥ crossover ${crossover} (${profile.measured})`);
}

/**
 * What {@link planDispatch} would decide for `kernel` on `rows` elements, without running or
 * emitting anything: the path, the reason, and the crossover in force with where it comes from.
 * A forced 'gpu' that could not run is reported (path 'gpu', reason naming the problem) instead
 * of thrown, so `explain` never fails for a valid device option.
 */
export function explainDispatch(
  kernel: string,
  rows: number,
  options: PlanOptions = {},
): DispatchEvent & { crossover: number; measured: string; gpuImplemented: boolean } {
  const profile = kernelProfile(kernel);
  const crossover = options.crossover ?? profile.crossover;
  const extra = { crossover, measured: profile.measured, gpuImplemented: profile.gpu };
  try {
    return { ...planDispatch(kernel, rows, options), ...extra };
  } catch (error) {
    if (!(error instanceof GpuRequiredError)) throw error;
    return { type: 'dispatch', kernel, rows, path: 'gpu', reason: `would fail: ${error.message}`, ...extra };
  }
}
