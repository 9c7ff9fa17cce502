import { GeoframeError } from '../errors.js';
import { type AdapterClass, type AdapterSummary, adapterLabel } from './adapter-class.js';
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
  // rows = pixels (voxels) of the grid. bench/gpu/raster-wall.ts, 2026-11-28, H200 and its host,
  // public API with device 'cpu' and 'gpu' in one run (100 and 10k sites; docs/benchmarks.md):
  // 'exact' (the default) went to the GPU from the smallest grid measured (32², 3.0 vs 1.7 ms;
  // 8³, 2.1 vs 1.9), 'jfa+1' from 64² (4.2 vs 3.1 ms) and 16³ (5.5 vs 2.8); at 32² and 8³ the
  // CPU's JFA won (1.5 vs 3.5 ms). 4,096 pixels: the GPU wins there in every mode and dims measured
  voronoiRaster: {
    gpu: true,
    crossover: 4_096,
    measured: 'bench/gpu/raster-wall.ts, H200 + its 16-core host, 2026-11-28',
  },
  // rows = cells of the cost raster
  costAllocation: { gpu: true, crossover: 262_144, measured: 'provisional, not yet measured' },
  // raster-mode CVT, rows = pixels of the grid (the exact mode dispatches its cells as voronoiPolygons)
  centroidalVoronoi: { gpu: true, crossover: 65_536, measured: 'provisional, not yet measured' },
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

/**
 * How the stored crossovers (measured on an H100, a discrete data-centre GPU) scale with the
 * adapter in hand: discrete GPUs use them as stored; integrated and unknown adapters need 4×
 * the work before the GPU is taken (a conservative guess: less bandwidth, fewer cores, the
 * same host-side round trips); a software adapter is never taken by `auto` (adr/0019).
 */
export const ADAPTER_CROSSOVER_FACTOR: Readonly<Record<AdapterClass, number>> = {
  discrete: 1,
  integrated: 4,
  unknown: 4,
  software: Number.POSITIVE_INFINITY,
};

/** Options of {@link planDispatch}. */
export interface PlanOptions {
  device?: DeviceOption;
  /** Whether a WebGPU adapter is known to exist; undefined when not probed (then 'auto' assumes one may). */
  gpuAvailable?: boolean;
  /**
   * The adapter the GPU path would run on (`probeGpuAdapter` of @geoframe/gpu); null when probed
   * and there is none (as `gpuAvailable: false`); undefined when not probed (then the stored
   * crossover applies as for a discrete GPU, and the reason says the adapter was not probed).
   */
  adapter?: AdapterSummary | null;
  /** Overrides the stored crossover (and the adapter's factor; never a software adapter's refusal). */
  crossover?: number;
}

/** The crossover in force for `kernel` on `adapter`, and where it comes from (for reasons). */
export function crossoverFor(
  kernel: string,
  options: Pick<PlanOptions, 'adapter' | 'crossover'> = {},
): { crossover: number; source: string } {
  const profile = kernelProfile(kernel);
  if (options.crossover !== undefined)
    return { crossover: options.crossover, source: 'the crossover option' };
  const cls = options.adapter?.class;
  if (cls === undefined || profile.measured.startsWith('GEOFRAME_CROSSOVER_')) {
    const tail = cls === undefined ? ', adapter not probed' : '';
    return { crossover: profile.crossover, source: `${profile.measured}${tail}` };
  }
  const factor = ADAPTER_CROSSOVER_FACTOR[cls];
  if (factor === 1)
    return { crossover: profile.crossover, source: `${profile.measured}, used as is for a ${cls} GPU` };
  return {
    crossover: profile.crossover * factor,
    source: `${factor}× ${profile.crossover} from ${profile.measured}, for an ${cls} adapter`,
  };
}

/**
 * Decides where `kernel` runs for `rows` elements: `cpu` forces the CPU; `gpu` forces the GPU and
 * throws {@link GpuRequiredError} when there is no GPU implementation or adapter (a software
 * adapter is used); `auto` takes the GPU at or above the crossover for the adapter in hand (see
 * {@link crossoverFor}) when an implementation and a non-software adapter exist, else the CPU.
 * The decision comes with its reason (naming the adapter and the crossover's source) and is what
 * `explain` reports; callers emit it as an event.
 */
export function planDispatch(kernel: string, rows: number, options: PlanOptions = {}): DispatchEvent {
  const device = options.device ?? 'auto';
  if (device !== 'auto' && device !== 'gpu' && device !== 'cpu') {
    throw new TypeError(`device must be 'auto', 'gpu' or 'cpu', got ${JSON.stringify(device)}`);
  }
  const profile = kernelProfile(kernel);
  const adapter = options.adapter;
  const on = adapter ? ` on ${adapterLabel(adapter)}` : '';
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
    if (options.gpuAvailable === false || adapter === null) {
      throw new GpuRequiredError(kernel, 'no WebGPU adapter is available');
    }
    return decide('gpu', `device 'gpu' requested${on}`);
  }
  if (!profile.gpu) return decide('cpu', `auto: ${kernel} has no GPU implementation yet, running on the CPU`);
  if (options.gpuAvailable === false || adapter === null) {
    return decide('cpu', 'auto: no WebGPU adapter, running on the CPU');
  }
  if (adapter?.class === 'software') {
    return decide(
      'cpu',
      `auto: the adapter is ${adapterLabel(adapter)}, a CPU emulating a GPU: auto never runs on it (device 'gpu' does), running on the CPU`,
    );
  }
  const { crossover, source } = crossoverFor(kernel, options);
  if (rows < crossover) {
    return decide('cpu', `auto: ${rows} < crossover ${crossover} (${source})${on}, CPU is faster`);
  }
  return decide('gpu', `auto: ${rows} ≥ crossover ${crossover} (${source})${on}`);
}

/**
 * What `explain` answers: the dispatch event the operation would emit (`kernel`, `rows`, `path`,
 * `reason`) plus the crossover in force for the adapter (`crossover`, Infinity on a software
 * adapter), the stored measurement it derives from (`measured`), how it was derived
 * (`crossoverSource`), the adapter the decision saw (null when none was probed or none exists),
 * and whether the kernel has a GPU implementation at all (`gpuImplemented`).
 */
export type DispatchExplanation = DispatchEvent & {
  crossover: number;
  measured: string;
  crossoverSource: string;
  adapter: AdapterSummary | null;
  gpuImplemented: boolean;
};

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
): DispatchExplanation {
  const profile = kernelProfile(kernel);
  const { crossover, source } = crossoverFor(kernel, options);
  const extra = {
    crossover: options.adapter?.class === 'software' ? Number.POSITIVE_INFINITY : crossover,
    measured: profile.measured,
    crossoverSource: options.adapter?.class === 'software' ? 'never on a software adapter' : source,
    adapter: options.adapter ?? null,
    gpuImplemented: profile.gpu,
  };
  try {
    return { ...planDispatch(kernel, rows, options), ...extra };
  } catch (error) {
    if (!(error instanceof GpuRequiredError)) throw error;
    return { type: 'dispatch', kernel, rows, path: 'gpu', reason: `would fail: ${error.message}`, ...extra };
  }
}
