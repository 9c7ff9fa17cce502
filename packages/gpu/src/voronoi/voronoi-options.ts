import type { CpuStages, DelaunayStage, StageFallbackListener } from '../delaunay/delaunay-stage.js';
import type { FixedGrid } from '../exact/index.js';
import type { DeviceSites } from '../order/hilbert-order.js';
import type { GpuProfiler } from '../runtime/profiler.js';

/** Wall time of one stage of {@link voronoiCellsGpu}, in milliseconds. */
export interface StageTime {
  stage: string;
  ms: number;
}

/** What a run of {@link voronoiCellsGpu} did. */
export interface VoronoiGpuStats {
  sites: number;
  triangles: number;
  /** 'gpu' for the pipeline; 'cpu' when the input has no triangle (0–2 sites, collinear). */
  path: 'gpu' | 'cpu';
  /** Wall time per stage (host view: includes transfers and waits). */
  stages: StageTime[];
  /** Bytes sent to the device after the Delaunay stage, and bytes brought back. */
  bytesUp: number;
  bytesDown: number;
  /** Exact repairs of the CPU Delaunay stage. */
  flips: number;
  /** Where the Delaunay stage ran (why, when on the CPU: the `onFallback` report). */
  delaunay: { path: 'cpu' | 'gpu' };
}

/** Options of {@link voronoiCellsGpu}. */
export interface VoronoiGpuOptions {
  /** Times the GPU passes of the cell stages (one round; read it after the call). */
  profiler?: GpuProfiler;
  /**
   * The CPU work the pipeline may hand off (an uncertified Delaunay stage, inputs without a
   * triangle, the output array); geo passes the CPU engine's. Without it such a run throws a
   * `GpuDeclinedError` (which `'auto'` answers with the CPU).
   */
  cpu?: CpuStages;
  /**
   * Called once when part of the run went to the CPU: `('delaunay', why)` when the GPU's stars
   * could not be certified, `('voronoi', why)` when the input has no triangle. geo reports it as
   * a dispatch `fallback` event naming the stage.
   */
  onFallback?: StageFallbackListener;
  /**
   * The Delaunay stage: `'gpu'` (default) the GPU's per-site stars (adr/0013), which answers with
   * the CPU's (`cpu.delaunay`) when a star cannot be certified (reported through `onFallback`);
   * `'cpu'` the CPU's exact triangulation of the curve-ordered sites.
   */
  delaunay?: 'cpu' | 'gpu';
  /**
   * Output points the emit is sized for before the ring offsets are known (default: half-edges
   * + sites + room for the cells clipped along the box). For tests: a guess too small makes the
   * pipeline emit again at the exact size.
   */
  outputGuess?: number;
  /**
   * `false` skips the faithful-representation guard (adr/0020; the cluster check stays): for
   * benchmarks that time its cost only — cells may then be wrong where the grid rounds sites.
   */
  guard?: boolean;
  /**
   * What the cells' emit brings back: `'coordinates'` (default) every ring point as f64;
   * `'indexed'` each Voronoi vertex once as f64 and the rings as u32 indices into them, expanded
   * on the host (`cpu.expandRings`, worker threads in geo): 57% of the bytes, but the expansion's
   * gather is random in the vertices and cost more than the copy it saves on the H200 host
   * (adr/0015). The same cells bit for bit.
   */
  emit?: 'indexed' | 'coordinates';
  /**
   * Vertices the indexed emit has room for besides the circumcentres (default
   * {@link extraVertexRoom}; at most that). For tests: too few makes the pipeline emit the
   * coordinates instead.
   */
  extraVertices?: number;
  /**
   * Keeps a ring point equal in f64 to the point before it (distinct grid points rounding to one
   * double; by default the emit drops it, as geo's repeated-points pass did). For tests.
   */
  keepRepeats?: boolean;
  /**
   * The sites may repeat (the caller has not removed duplicates): after the Hilbert sort the GPU
   * checks that they are distinct (one pass, 8 bytes back) and throws a `RepeatedSitesError` when
   * two are equal or it cannot be sure, before any other work; the caller then removes them and
   * runs again. Default: the sites are distinct (the caller's promise, unchecked).
   */
  sitesMayRepeat?: boolean;
}

/**
 * The sites along the Hilbert curve and their triangulation: what stages 1–2 produce. Exposed so a
 * benchmark can time everything after the Delaunay stage on its own.
 */
export interface PreparedSites {
  /** The caller's sites (interleaved xy). */
  sites: Float64Array;
  /** Number of sites. */
  count: number;
  /**
   * `order[k]`: the caller's index of curve site k, read back from the device on first call
   * (before the next pipeline run on the context).
   */
  readOrder(): Promise<Uint32Array>;
  delaunay: DelaunayStage;
  /** The fixed-point grid of the sites and the box. */
  grid: FixedGrid;
  /** What stage 1 left on the device (valid until the next pipeline run on the context). */
  device: DeviceSites;
  /** The grid sites in curve order on the device when a GPU Delaunay stage gathered them already. */
  curveSites?: GPUBuffer | null;
  /**
   * The cells' output array, its pages mapped by worker threads while the Delaunay stage runs
   * (see {@link cellsOutput}); taken by the first cell run, which otherwise prepares its own.
   */
  output?: CellsOutput | null;
}

/** An output array being prepared for up to `points` ring points. */
export interface CellsOutput {
  points: number;
  array: Promise<Float64Array>;
  /**
   * For the indexed emit: room for the vertices (f64 pairs of up to 2n triangles' circumcentres
   * and {@link extraVertexRoom} more) followed by `points` u32 indices; null for the coordinates.
   */
  staging: Promise<Float64Array> | null;
}

/**
 * Vertices the indexed emit has room for besides the circumcentres (box-clip points and corners
 * of the cells along the box, O(√n)); a run needing more emits the coordinates instead.
 */
export function extraVertexRoom(n: number): number {
  return 64 * Math.ceil(Math.sqrt(n)) + 1024;
}

/** Doubles of an indexed staging array before its indices: the vertices' room for n sites. */
export function vertexRoomDoubles(n: number): number {
  return 2 * (2 * n + extraVertexRoom(n));
}

/**
 * Starts preparing the cells' output for `n` sites (worker threads map its pages): room for every
 * ring point of a triangulation of n sites — at most 2n − 5 triangles, so 3(2n − 5) half-edges,
 * plus a closing point a site — and for the cells clipped along the box (O(√n)). A cell run whose
 * actual total is larger emits again at the exact size.
 */
export function cellsOutput(n: number, cpu?: CpuStages, indexed = false): CellsOutput {
  const points = cellsOutputPoints(n);
  const staging = indexed ? outputArray(cpu, vertexRoomDoubles(n) + Math.ceil(points / 2)) : null;
  return { points, array: outputArray(cpu, 2 * points), staging };
}

/** The ring points {@link cellsOutput} has room for (no array made). */
export function cellsOutputPoints(n: number): number {
  return 7 * n + 64 * Math.ceil(Math.sqrt(n)) + 1024;
}

/** An output array from the CPU stages' allocator when there is one. */
export function outputArray(cpu: CpuStages | undefined, length: number): Promise<Float64Array> {
  return cpu?.outputArray ? cpu.outputArray(length) : Promise.resolve(new Float64Array(length));
}
