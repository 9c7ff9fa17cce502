import type { Box } from '@geoframe/core';
import { type GpuDelaunayResult, gpuDelaunayStage } from '../delaunay/delaunay-gpu.js';
import { type CpuStages, cpuStageOf, type DelaunayStage, requireCpu } from '../delaunay/delaunay-stage.js';
import { certifyCpuTriangles } from '../delaunay/grid-certificate.js';
import { type FixedGrid, gridUniformWords } from '../exact/index.js';
import { gridOfBounds } from '../exact/to-grid-kernel.js';
import { encodeTwins } from '../mesh/halfedge-kernels.js';
import { CELL_WORKGROUP_SIZE } from '../mesh/halfedge-wgsl.js';
import { GATHER_SITES_KERNEL, hilbertOrderGpu, sitesInOrder } from '../order/hilbert-order.js';
import { sitesUp } from '../order/site-bounds.js';
import { type PlannedDispatch, planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../runtime/dispatch.js';
import { GpuOutOfMemoryError, GpuPrecisionError, GpuUnavailableError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { BindingLayout, BoundBuffers } from '../runtime/kernel-bindings.js';
import type { MemoryScope } from '../runtime/memory-scope.js';
import type { KernelConstants, NamedKernel } from '../runtime/pipeline-cache.js';
import { type UploadPart, uploadParts } from '../runtime/staging.js';
import { uniformBlock } from '../runtime/uniform-block.js';
import { encodeCircumcenters } from './circumcenters/circumcenters.js';
import { checkSitesDistinct, RepeatedSitesError } from './repeated-sites.js';

import {
  type CellsOutput,
  cellsOutput,
  type PreparedSites,
  type VoronoiGpuOptions,
  type VoronoiGpuStats,
} from './voronoi-options.js';

/**
 * Storage buffers the ring kernel binds, the most of any kernel of the pipeline (WebGPU
 * guarantees 8 per stage; adapters offer more, Chromium 10). voronoi-cell-limit.test.ts derives it from the
 * kernels' sources.
 */
export const CELL_STORAGE_BUFFERS = 10;

/** The triangulation and the device buffers stages 4–5 start from. */
export interface Front {
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

/** One run of the pipeline: its stats, timing and the stages' shared plumbing. */
export class PipelineRun {
  readonly stats: VoronoiGpuStats;
  /** The run's error scope, closed after the last submission (see {@link MemoryScope}). */
  scope: MemoryScope | null = null;
  clock = performance.now();
  readonly maxPerDimension: number;

  constructor(
    readonly ctx: GpuContext,
    readonly sites: Float64Array,
    readonly options: VoronoiGpuOptions,
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

  /** Whether the sites were checked distinct on the GPU (`sitesMayRepeat`). */
  private distinct = false;

  /** The CPU stages for an input without a triangle (0–2 sites, collinear), the fallback reported. */
  withoutTriangles(what: 'cells' | 'edges'): CpuStages {
    // the CPU's stages take distinct sites: 0–2 sites that may repeat were never checked
    if (this.options.sitesMayRepeat && !this.distinct) throw new RepeatedSitesError(0, this.stats.sites);
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
  buffer(name: string, bytes: number): GPUBuffer {
    this.checkFits(name, bytes);
    return scratchBuffer(this.ctx, `voronoi/${name}`, bytes);
  }

  checkFits(name: string, bytes: number): void {
    const limit = Math.min(this.ctx.limits.maxStorageBufferBindingSize, this.ctx.limits.maxBufferSize);
    if (bytes > limit) {
      throw new GpuOutOfMemoryError(
        `voronoi/${name}`,
        bytes,
        `over the device's ${limit}-byte binding limit`,
      );
    }
  }

  pass(name: string): GPUComputePassDescriptor | undefined {
    return this.options.profiler?.passDescriptor(name);
  }

  /** A dispatch of `kernel` over `count` threads, binding `buffers` by name. */
  dispatch<L extends BindingLayout>(
    kernel: NamedKernel<KernelConstants, L>,
    count: number,
    buffers: BoundBuffers<L>,
  ): PlannedDispatch {
    return planned(kernel, { params: [count], buffers, workgroups: Math.ceil(count / CELL_WORKGROUP_SIZE) });
  }

  record(encoder: GPUCommandEncoder, name: string, dispatches: PlannedDispatch[]): Promise<void> {
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
    // before any work: a device that cannot run the cell kernel (Chromium exposes 10 storage
    // buffers a stage, also on its SwiftShader) would otherwise learn it after the Delaunay
    // stage, minutes of compiling on a software adapter; it counts as no GPU for this operation
    // ('auto' falls back)
    if (ctx.limits.maxStorageBuffersPerShaderStage < CELL_STORAGE_BUFFERS) {
      throw new GpuUnavailableError(
        `the Voronoi cell kernel binds ${CELL_STORAGE_BUFFERS} storage buffers, this device allows ${ctx.limits.maxStorageBuffersPerShaderStage}`,
      );
    }
    // compared, not multiplied: the area of a box 1e-300 wide underflows to 0
    if (!(box.maxX > box.minX && box.maxY > box.minY)) {
      throw new RangeError(
        `the clip box of two or more sites must have positive width and height, got [${box.minX}, ${box.maxX}] × [${box.minY}, ${box.maxY}]`,
      );
    }
    // the worker threads map the output's pages while this thread and the GPU order the sites
    // and triangulate (its first parallel pass comes after delaunator, long after this is done)
    const output = forCells ? cellsOutput(n, this.options.cpu, this.options.emit === 'indexed') : null;
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
    if (this.options.sitesMayRepeat) {
      const buffers = { keys: device.keys, order: device.orderBuffer, xy: input };
      await checkSitesDistinct(ctx, n, buffers, this.maxPerDimension);
      this.distinct = true;
      this.lap('sites checked distinct');
    }
    let delaunay: DelaunayStage | null;
    let curveSites: GPUBuffer | null = null;
    let gpuStats: GpuDelaunayResult['stats'] | null = null;
    if (this.options.delaunay !== 'cpu') {
      // the grid sites in curve order, which the GPU stars read (and the later stages too)
      curveSites = this.buffer('sites', 16 * n);
      const encoder = ctx.device.createCommandEncoder({ label: 'voronoi/gather' });
      await this.record(encoder, 'gather sites', [
        this.dispatch(GATHER_SITES_KERNEL, n, {
          fixed: device.fixed,
          order: device.orderBuffer,
          curve: curveSites,
        }),
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
        this.dispatch(GATHER_SITES_KERNEL, n, {
          fixed: device.fixed,
          order: device.orderBuffer,
          curve: front.sites,
        }),
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
}
