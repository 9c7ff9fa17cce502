import type { RasterGrid, RasterMode } from '@geoframe/core';
import { scratchBuffer } from '../primitives/scratch.js';
import { readback } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { remapUploads, type UploadPart, uploadParts } from '../runtime/staging.js';
import { BufferUsage } from '../runtime/usage.js';
import { chooseCoarseLevel } from './coarse-level.js';
import { DISTANCE_KERNEL } from './distance-kernel.js';
import { buildExactGpu, type ExactGpu } from './exact-gpu.js';
import { TIE_CANDIDATES } from './exact-gpu-kernels.js';
import type { HostSpan, HostSpans } from './host-spans.js';
import { buildJfaFamily } from './jfa-family.js';
import { type Alloc, gridParams } from './level-grid.js';
import { RasterProgram } from './raster-program.js';
import { assertBindable, prepareRaster, type RasterSetup } from './raster-setup.js';
import { gridWorkgroups, LIST_WORKGROUP } from './raster-wgsl.js';
import { RELABEL_KERNEL } from './relabel-kernel.js';

/** Near-ties whose candidates are listed on the GPU and read back with the labels (more: host buckets). */
export const TIE_PREFIX = 1 << 16;

/** Options of a raster Voronoi computation on the GPU. */
export interface RasterGpuOptions {
  mode: RasterMode;
  /** Also compute the distance from each pixel centre to its site (coordinate units, f32). */
  distance?: boolean;
  /**
   * Facet-JFA only: the coarse level p (the JFA runs on pixels of 2^p × 2^p); default: chosen
   * from the sites ({@link chooseCoarseLevel}). Clamped to the grid's deepest level.
   */
  coarseLevel?: number;
  /**
   * 2D JFA passes (every JFA mode, and Facet-JFA's coarse level): which of them carry each
   * pixel's site position next to its label, so that they read a candidate's position from the
   * pixel instead of gathering it through the label — `'auto'` (default: where that is faster,
   * see `carryPlan`), `true` (all), `false` (none). Same labels either way; the positions take two
   * buffers of 8 bytes per pixel. Grids whose positions exceed one storage binding, and 3D grids,
   * always gather.
   */
  carryPositions?: boolean | 'auto';
  /**
   * The label written for site i is `labelOf[i]` instead of i (e.g. the input row of each site),
   * mapped on the GPU by the run's last pass. Distances and tie rules still go by site index.
   */
  labelOf?: Int32Array | Uint32Array;
}

/** What a GPU raster run did. */
export interface RasterGpuStats {
  mode: RasterMode;
  /** Compute dispatches of the raster's own kernels (the compactions' passes not included). */
  passes: number;
  /** The JFA steps run (the coarse level's, for Facet-JFA), in order. */
  jfaSteps: number[];
  /** How many of the JFA passes carried site positions with the labels (see `carryPositions`). */
  carriedPasses: number;
  /**
   * Pixel visits of the neighbour search: for JFA passes every pixel of the grid (level) per
   * pass; for Facet-JFA's refinements the unmarked pixels only; for 'exact' every pixel once.
   */
  pixelsProcessed: number;
  /** Sites that seed a pixel (JFA family) or take part (exact: unique sites). */
  sitesUsed: number;
  /** Facet-JFA: the coarse level used. */
  coarseLevel?: number;
  /** Facet-JFA: unmarked pixels refined per level, from level coarseLevel − 1 down to 0. */
  refinedPerLevel?: number[];
  /** 'exact': pixels whose two best f32 candidates were within the error bound (re-decided in f64). */
  nearTies?: number;
  /** 'exact': of those, how many labels the f64 re-decision changed. */
  nearTiesChanged?: number;
  /** Kernel time in ms (sum of profiled passes), when a profiler was given to `voronoiRasterGpu`. */
  kernelMs?: number;
  /** Each profiled pass's name and time (ms), with `kernelMs`. */
  kernelPasses?: HostSpan[];
  /**
   * `voronoiRasterGpu`: where the host's time went, span by span (ms): preparing the sites, the
   * sites' order, building the program, pipelines and bind groups, uploads, recording and
   * submitting, the result arrays, waiting for the GPU, copying out, the near-ties.
   */
  hostSpans?: HostSpan[];
}

/** One buffer of {@link RasterPlan.resultParts}. */
export type RasterResultPart =
  | 'labels'
  | 'distance'
  | 'counts'
  | 'tie-count'
  | 'ties'
  | 'candidate-count'
  | 'candidates'
  | 'unique';

/** One range of {@link RasterPlan.resultParts}. */
export interface RasterResult {
  kind: RasterResultPart;
  source: GPUBuffer;
  sourceOffset?: number;
  bytes: number;
}

/**
 * A raster Voronoi computation prepared on the GPU: sites uploaded, buffers allocated, passes
 * built once, so {@link encode} can be recorded any number of times (benchmarks, and later CVT
 * iterations). After the recorded work runs, {@link labels} holds one u32 per pixel (the site
 * index, 0xFFFFFFFF for none: −1 read as `Int32Array`) in the documented raster order.
 *
 * For 'exact', the labels on the GPU are the f32 decision: pixels listed by {@link readNearTies}
 * must be re-decided in f64 (`voronoiRasterGpu` does it, from the candidates listed with them).
 *
 * Its working buffers are the context's scratch buffers (reused by the next plan, cleared at the
 * start of each recorded run): one plan per context in use at a time, as `voronoiRasterGpu`
 * ensures through `runExclusive`.
 */
export class RasterPlan {
  readonly setup: RasterSetup;
  readonly mode: RasterMode;
  /** Labels, one u32 per pixel; `STORAGE | COPY_SRC | COPY_DST`. */
  readonly labels: GPUBuffer;
  /** Distances (f32 per pixel) when asked for, else null. */
  readonly distance: GPUBuffer | null;
  /** 'exact' with sites: its near-ties and their candidates on the GPU (for the f64 pass), else null. */
  readonly exact: ExactGpu | null;
  private readonly ctx: GpuContext;
  private readonly program: RasterProgram;
  private readonly counters: { stats: GPUBuffer | null };
  private readonly baseStats: RasterGpuStats;

  private constructor(init: {
    ctx: GpuContext;
    setup: RasterSetup;
    mode: RasterMode;
    labels: GPUBuffer;
    distance: GPUBuffer | null;
    exact: ExactGpu | null;
    program: RasterProgram;
    counters: RasterPlan['counters'];
    stats: RasterGpuStats;
  }) {
    this.ctx = init.ctx;
    this.setup = init.setup;
    this.mode = init.mode;
    this.labels = init.labels;
    this.distance = init.distance;
    this.exact = init.exact;
    this.program = init.program;
    this.counters = init.counters;
    this.baseStats = init.stats;
  }

  /**
   * Prepares `sites` (interleaved, stride `dims`) on `grid` for `options.mode`.
   *
   * @throws RangeError for a bad grid or sites (see `prepareRaster`), an unknown mode, a bad
   *   coarse level, or a grid whose labels exceed one storage binding of this device;
   *   GpuOutOfMemoryError, GpuValidationError, GpuDeviceLostError.
   */
  static async create(
    ctx: GpuContext,
    sites: Float64Array,
    dims: 2 | 3,
    grid: RasterGrid,
    options: RasterGpuOptions,
    spans?: HostSpans,
  ): Promise<RasterPlan> {
    ctx.assertUsable();
    spans?.restart();
    const setup = prepareRaster(sites, dims, grid);
    spans?.lap('prepare sites');
    const { mode } = options;
    if (!['jfa', 'jfa+1', '1+jfa', 'facet-jfa', 'exact'].includes(mode)) {
      throw new RangeError(`raster: unknown mode ${String(mode)}`);
    }
    const bytes = setup.pixels * 4;
    assertBindable(ctx.limits, bytes, `a ${grid.width}×${grid.height}×${grid.depth} label grid`);
    const maxGroups = ctx.limits.maxComputeWorkgroupsPerDimension;
    const groups = gridWorkgroups(dims, setup.width, setup.height, setup.depth);
    if (groups.some((g) => g > maxGroups)) {
      throw new RangeError(
        `raster: the grid needs ${groups.join('×')} workgroups, over ${maxGroups} per dimension`,
      );
    }
    const program = new RasterProgram(ctx);
    // uploads go through one reused write staging buffer into reused buffers per context and
    // name (no buffer created on the hot path), copied by one submission at the end of create
    const uploads: UploadPart[] = [];
    const make: Alloc = {
      storage: async (size, label, usage = 0) => {
        // kept per context and name, reused by the next call; cleared first thing in the run, so
        // it starts as a new buffer would (zeroed). No raster kernel reads arrayLength, so a
        // buffer larger than asked binds the same.
        const b = scratchBuffer(ctx, `raster/${label}`, size, usage & BufferUsage.INDIRECT);
        program.encode((encoder) => encoder.clearBuffer(b, 0, Math.ceil(size / 4) * 4));
        return b;
      },
      upload: async (data, label) => {
        const b = scratchBuffer(ctx, `raster/up/${label}`, Math.max(4, data.byteLength));
        uploads.push({ data, target: b });
        return b;
      },
    };
    try {
      const labels = await make.storage(bytes, 'raster labels', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
      const distance = options.distance
        ? await make.storage(bytes, 'raster distance', BufferUsage.COPY_SRC)
        : null;
      const stats: RasterGpuStats = {
        mode,
        passes: 0,
        jfaSteps: [],
        carriedPasses: 0,
        pixelsProcessed: 0,
        sitesUsed: 0,
      };
      const counters: RasterPlan['counters'] = { stats: null };
      let exact: ExactGpu | null = null;
      // at least one vec4, so that zero or one site still make a valid binding
      const padded = new Float32Array(Math.max(4, setup.positions.length));
      padded.set(setup.positions);
      const positions = await make.upload(padded, 'raster sites');
      if (mode === 'exact') {
        exact = await buildExactGpu(ctx, program, setup, sites, positions, labels, make, TIE_PREFIX);
        stats.sitesUsed = setup.count;
        stats.pixelsProcessed = setup.pixels;
      } else {
        stats.sitesUsed = setup.seeded;
        await buildJfaFamily(ctx, program, setup, options, positions, labels, make, counters, stats);
      }
      if (distance) {
        program.pass('distance').dispatch(DISTANCE_KERNEL, {
          constants: { dims },
          params: gridParams(setup, 0, [0, 0, 0, 0], [setup.pixelSize[0]]),
          buffers: {
            sites: positions,
            labels,
            distance,
          },
          workgroups: { grid: groups },
        });
      }
      if (options.labelOf) {
        const labelOf = await make.upload(checkedLabelOf(options.labelOf, setup.count), 'raster label of');
        program.pass('relabel').dispatch(RELABEL_KERNEL, {
          constants: { dims },
          params: gridParams(setup, 0, [setup.pixels]),
          buffers: {
            labels,
            label_of: labelOf,
          },
          workgroups: { linear: Math.ceil(setup.pixels / LIST_WORKGROUP) },
        });
      }
      spans?.lap('sites order + program');
      await program.finish();
      stats.passes = program.dispatchCount;
      spans?.lap('pipelines + bind groups');
      if (uploads.length > 0) {
        const encoder = ctx.device.createCommandEncoder({ label: 'raster uploads' });
        await uploadParts(ctx, encoder, 'raster/uploads', uploads);
        ctx.device.queue.submit([encoder.finish()]);
        remapUploads(ctx, 'raster/uploads');
      }
      spans?.lap('uploads');
      return new RasterPlan({ ctx, setup, mode, labels, distance, exact, program, counters, stats });
    } catch (error) {
      program.destroy();
      throw error;
    }
  }

  /** Number of profiled compute passes one {@link encode} records (a profiler needs room for them). */
  get passCount(): number {
    return this.program.passCount;
  }

  /** Records the whole computation into `encoder`; with a profiler, each own compute pass is timed. */
  encode(encoder: GPUCommandEncoder, profiler?: GpuProfiler): Promise<void> {
    return this.program.record(encoder, profiler);
  }

  /** 'exact': the pixels the last run found to be f32 near-ties (read back; unordered). Else empty. */
  async readNearTies(): Promise<Uint32Array> {
    if (!this.exact) return new Uint32Array(0);
    const { ties, tieCount } = this.exact;
    const [count] = await readback(this.ctx, tieCount, new Uint32Array(1));
    return readback(this.ctx, ties, new Uint32Array(Math.min(count, this.setup.pixels)));
  }

  /** The statistics of the last run (Facet-JFA's per-level counts are read back from the GPU). */
  async readStats(): Promise<RasterGpuStats> {
    const levels = this.baseStats.coarseLevel ?? 0;
    const counts =
      this.counters.stats && levels > 0
        ? await readback(this.ctx, this.counters.stats, new Uint32Array(levels))
        : null;
    return this.statsOf(counts);
  }

  /** The statistics given Facet-JFA's per-level counts as read back (null for the other modes). */
  statsOf(counts: Uint32Array | null): RasterGpuStats {
    const stats: RasterGpuStats = { ...this.baseStats, jfaSteps: [...this.baseStats.jfaSteps] };
    if (counts !== null) {
      stats.refinedPerLevel = [...counts].reverse();
      stats.pixelsProcessed += stats.refinedPerLevel.reduce((a, b) => a + b, 0);
    }
    return stats;
  }

  /**
   * What one readback after a run brings back, in this order: the labels, the distance (when
   * asked), Facet-JFA's per-level counts, and for 'exact' the near-tie count, the first
   * `tiePrefix` near-ties (the rest, rarely any, by {@link readNearTies}), their candidates and
   * candidate counts, and the number of unique sites.
   */
  resultParts(): RasterResult[] {
    const bytes = 4 * this.setup.pixels;
    const parts: RasterResult[] = [{ kind: 'labels', source: this.labels, bytes }];
    if (this.distance) parts.push({ kind: 'distance', source: this.distance, bytes });
    const levels = this.baseStats.coarseLevel ?? 0;
    if (this.counters.stats && levels > 0)
      parts.push({ kind: 'counts', source: this.counters.stats, bytes: 4 * levels });
    const exact = this.exact;
    if (exact) {
      const prefix = exact.tiePrefix;
      parts.push({ kind: 'tie-count', source: exact.tieCount, bytes: 4 });
      parts.push({ kind: 'ties', source: exact.ties, bytes: 4 * Math.min(prefix, this.setup.pixels) });
      parts.push({ kind: 'candidate-count', source: exact.candidateCount, bytes: 4 * prefix });
      parts.push({ kind: 'candidates', source: exact.candidates, bytes: 4 * prefix * TIE_CANDIDATES });
      parts.push({ kind: 'unique', source: exact.start, sourceOffset: 4 * exact.buckets, bytes: 4 });
    }
    return parts;
  }

  /** Frees the plan's own parameter block (its working buffers are the context's, kept for the next plan). */
  destroy(): void {
    this.program.destroy();
  }
}

/** `labelOf` checked to have one label per site (u32 view of its bytes). */
function checkedLabelOf(labelOf: Int32Array | Uint32Array, count: number): Uint32Array {
  if (labelOf.length !== count) {
    throw new RangeError(`raster: labelOf has ${labelOf.length} labels for ${count} sites`);
  }
  return new Uint32Array(labelOf.buffer, labelOf.byteOffset, labelOf.length);
}
