import type { Box } from '@geoframe/core';
import { type GpuDelaunayResult, gpuDelaunayStage } from '../delaunay/delaunay-gpu.js';
import {
  type CpuStages,
  cpuStageOf,
  type DelaunayStage,
  emptyLines,
  emptyPolygons,
  type LineBuffers,
  type PolygonBuffers,
  requireCpu,
  type StageFallbackListener,
} from '../delaunay/delaunay-stage.js';
import { certifyCpuTriangles } from '../delaunay/grid-certificate.js';
import { type FixedGrid, gridUniformWords } from '../exact/index.js';
import { gridOfBounds } from '../exact/to-grid-kernel.js';
import { encodeTwins } from '../mesh/halfedge-kernels.js';
import { CELL_WORKGROUP_SIZE } from '../mesh/halfedge-wgsl.js';
import {
  type DeviceSites,
  GATHER_SITES_KERNEL,
  hilbertOrderGpu,
  sitesInOrder,
} from '../order/hilbert-order.js';
import { sitesUp } from '../order/site-bounds.js';
import { type PlannedDispatch, recordDispatches } from '../primitives/dispatch-recorder.js';
import { encodeScan } from '../primitives/scan/encode-scan.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { DevicePolygons, RESIDENT_USAGE } from '../resident/device-polygons.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../runtime/dispatch.js';
import { GpuOutOfMemoryError, GpuPrecisionError, GpuUnavailableError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { createFaultBuffer, throwOnFault } from '../runtime/kernel-fault.js';
import { MemoryScope } from '../runtime/memory-scope.js';
import type { KernelSpec } from '../runtime/pipeline-cache.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { runExclusive } from '../runtime/run-queue.js';
import {
  remapUploads,
  submitAndRead,
  submitForRead,
  type UploadPart,
  uploadParts,
} from '../runtime/staging.js';
import { uniformBlock } from '../runtime/uniform-block.js';
import { EMIT_RINGS_KERNEL, RING_KERNEL } from './cells/ring-kernel.js';
import { HULL_START_KERNEL, PLAN_CELLS_KERNEL, WALK_START_KERNEL } from './cells/walk-kernels.js';
import { encodeCircumcenters } from './circumcenters/circumcenters.js';
import { CLIP_EDGES_KERNEL, EMIT_EDGES_KERNEL } from './edges/edge-kernels.js';

/** Storage buffers the ring kernel binds (WebGPU guarantees 8 per stage; adapters offer more). */
const CELL_STORAGE_BUFFERS = 11;

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
}

/**
 * The Voronoi cell of every site, clipped to `box`, computed by the GPU pipeline: the same
 * contract and output layout as the CPU's `voronoiCells` (one closed counter-clockwise ring per
 * site, in site order, starting at its lowest vertex; GEOS semantics). Stages:
 *
 * 1. Hilbert order of the sites (GPU keys and radix sort).
 * 2. Delaunay triangulation of the ordered sites: the GPU's per-site stars (or the CPU's exact one,
 *    see {@link DelaunayStage}).
 * 3. Circumcentres: exact rationals rounded to the fixed-point grid, one thread per triangle.
 * 4. Cells by count–scan–scatter: per site its fan is walked once to size a scratch slot
 *    (scan), then walked again to write the ring there — simple cells copy their circumcentres,
 *    cells on the hull or crossing the box clip each bisector exactly against the box — and
 *    finished (merged duplicates, exact convexity); ring lengths are scanned in the caller's order.
 * 5. Emit: each ring is converted to f64 and written to its final place, rotated and closed, in
 *    the same submission as stage 4 (into an output sized by a guess, emitted again at the exact
 *    size in the rare case it is too small), and the ring offsets and coordinates come back in
 *    one readback.
 *
 * Inputs with no triangle (0–2 sites, all collinear) are answered by the CPU's `voronoiCells`
 * (nothing to parallelise). Same preconditions as `voronoiCells`: unique finite sites, a box
 * containing them with positive width and height when there are two or more.
 */
async function voronoiCellsGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: VoronoiGpuOptions = {},
): Promise<{ cells: PolygonBuffers; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, sites, options);
  const n = run.stats.sites;
  if (n === 0) return { cells: emptyPolygons(), stats: run.stats };
  if (n < 3) return { cells: run.withoutTriangles('cells').voronoiCells(sites, box), stats: run.stats };
  return withDeviceErrors(
    ctx,
    'voronoiCellsGpu',
    async (scope) => {
      run.scope = scope;
      const prepared = await run.prepare(box, true);
      if (prepared === null) {
        return { cells: run.withoutTriangles('cells').voronoiCells(sites, box), stats: run.stats };
      }
      return { cells: await run.cells(await run.frontStages(prepared)), stats: run.stats };
    },
    () => run.lap('device error scope'),
  );
}

/**
 * {@link voronoiCellsGpuAlone} with the cells left on the device (adr/0032): the same cells, in
 * the same rows, as device-resident polygons the caller owns (`destroy()` frees them). Inputs with
 * no triangle are answered by the CPU and put on the device. Rings may repeat a point where
 * cocircular sites share a Voronoi vertex (as the host path's do before geo removes repeats).
 */
async function voronoiCellsGpuOnDeviceAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: VoronoiGpuOptions = {},
): Promise<{ cells: DevicePolygons; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, sites, options);
  const n = run.stats.sites;
  const fromCpu = async () => {
    const cells = n === 0 ? emptyPolygons() : run.withoutTriangles('cells').voronoiCells(sites, box);
    return { cells: await DevicePolygons.fromHost(ctx, cells.coords, cells.ringOffsets), stats: run.stats };
  };
  if (n < 3) return fromCpu();
  return withDeviceErrors(
    ctx,
    'voronoiCellsGpu (kept on the device)',
    async (scope) => {
      run.scope = scope;
      const prepared = await run.prepare(box);
      if (prepared === null) return fromCpu();
      return { cells: await run.keptCells(await run.frontStages(prepared)), stats: run.stats };
    },
    () => run.lap('device error scope'),
  );
}

/**
 * {@link voronoiCellsGpuOnDeviceAlone}, queued on the context with its other runs (one at a time,
 * see `runExclusive`).
 */
export function voronoiCellsGpuOnDevice(
  ...args: Parameters<typeof voronoiCellsGpuOnDeviceAlone>
): ReturnType<typeof voronoiCellsGpuOnDeviceAlone> {
  return runExclusive(args[0], () => voronoiCellsGpuOnDeviceAlone(...args));
}

/**
 * Runs `work` inside an `out-of-memory` error scope: an allocation the device could not make
 * becomes a {@link GpuOutOfMemoryError} (which `'auto'` dispatch answers with the CPU) instead of
 * an uncaptured error and a later failure elsewhere. `work` may close the scope after its last
 * device call (and reopen it), so its verdict comes while the GPU finishes.
 */
async function withDeviceErrors<T>(
  ctx: GpuContext,
  label: string,
  work: (scope: MemoryScope) => Promise<T>,
  checked?: () => void,
): Promise<T> {
  const scope = new MemoryScope(ctx.device);
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await work(scope) };
  } catch (error) {
    outcome = { error };
  }
  await scope.check(label);
  checked?.();
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/**
 * Stages 1–2 of {@link voronoiCellsGpu} alone (Hilbert order on the GPU, Delaunay; the cells'
 * output array prepared meanwhile), for benchmarks that time the rest with
 * {@link voronoiCellsPrepared}. Null for collinear sites.
 */
async function prepareVoronoiSitesAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: Pick<VoronoiGpuOptions, 'cpu' | 'onFallback'> = {},
): Promise<PreparedSites | null> {
  return new PipelineRun(ctx, sites, options).prepare(box, true);
}

/**
 * Stages 3–5 of {@link voronoiCellsGpu} on prepared sites (see {@link prepareVoronoiSites}; the
 * box is the one they were prepared with).
 */
async function voronoiCellsPreparedAlone(
  ctx: GpuContext,
  prepared: PreparedSites,
  options: VoronoiGpuOptions = {},
): Promise<{ cells: PolygonBuffers; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, prepared.sites, options);
  return withDeviceErrors(ctx, 'voronoiCellsPrepared', async () => ({
    cells: await run.cells(await run.frontStages(prepared)),
    stats: run.stats,
  }));
}

/**
 * Every Voronoi edge once, clipped to `box`, by the GPU pipeline: the same contract as the CPU's
 * `voronoiEdges` (edges between two cells run with the cell of the lower site index on their
 * left; edges shrinking to a point or missing the box are left out), the same stages 1–3 as
 * {@link voronoiCellsGpu}, then one thread per half-edge clips its edge exactly, a scan places
 * the visible ones and one readback brings them back.
 */
async function voronoiEdgesGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: VoronoiGpuOptions = {},
): Promise<{ edges: LineBuffers; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, sites, options);
  const n = run.stats.sites;
  if (n < 2) return { edges: emptyLines(), stats: run.stats };
  if (n < 3) return { edges: run.withoutTriangles('edges').voronoiEdges(sites, box), stats: run.stats };
  return withDeviceErrors(ctx, 'voronoiEdgesGpu', async () => {
    const prepared = await run.prepare(box);
    if (prepared === null) {
      return { edges: run.withoutTriangles('edges').voronoiEdges(sites, box), stats: run.stats };
    }
    return { edges: await run.edges(await run.frontStages(prepared)), stats: run.stats };
  });
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
}

/**
 * Starts preparing the cells' output for `n` sites (worker threads map its pages): room for every
 * ring point of a triangulation of n sites — at most 2n − 5 triangles, so 3(2n − 5) half-edges,
 * plus a closing point a site — and for the cells clipped along the box (O(√n)). A cell run whose
 * actual total is larger emits again at the exact size.
 */
export function cellsOutput(n: number, cpu?: CpuStages): CellsOutput {
  const points = 7 * n + 64 * Math.ceil(Math.sqrt(n)) + 1024;
  return { points, array: outputArray(cpu, 2 * points) };
}

/** An output array from the CPU stages' allocator when there is one. */
function outputArray(cpu: CpuStages | undefined, length: number): Promise<Float64Array> {
  return cpu?.outputArray ? cpu.outputArray(length) : Promise.resolve(new Float64Array(length));
}

/** The triangulation and the device buffers stages 4–5 start from. */
interface Front {
  n: number;
  nt: number;
  grid: FixedGrid;
  encoder: GPUCommandEncoder;
  sites: GPUBuffer;
  order: GPUBuffer;
  triangles: GPUBuffer;
  halfedges: GPUBuffer;
  cc: GPUBuffer;
  ccFlags: GPUBuffer;
  gridUniform: GPUBuffer;
  /** The cells' output prepared during stage 2, when there is one (taken from the prepared sites). */
  output: CellsOutput | null;
}

/** What {@link PipelineRun.recordRings} leaves recorded (not submitted) for the emit. */
interface RecordedRings {
  ringEncoder: GPUCommandEncoder;
  ring: GPUBuffer;
  ringInfo: GPUBuffer;
  slots: GPUBuffer;
  lengths: GPUBuffer;
  faults: GPUBuffer;
}

/** One run of the pipeline: its stats, timing and the stages' shared plumbing. */
class PipelineRun {
  readonly stats: VoronoiGpuStats;
  /** The run's error scope, closed after the last submission (see {@link MemoryScope}). */
  scope: MemoryScope | null = null;
  private clock = performance.now();
  private readonly maxPerDimension: number;

  constructor(
    private readonly ctx: GpuContext,
    private readonly sites: Float64Array,
    private readonly options: VoronoiGpuOptions,
  ) {
    this.stats = {
      sites: sites.length >> 1,
      triangles: 0,
      path: 'cpu',
      stages: [],
      bytesUp: 0,
      bytesDown: 0,
      flips: 0,
      delaunay: { path: 'cpu' },
    };
    this.maxPerDimension = Math.min(
      DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
      ctx.limits.maxComputeWorkgroupsPerDimension,
    );
  }

  /** The CPU stages for an input without a triangle (0–2 sites, collinear), the fallback reported. */
  withoutTriangles(what: 'cells' | 'edges'): CpuStages {
    const why = 'no triangle (fewer than 3 sites, or all collinear)';
    const cpu = requireCpu(this.options.cpu, `voronoi ${what} on the GPU`, why);
    this.options.onFallback?.('voronoi', `${why}: the CPU computed the ${what}`);
    return cpu;
  }

  lap(stage: string): void {
    const now = performance.now();
    this.stats.stages.push({ stage, ms: now - this.clock });
    this.clock = now;
  }

  /**
   * A device buffer of the pipeline, kept per context and reused by later runs. One larger than a
   * storage binding allows (the output of ~18M sites on a 2 GiB limit) is reported as out of
   * memory, so `'auto'` answers with the CPU instead of failing.
   */
  private buffer(name: string, bytes: number): GPUBuffer {
    this.checkFits(name, bytes);
    return scratchBuffer(this.ctx, `voronoi/${name}`, bytes);
  }

  private checkFits(name: string, bytes: number): void {
    const limit = Math.min(this.ctx.limits.maxStorageBufferBindingSize, this.ctx.limits.maxBufferSize);
    if (bytes > limit) {
      throw new GpuOutOfMemoryError(
        `voronoi/${name}`,
        bytes,
        `over the device's ${limit}-byte binding limit`,
      );
    }
  }

  private pass(name: string): GPUComputePassDescriptor | undefined {
    return this.options.profiler?.passDescriptor(name);
  }

  private dispatch(
    kernel: KernelSpec<never>,
    constants: Record<string, number>,
    count: number,
    bound: GPUBuffer[],
  ): PlannedDispatch {
    return {
      kernel,
      constants,
      params: [count],
      entries: bound.map((b, i) => ({ binding: i + 1, buffer: b })),
      workgroups: Math.ceil(count / CELL_WORKGROUP_SIZE),
    };
  }

  /** Adds the grid uniforms as the binding after the dispatch's last one. */
  private withGrid(d: PlannedDispatch, front: Front): PlannedDispatch {
    d.entries.push({ binding: d.entries.length + 1, buffer: front.gridUniform });
    return d;
  }

  private record(encoder: GPUCommandEncoder, name: string, dispatches: PlannedDispatch[]): Promise<void> {
    return recordDispatches(
      this.ctx,
      encoder,
      `voronoi/${name}`,
      dispatches,
      this.maxPerDimension,
      this.pass(name),
    );
  }

  /**
   * Stages 1–2: Hilbert order and Delaunay, with the cells' output array prepared meanwhile when
   * `forCells`. Null when the sites have no triangle (collinear).
   */
  async prepare(box: Box, forCells = false): Promise<PreparedSites | null> {
    const { ctx, sites } = this;
    const n = sites.length >> 1;
    // compared, not multiplied: the area of a box 1e-300 wide underflows to 0
    if (!(box.maxX > box.minX && box.maxY > box.minY)) {
      throw new RangeError(
        `the clip box of two or more sites must have positive width and height, got [${box.minX}, ${box.maxX}] × [${box.minY}, ${box.maxY}]`,
      );
    }
    // the worker threads map the output's pages while this thread and the GPU order the sites
    // and triangulate (its first parallel pass comes after delaunator, long after this is done)
    const output = forCells ? cellsOutput(n, this.options.cpu) : null;
    this.lap('output pages');
    // the sites go up once, as f64, and stay on the device on the fixed-point grid
    this.checkFits('sites', 16 * n);
    // the sites go up and their box (checked finite) comes back from the GPU: it serves the grid,
    // the Hilbert order and the stars
    const { input, bounds } = await sitesUp(ctx, sites);
    const [minX, minY, maxX, maxY] = bounds;
    const extent = { minX, minY, maxX, maxY };
    const grid = gridOfBounds(sites, box, extent);
    this.lap('sites up, their box and the grid');
    const device = await hilbertOrderGpu(ctx, sites, grid, bounds, input);
    this.lap('hilbert order (keys, sort)');
    for (const { stage, ms } of device.steps) this.stats.stages.push({ stage: `(of which ${stage})`, ms });
    let delaunay: DelaunayStage | null;
    let curveSites: GPUBuffer | null = null;
    let gpuStats: GpuDelaunayResult['stats'] | null = null;
    if (this.options.delaunay !== 'cpu') {
      // the grid sites in curve order, which the GPU stars read (and the later stages too)
      curveSites = this.buffer('sites', 16 * n);
      const encoder = ctx.device.createCommandEncoder({ label: 'voronoi/gather' });
      await this.record(encoder, 'gather sites', [
        this.dispatch(GATHER_SITES_KERNEL as KernelSpec<never>, {}, n, [
          device.fixed,
          device.orderBuffer,
          curveSites,
        ]),
      ]);
      ctx.device.queue.submit([encoder.finish()]);
      const result = await gpuDelaunayStage(ctx, sites, {
        fixed: { sites: curveSites, grid },
        order: device.readOrder,
        bounds: extent,
        cpuDelaunay: this.options.cpu?.delaunay,
        input: { xy: input, order: device.orderBuffer },
        cellsBox: box,
        guard: this.options.guard,
      });
      delaunay = result?.stage ?? null;
      gpuStats = result?.stats ?? null;
      if (gpuStats) this.stats.delaunay = { path: gpuStats.path };
      if (gpuStats?.path === 'cpu') {
        this.options.onFallback?.('delaunay', `${gpuStats.fallbackReason}: the CPU triangulated (exact)`);
      }
    } else {
      const cpu = requireCpu(this.options.cpu, 'voronoi on the GPU', "delaunay: 'cpu' was asked for");
      delaunay = cpuStageOf(await cpu.delaunay(sitesInOrder(sites, await device.readOrder())));
    }
    if (delaunay !== null && delaunay.path === 'cpu' && this.options.guard !== false) {
      // the CPU's triangles are exact on the input; the cells built on the grid must still be
      // within the tolerance of the input's (adr/0020)
      const why = certifyCpuTriangles(
        sitesInOrder(sites, await device.readOrder()),
        delaunay.triangles as Uint32Array,
        delaunay.halfedges as Int32Array,
        grid.exponent,
        box,
      );
      if (why !== null) throw new GpuPrecisionError(why);
    }
    this.lap('delaunay');
    if (gpuStats) {
      this.stats.stages.push(
        { stage: '(of which hull round trip)', ms: gpuStats.hullMs },
        { stage: '(of which recording the stars)', ms: gpuStats.encodeMs },
        { stage: "(of which submission to the stars' statistics)", ms: gpuStats.resultMs },
      );
    }
    if (delaunay === null) return null;
    return {
      sites,
      count: n,
      readOrder: device.readOrder,
      delaunay,
      grid,
      device,
      curveSites,
      output,
    };
  }

  /** Stage 3 (upload and circumcentres), recorded into a new encoder, not yet submitted. */
  async frontStages(prepared: PreparedSites): Promise<Front> {
    const { ctx } = this;
    if (ctx.limits.maxStorageBuffersPerShaderStage < CELL_STORAGE_BUFFERS) {
      // a device that cannot run the cell kernel counts as no GPU for this operation ('auto' falls back)
      throw new GpuUnavailableError(
        `the Voronoi cell kernel binds ${CELL_STORAGE_BUFFERS} storage buffers, this device allows ${ctx.limits.maxStorageBuffersPerShaderStage}`,
      );
    }
    const { count: n, delaunay, grid, device } = prepared;
    this.clock = performance.now();
    this.stats.path = 'gpu';
    this.stats.triangles = delaunay.triangleCount;
    this.stats.flips = delaunay.flips;

    const nt = delaunay.triangleCount;
    const nh = 3 * nt;
    const front: Front = {
      n,
      nt,
      grid,
      encoder: ctx.device.createCommandEncoder({ label: 'voronoi' }),
      sites: this.buffer('sites', 16 * n),
      order: device.orderBuffer,
      triangles:
        delaunay.triangles instanceof Uint32Array ? this.buffer('triangles', 12 * nt) : delaunay.triangles,
      halfedges:
        delaunay.halfedges instanceof Int32Array ? this.buffer('halfedges', 12 * nt) : delaunay.halfedges,
      cc: this.buffer('cc', 16 * nt),
      ccFlags: this.buffer('cc-flags', 4 * nt),
      gridUniform: uniformBlock(ctx, gridUniformWords(grid), 'voronoi/grid'),
      output: prepared.output ?? null,
    };
    // an output array serves one run
    prepared.output = null;
    // the sites and their order are on the device since stage 1: only the triangles go up
    const uploads: UploadPart[] = [];
    if (delaunay.triangles instanceof Uint32Array)
      uploads.push({ data: delaunay.triangles, target: front.triangles });
    await uploadParts(ctx, front.encoder, 'voronoi/input', uploads);
    this.stats.bytesUp = uploads.reduce((sum, u) => sum + u.data.byteLength, 0);
    this.lap('upload');
    const encoder = front.encoder;
    if (!prepared.curveSites)
      await this.record(encoder, 'gather sites', [
        this.dispatch(GATHER_SITES_KERNEL as KernelSpec<never>, {}, n, [
          device.fixed,
          device.orderBuffer,
          front.sites,
        ]),
      ]);
    if (delaunay.halfedges instanceof Int32Array) {
      // only the triangles went up: their twins are found on the device
      await encodeTwins(ctx, encoder, {
        triangles: front.triangles,
        halfedges: front.halfedges,
        sites: n,
        halfedgeCount: nh,
        pass: this.pass('twins'),
      });
    }
    await encodeCircumcenters(ctx, front.encoder, {
      sites: front.sites,
      triangles: front.triangles,
      cc: front.cc,
      flags: front.ccFlags,
      triangleCount: nt,
      grid,
      pass: this.pass('circumcenters'),
    });
    return front;
  }

  /** Stages 4–5 for cells. */
  async cells(front: Front): Promise<PolygonBuffers> {
    const { ctx } = this;
    const { n } = front;
    // The output array is prepared (its pages mapped by worker threads) while the GPU works, for
    // a point count guessed from the triangulation: a cell inside the box has degree + 1 points
    // (fewer where centres merge), so the half-edges plus the sites, plus room for the clipped
    // cells along the box, which are O(√n). A larger actual count prepares a new array at the end.
    const output = front.output ?? cellsOutput(n, this.options.cpu);
    const guess = Math.min(this.options.outputGuess ?? output.points, output.points);
    const early = output.array;
    const { ringEncoder, ring, ringInfo, slots, lengths, faults } = await this.recordRings(front);
    const ringOffsets = new Int32Array(n + 1);
    // the output is emitted in the same submission into a buffer sized by the guess, so the ring
    // offsets and the coordinates come back in one round trip; rings past it (a guess too small)
    // are skipped by the kernel and emitted again at the exact size
    const guessed = 16 * guess <= ctx.limits.maxStorageBufferBindingSize;
    if (guessed) {
      const out = this.buffer('coords', 16 * guess);
      await this.recordEmit(ringEncoder, front, ring, ringInfo, slots, lengths, out);
      const pending = await submitForRead(ctx, ringEncoder, 'voronoi/cells-out', [
        { source: lengths, bytes: 4 * (n + 1) },
        { source: out, bytes: 16 * guess },
        { source: faults, bytes: 4 },
      ]);
      // the last device call unless the output outgrows the guess: the scope's verdict is on its
      // way while the GPU builds the cells
      this.scope?.close();
      remapUploads(ctx, 'voronoi/input');
      const prepared = await early;
      this.lap('gpu: cells and emit submitted, output prepared');
      const { value: coords, copyMs } = await pending.read((range, offsets) => {
        throwOnFault(new Uint32Array(range, offsets[2], 1)[0], 'voronoi cells');
        ringOffsets.set(new Int32Array(range, offsets[0], n + 1));
        const points = ringOffsets[n];
        if (points > guess) return null;
        const coords = prepared.subarray(0, 2 * points);
        coords.set(new Float64Array(range, offsets[1], 2 * points));
        return coords;
      });
      this.stats.bytesDown += ringOffsets.byteLength;
      if (coords !== null) {
        this.stats.bytesDown += coords.byteLength;
        this.lap('offsets and coordinates back');
        this.stats.stages.push({ stage: '(of which copy out)', ms: copyMs });
        return { coords, ringOffsets };
      }
      this.lap('offsets back (output larger than guessed)');
    } else {
      const faultWord = new Uint32Array(1);
      await submitAndRead(ctx, ringEncoder, 'voronoi/ring-offsets', [
        { source: lengths, target: ringOffsets },
        { source: faults, target: faultWord },
      ]);
      throwOnFault(faultWord[0], 'voronoi cells');
      remapUploads(ctx, 'voronoi/input');
      this.stats.bytesDown += ringOffsets.byteLength;
      this.lap('gpu: cells, offsets back');
    }

    const points = ringOffsets[n];
    this.scope?.reopen();
    const out = this.buffer('coords', 16 * points);
    const emit = ctx.device.createCommandEncoder({ label: 'voronoi/emit' });
    await this.recordEmit(emit, front, ring, ringInfo, slots, lengths, out, guessed);
    const pending = await submitForRead(ctx, emit, 'voronoi/coords', [{ source: out, bytes: 16 * points }]);
    // a fresh 100 MB array faulted in by the one copy into it would cost more than the copy
    const prepared = await early;
    const coords =
      points <= guess ? prepared.subarray(0, 2 * points) : await outputArray(this.options.cpu, 2 * points);
    this.lap('emit submitted, output prepared');
    const { copyMs } = await pending.into([coords]);
    this.stats.bytesDown += coords.byteLength;
    this.lap('coordinates back');
    this.stats.stages.push({ stage: '(of which copy out)', ms: copyMs });
    return { coords, ringOffsets };
  }

  /**
   * Stage 4, recorded: walk starts, the plan, the scanned slots and the rings, then the ring
   * lengths scanned into ring offsets (in `lengths`). The encoder it returns is not submitted.
   */
  private async recordRings(front: Front): Promise<RecordedRings> {
    const { ctx } = this;
    const { n, nt, encoder } = front;
    const nh = 3 * nt;
    const start = this.buffer('start', 4 * n);
    const kind = this.buffer('kind', 4 * n);
    const slots = this.buffer('slots', 4 * (n + 1));
    const ringInfo = this.buffer('ring-info', 8 * n);
    const lengths = this.buffer('lengths', 4 * (n + 1));
    const faults = createFaultBuffer(ctx, 'voronoi/cells');
    encoder.clearBuffer(start, 0, 4 * n);
    encoder.clearBuffer(slots, 4 * n, 4);
    encoder.clearBuffer(lengths, 4 * n, 4);

    await this.record(encoder, 'walk starts', [
      this.dispatch(WALK_START_KERNEL as KernelSpec<never>, {}, nh, [front.triangles, start]),
      this.dispatch(HULL_START_KERNEL as KernelSpec<never>, {}, nh, [
        front.triangles,
        front.halfedges,
        start,
      ]),
    ]);
    await this.record(encoder, 'plan cells', [
      this.dispatch(PLAN_CELLS_KERNEL as KernelSpec<never>, {}, n, [
        front.halfedges,
        start,
        front.ccFlags,
        kind,
        slots,
        faults,
      ]),
    ]);
    await encodeScan(ctx, encoder, { input: slots, output: slots, count: n + 1 });
    // the scratch ring is sized by the slots' total (about 6 points a site), read back first
    // the scratch ring holds at most 2·degree + 8 points a site, and the degrees sum to the
    // half-edge count; where that bound exceeds one binding (about 6M sites), the actual slot
    // total comes back first (one more round trip) to size it
    const bound = 16 * (2 * nh + 8 * n);
    let ringBytes = bound;
    let ringEncoder = encoder;
    if (bound > ctx.limits.maxStorageBufferBindingSize) {
      const slotTotal = new Uint32Array(1);
      await submitAndRead(ctx, encoder, 'voronoi/slot-total', [
        { source: slots, sourceOffset: 4 * n, target: slotTotal },
      ]);
      remapUploads(ctx, 'voronoi/input');
      this.lap('gpu: grid, twins, circumcentres, plan');
      ringBytes = 16 * Math.max(1, slotTotal[0]);
      ringEncoder = ctx.device.createCommandEncoder({ label: 'voronoi/rings' });
    }
    const ring = this.buffer('ring', ringBytes);
    const rings = this.dispatch(RING_KERNEL as KernelSpec<never>, {}, n, [
      front.sites,
      front.triangles,
      front.halfedges,
      start,
      kind,
      front.cc,
      front.ccFlags,
      slots,
      front.order,
      ring,
      ringInfo,
      lengths,
    ]);
    this.withGrid(rings, front);
    rings.entries.push({ binding: 14, buffer: faults });
    await this.record(ringEncoder, 'rings', [rings]);
    await encodeScan(ctx, ringEncoder, { input: lengths, output: lengths, count: n + 1 });
    return { ringEncoder, ring, ringInfo, slots, lengths, faults };
  }

  /**
   * Stages 4–5 with the cells kept on the device (adr/0032): the emit writes into a buffer the
   * result owns, sized by the guess; the total and the fault word come back (8 bytes), and the
   * coordinates are copied on the device into a buffer of the exact size (emitted again there
   * when the guess was short). Nothing else crosses to the host.
   */
  async keptCells(front: Front): Promise<DevicePolygons> {
    const { ctx } = this;
    const { n } = front;
    const { ringEncoder, ring, ringInfo, slots, lengths, faults } = await this.recordRings(front);
    const guess = Math.max(
      1,
      Math.min(this.options.outputGuess ?? cellsOutput(n).points, cellsOutput(n).points),
    );
    this.checkFits('kept coords', 16 * guess);
    const owned = (bytes: number, label: string) =>
      ctx.device.createBuffer({ label, size: Math.max(16, bytes), usage: RESIDENT_USAGE });
    const offsets = owned(4 * (n + 1), 'voronoi kept ring offsets');
    // emitted into the pipeline's reused output buffer, then copied at the exact size
    const emitted = this.buffer('coords', 16 * guess);
    await this.recordEmit(ringEncoder, front, ring, ringInfo, slots, lengths, emitted);
    ringEncoder.copyBufferToBuffer(lengths, 0, offsets, 0, 4 * (n + 1));
    const words = new Uint32Array(2);
    const pending = await submitForRead(ctx, ringEncoder, 'voronoi/kept-total', [
      { source: lengths, sourceOffset: 4 * n, bytes: 4 },
      { source: faults, bytes: 4 },
    ]);
    remapUploads(ctx, 'voronoi/input');
    this.lap('gpu: cells and emit submitted');
    await pending.into([words.subarray(0, 1), words.subarray(1, 2)]);
    throwOnFault(words[1], 'voronoi cells');
    const points = words[0];
    this.lap('total back');
    this.stats.bytesDown += 8;
    this.checkFits('kept coords', 16 * points);
    const coords = owned(16 * points, 'voronoi kept coords');
    const finish = ctx.device.createCommandEncoder({ label: 'voronoi/kept' });
    if (points > guess) {
      // rings past the guess were skipped: emitted again, every one, at the exact size
      await this.recordEmit(finish, front, ring, ringInfo, slots, lengths, coords, true);
    } else if (points > 0) {
      finish.copyBufferToBuffer(emitted, 0, coords, 0, 16 * points);
    }
    ctx.device.queue.submit([finish.finish()]);
    this.scope?.close();
    return new DevicePolygons(ctx, { coords, offsets }, n, points);
  }

  /**
   * Records the emit pass (rings rotated, converted to f64, closed, at their offsets) into
   * `encoder`, timed and closing the profiler's round unless `again` (an emit after the round).
   */
  private async recordEmit(
    encoder: GPUCommandEncoder,
    front: Front,
    ring: GPUBuffer,
    ringInfo: GPUBuffer,
    slots: GPUBuffer,
    lengths: GPUBuffer,
    out: GPUBuffer,
    again = false,
  ): Promise<void> {
    const dispatches = [
      this.withGrid(
        this.dispatch(EMIT_RINGS_KERNEL as KernelSpec<never>, {}, front.n, [
          ring,
          ringInfo,
          slots,
          front.order,
          lengths,
          out,
        ]),
        front,
      ),
    ];
    if (again) {
      await recordDispatches(this.ctx, encoder, 'voronoi/emit', dispatches, this.maxPerDimension, {
        label: 'voronoi/emit',
      });
      return;
    }
    await this.record(encoder, 'emit', dispatches);
    this.options.profiler?.resolve(encoder);
  }

  /** Stages 4–5 for edges only. */
  async edges(front: Front): Promise<LineBuffers> {
    const { ctx } = this;
    const { nt, encoder } = front;
    const nh = 3 * nt;
    const segments = this.buffer('segments', 32 * nh);
    const place = this.buffer('edge-place', 4 * (nh + 1));
    encoder.clearBuffer(place, 4 * nh, 4);
    const clip = this.dispatch(CLIP_EDGES_KERNEL as KernelSpec<never>, {}, nh, [
      front.sites,
      front.triangles,
      front.halfedges,
      front.cc,
      front.ccFlags,
      front.order,
      segments,
      place,
    ]);
    this.withGrid(clip, front);
    await this.record(encoder, 'clip edges', [clip]);
    await encodeScan(ctx, encoder, { input: place, output: place, count: nh + 1 });
    const total = new Uint32Array(1);
    await submitAndRead(ctx, encoder, 'voronoi/edge-count', [
      { source: place, sourceOffset: 4 * nh, target: total },
    ]);
    remapUploads(ctx, 'voronoi/input');
    this.lap('circumcentres + edges');

    const parts = total[0];
    const coords = new Float64Array(4 * parts);
    const out = this.buffer('edge-coords', 32 * parts);
    const emit = ctx.device.createCommandEncoder({ label: 'voronoi/emit-edges' });
    await this.record(emit, 'emit edges', [
      this.withGrid(
        this.dispatch(EMIT_EDGES_KERNEL as KernelSpec<never>, {}, nh, [segments, place, out]),
        front,
      ),
    ]);
    this.options.profiler?.resolve(emit);
    await submitAndRead(ctx, emit, 'voronoi/edge-coords', [{ source: out, target: coords }]);
    this.stats.bytesDown += coords.byteLength + 4;
    this.lap('emit + readback');
    const partOffsets = new Int32Array(parts + 1);
    for (let k = 0; k <= parts; k++) partOffsets[k] = 2 * k;
    return { coords, partOffsets };
  }
}

/**
 * {@link voronoiCellsGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiCellsGpu(
  ...args: Parameters<typeof voronoiCellsGpuAlone>
): ReturnType<typeof voronoiCellsGpuAlone> {
  return runExclusive(args[0], () => voronoiCellsGpuAlone(...args));
}

/**
 * {@link voronoiEdgesGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiEdgesGpu(
  ...args: Parameters<typeof voronoiEdgesGpuAlone>
): ReturnType<typeof voronoiEdgesGpuAlone> {
  return runExclusive(args[0], () => voronoiEdgesGpuAlone(...args));
}

/**
 * {@link voronoiCellsPreparedAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiCellsPrepared(
  ...args: Parameters<typeof voronoiCellsPreparedAlone>
): ReturnType<typeof voronoiCellsPreparedAlone> {
  return runExclusive(args[0], () => voronoiCellsPreparedAlone(...args));
}

/**
 * {@link prepareVoronoiSitesAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function prepareVoronoiSites(
  ...args: Parameters<typeof prepareVoronoiSitesAlone>
): ReturnType<typeof prepareVoronoiSitesAlone> {
  return runExclusive(args[0], () => prepareVoronoiSitesAlone(...args));
}
