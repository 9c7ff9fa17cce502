import type { RasterGrid, RasterMode } from '@geoframe/core';
import { scratchBuffer } from '../primitives/scratch.js';
import { createStorage, readback, uploadStorage } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage } from '../runtime/usage.js';
import { carryPlan } from './carry-plan.js';
import { chooseCoarseLevel, maxCoarseLevel } from './coarse-level.js';
import { DISTANCE_KERNEL } from './distance-kernel.js';
import { bucketSites, type SiteBuckets } from './exact-buckets.js';
import { EXACT_KERNEL, TIE_FACTOR } from './exact-kernel.js';
import {
  FACET_ARGS_KERNEL,
  FACET_MARK_KERNEL,
  FACET_REFINE_KERNEL,
  FACET_UPSAMPLE_KERNEL,
} from './facet-kernels.js';
import { JFA_CARRY_KERNEL } from './jfa-carry-kernel.js';
import { JFA_STEP_KERNEL } from './jfa-kernel.js';
import { boundMargin, toleranceFloor } from './near-ties-cpu.js';
import { RasterProgram } from './raster-program.js';
import { assertBindable, NO_SITE, nextPowerOfTwo, prepareRaster, type RasterSetup } from './raster-setup.js';
import { gridWorkgroups, JFA_TILE, jfaTileOrder, LIST_WORKGROUP, paramBlock } from './raster-wgsl.js';
import {
  FILL_KERNEL,
  SEED_DISTANCE_KERNEL,
  SEED_LABEL_KERNEL,
  SEED_POSITION_KERNEL,
  SEED_RESET_KERNEL,
} from './seed-kernels.js';
import { rankSites } from './site-order.js';

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
}

/** One buffer of {@link RasterPlan.resultParts}. */
export type RasterResultPart = 'labels' | 'distance' | 'counts' | 'tie-count' | 'ties';

/**
 * A raster Voronoi computation prepared on the GPU: sites uploaded, buffers allocated, passes
 * built once, so {@link encode} can be recorded any number of times (benchmarks, and later CVT
 * iterations). After the recorded work runs, {@link labels} holds one u32 per pixel (the site
 * index, 0xFFFFFFFF for none: −1 read as `Int32Array`) in the documented raster order.
 *
 * For 'exact', the labels on the GPU are the f32 decision: pixels listed by {@link readNearTies}
 * must be re-decided in f64 (`voronoiRasterGpu` does it).
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
  /** Site buckets of 'exact' (for the CPU re-decision), else null. */
  readonly buckets: SiteBuckets | null;
  private readonly ctx: GpuContext;
  private readonly program: RasterProgram;
  private readonly owned: GPUBuffer[];
  private readonly counters: { stats: GPUBuffer | null; ties: GPUBuffer | null; tieCount: GPUBuffer | null };
  private readonly baseStats: RasterGpuStats;

  private constructor(init: {
    ctx: GpuContext;
    setup: RasterSetup;
    mode: RasterMode;
    labels: GPUBuffer;
    distance: GPUBuffer | null;
    buckets: SiteBuckets | null;
    program: RasterProgram;
    owned: GPUBuffer[];
    counters: RasterPlan['counters'];
    stats: RasterGpuStats;
  }) {
    this.ctx = init.ctx;
    this.setup = init.setup;
    this.mode = init.mode;
    this.labels = init.labels;
    this.distance = init.distance;
    this.buckets = init.buckets;
    this.program = init.program;
    this.owned = init.owned;
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
  ): Promise<RasterPlan> {
    ctx.assertUsable();
    const setup = prepareRaster(sites, dims, grid);
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
    const owned: GPUBuffer[] = [];
    const program = new RasterProgram(ctx);
    const make: Alloc = {
      storage: async (size, label, usage = 0) => {
        if ((usage & BufferUsage.INDIRECT) === 0) {
          // kept per context and name, reused by the next call (no allocation on the hot path);
          // cleared first thing in the run, so it starts as a new buffer would (zeroed). No raster
          // kernel reads arrayLength, so a buffer larger than asked binds the same.
          const b = scratchBuffer(ctx, `raster/${label}`, size);
          program.encode((encoder) => encoder.clearBuffer(b, 0, Math.ceil(size / 4) * 4));
          return b;
        }
        const b = await createStorage(ctx, size, label, usage);
        owned.push(b);
        return b;
      },
      upload: async (data, label) => {
        const b = await uploadStorage(ctx, data, label);
        owned.push(b);
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
      const counters: RasterPlan['counters'] = { stats: null, ties: null, tieCount: null };
      let buckets: SiteBuckets | null = null;
      // at least one vec4, so that zero or one site still make a valid binding
      const padded = new Float32Array(Math.max(4, setup.positions.length));
      padded.set(setup.positions);
      const positions = await make.upload(padded, 'raster sites');
      if (mode === 'exact') {
        buckets = bucketSites(setup, sites);
        stats.sitesUsed = buckets.order.length;
        await buildExact(program, setup, buckets, labels, make, counters);
        stats.pixelsProcessed = setup.pixels;
      } else {
        stats.sitesUsed = setup.seeded;
        await buildJfaFamily(ctx, program, setup, options, positions, labels, make, counters, stats);
      }
      if (distance) {
        program.pass('distance').dispatch({
          kernel: DISTANCE_KERNEL,
          constants: { dims },
          params: gridParams(setup, 0, [0, 0, 0, 0], [setup.pixelSize[0]]),
          bindings: [
            { binding: 1, buffer: positions },
            { binding: 2, buffer: labels },
            { binding: 3, buffer: distance },
          ],
          workgroups: { grid: groups },
        });
      }
      await program.finish();
      stats.passes = program.dispatchCount;
      return new RasterPlan({ ctx, setup, mode, labels, distance, buckets, program, owned, counters, stats });
    } catch (error) {
      for (const b of owned) b.destroy();
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
    const { ties, tieCount } = this.counters;
    if (!ties || !tieCount) return new Uint32Array(0);
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
   * asked), Facet-JFA's per-level counts, and for 'exact' the near-tie count and the first
   * `tiePrefix` near-ties (the rest, rarely any, by {@link readNearTies}).
   */
  resultParts(tiePrefix: number): { kind: RasterResultPart; source: GPUBuffer; bytes: number }[] {
    const bytes = 4 * this.setup.pixels;
    const parts: { kind: RasterResultPart; source: GPUBuffer; bytes: number }[] = [
      { kind: 'labels', source: this.labels, bytes },
    ];
    if (this.distance) parts.push({ kind: 'distance', source: this.distance, bytes });
    const levels = this.baseStats.coarseLevel ?? 0;
    if (this.counters.stats && levels > 0)
      parts.push({ kind: 'counts', source: this.counters.stats, bytes: 4 * levels });
    const { ties, tieCount } = this.counters;
    if (ties && tieCount) {
      parts.push({ kind: 'tie-count', source: tieCount, bytes: 4 });
      parts.push({ kind: 'ties', source: ties, bytes: 4 * Math.min(tiePrefix, this.setup.pixels) });
    }
    return parts;
  }

  /** Frees the plan's buffers (labels and distance included). */
  destroy(): void {
    this.program.destroy();
    for (const b of this.owned) b.destroy();
  }
}

/** `data` padded to at least one vec4 (a valid binding for zero or one site). */
function padTo4(data: Float32Array): Float32Array {
  if (data.length >= 4) return data;
  const out = new Float32Array(4);
  out.set(data);
  return out;
}

/** Allocations of a plan: every buffer made through it is destroyed with the plan. */
interface Alloc {
  storage(size: number, label: string, usage?: number): Promise<GPUBuffer>;
  upload(data: ArrayBufferView, label: string): Promise<GPUBuffer>;
}

/** Grid dimensions of Facet-JFA level `level` (2^level-pixel cells, rounded up). */
function levelSize(setup: RasterSetup, level: number): [number, number, number] {
  const f = 2 ** level;
  return [Math.ceil(setup.width / f), Math.ceil(setup.height / f), Math.ceil(setup.depth / f)];
}

/**
 * A parameter block for level `level`: size = level grid, misc as given, scale with block side
 * 2^level, extra, auxu.
 */
function gridParams(
  setup: RasterSetup,
  level: number,
  misc: number[],
  extra: number[] = [],
  auxu: number[] = [],
): Uint32Array {
  const [w, h, d] = levelSize(setup, level);
  const [sx, sy, sz] = setup.scale;
  return paramBlock(
    [w, h, d, w * h * d, ...misc],
    [sx, sy, sz, 2 ** level, ...extra, 0, 0, 0, 0].slice(0, 8),
    auxu,
  );
}

async function buildJfaFamily(
  ctx: GpuContext,
  program: RasterProgram,
  setup: RasterSetup,
  options: RasterGpuOptions,
  positions: GPUBuffer,
  out: GPUBuffer,
  make: Alloc,
  counters: RasterPlan['counters'],
  stats: RasterGpuStats,
): Promise<void> {
  const { dims, count } = setup;
  const mode = options.mode;
  let level = 0;
  if (mode === 'facet-jfa') {
    const top = maxCoarseLevel(setup);
    if (options.coarseLevel !== undefined) {
      if (!Number.isInteger(options.coarseLevel) || options.coarseLevel < 0) {
        throw new RangeError(`raster: coarseLevel ${options.coarseLevel} is not a non-negative integer`);
      }
      level = Math.min(options.coarseLevel, top);
    } else level = chooseCoarseLevel(setup);
    stats.coarseLevel = level;
  }
  const [cw, ch, cd] = levelSize(setup, level);
  const n = nextPowerOfTwo(Math.max(cw, ch, cd));
  const steps: number[] = [];
  if (mode === '1+jfa') steps.push(1);
  for (let s = n / 2; s >= 1; s /= 2) steps.push(s);
  if (mode === 'jfa+1') steps.push(1);
  stats.jfaSteps = steps;
  stats.pixelsProcessed = steps.length * cw * ch * cd;
  const other = await make.storage(setup.pixels * 4, 'raster labels (ping-pong)');
  // seed into the buffer from which an even number of flips ends in `out`
  const flips = steps.length + level;
  let current = flips % 2 === 0 ? out : other;
  let next = current === out ? other : out;
  const sitesBuffer = positions;
  const seed = await make.upload(setup.seedPixel, 'raster seed pixels');
  const siteBits = await make.storage(Math.max(1, count) * 4, 'raster seed distances');
  const constants = { dims };
  const levelPixels = cw * ch * cd;
  const seedMisc = [count, setup.width, setup.height, level];
  const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  const carried =
    dims === 2 && levelPixels * 8 <= maxBinding
      ? carryPlan(options.carryPositions ?? 'auto', mode, steps, setup.seeded, levelPixels)
      : steps.map(() => false);
  stats.carriedPasses = carried.filter(Boolean).length;
  // the passes label pixels with Z-order ranks of the sites (nearby sites, nearby ranks: the
  // gathers of neighbouring pixels share cache lines); the last pass writes site indices
  const ranks = steps.length > 0 ? rankSites(setup, level) : null;
  const rankBuffer = await make.upload(
    ranks && ranks.rank.length > 0 ? ranks.rank : Uint32Array.of(0),
    'raster site ranks',
  );
  const original = await make.upload(ranks ? ranks.original : Uint32Array.of(0), 'raster rank sites');
  const rankedSites = ranks
    ? await make.upload(padTo4(ranks.positions), 'raster ranked positions')
    : sitesBuffer;
  const lastRank = ranks ? ranks.original.length - 1 : 0;
  const anyCarry = stats.carriedPasses > 0;
  let pos = anyCarry ? await make.storage(levelPixels * 8, 'raster positions') : null;
  let nextPos = anyCarry ? await make.storage(levelPixels * 8, 'raster positions (ping-pong)') : null;
  program
    .pass('seed')
    .dispatch({
      kernel: FILL_KERNEL,
      constants,
      params: gridParams(setup, level, [levelPixels, NO_SITE]),
      bindings: [{ binding: 1, buffer: current }],
      workgroups: { linear: Math.ceil(levelPixels / LIST_WORKGROUP) },
    })
    .dispatch({
      kernel: SEED_RESET_KERNEL,
      constants,
      params: gridParams(setup, level, seedMisc),
      bindings: [
        { binding: 2, buffer: seed },
        { binding: 3, buffer: next },
      ],
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    })
    .dispatch({
      kernel: SEED_DISTANCE_KERNEL,
      constants,
      params: gridParams(setup, level, seedMisc),
      bindings: [
        { binding: 1, buffer: sitesBuffer },
        { binding: 2, buffer: seed },
        { binding: 3, buffer: siteBits },
        { binding: 4, buffer: next },
      ],
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    })
    .dispatch({
      kernel: SEED_LABEL_KERNEL,
      constants: { dims, ranked: ranks ? 1 : 0 },
      params: gridParams(setup, level, seedMisc),
      bindings: [
        { binding: 2, buffer: seed },
        { binding: 3, buffer: siteBits },
        { binding: 4, buffer: next },
        { binding: 5, buffer: current },
        ...(ranks ? [{ binding: 6, buffer: rankBuffer }] : []),
      ],
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    });
  if (pos && carried[0]) {
    program.dispatch({
      kernel: SEED_POSITION_KERNEL,
      constants,
      params: gridParams(setup, level, seedMisc),
      bindings: [
        { binding: 1, buffer: sitesBuffer },
        { binding: 2, buffer: seed },
        { binding: 3, buffer: current },
        { binding: 4, buffer: pos },
        { binding: 5, buffer: rankBuffer },
      ],
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    });
  }
  // one compute pass per step, so that a profiler times each step
  const passName = mode === 'facet-jfa' ? 'facet coarse jfa' : mode;
  const groups = gridWorkgroups(dims, cw, ch, cd);
  steps.forEach((step, k) => {
    program.pass(`${passName} step ${step}`);
    const last = k === steps.length - 1 ? 1 : 0;
    const writePositions = !last && carried[k + 1] ? 1 : 0;
    const posOut = writePositions && nextPos ? [{ binding: 4, buffer: nextPos }] : [];
    if (carried[k] && pos) {
      const { classStride, perClass } = jfaTileOrder(ch, step);
      program.dispatch({
        kernel: JFA_CARRY_KERNEL,
        constants: { writePositions, toOriginal: last },
        params: gridParams(setup, level, [step, classStride, perClass, lastRank]),
        bindings: [
          { binding: 1, buffer: current },
          { binding: 2, buffer: pos },
          { binding: 3, buffer: next },
          ...posOut,
          { binding: 5, buffer: original },
        ],
        workgroups: { grid: [Math.ceil(cw / JFA_TILE[0]), classStride * perClass, 1] },
      });
    } else {
      program.dispatch({
        kernel: JFA_STEP_KERNEL,
        constants: { dims, ranked: 1, toOriginal: last, writePositions },
        params: gridParams(setup, level, [step, lastRank]),
        bindings: [
          { binding: 1, buffer: rankedSites },
          { binding: 2, buffer: current },
          { binding: 3, buffer: next },
          { binding: 4, buffer: original },
          ...posOut.map((b) => ({ ...b, binding: 5 })),
        ],
        workgroups: { grid: groups },
      });
    }
    if (writePositions) [pos, nextPos] = [nextPos, pos];
    [current, next] = [next, current];
  });
  if (mode !== 'facet-jfa' || level === 0) return;

  // Facet-JFA: mark the coarse level, appending the children of its boundary pixels to the list
  // of level − 1; then per finer level j: upsample, refine the listed pixels, mark them (appending
  // the children of boundary pixels to the list of level j − 1). counts[j] = list length of level
  // j, cleared per run; lists alternate between two buffers.
  const lists = [
    await make.storage(setup.pixels * 4, 'facet list A'),
    await make.storage(setup.pixels * 4, 'facet list B'),
  ];
  const counts = await make.storage(level * 4, 'facet counts', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
  const args = await make.storage(12, 'facet args', BufferUsage.INDIRECT);
  counters.stats = counts;
  program.encode((encoder) => encoder.clearBuffer(counts));
  program.pass(`facet mark ${level}`).dispatch({
    kernel: FACET_MARK_KERNEL,
    constants: { dims, fromList: 0 },
    params: gridParams(setup, level, [level], [], levelSize(setup, level - 1)),
    bindings: [
      { binding: 1, buffer: current },
      { binding: 2, buffer: counts },
      { binding: 3, buffer: lists[(level - 1) % 2] },
    ],
    workgroups: { grid: groups },
  });
  const maxGroups = ctx.limits.maxComputeWorkgroupsPerDimension;
  for (let j = level - 1; j >= 0; j--) {
    const [w, h, d] = levelSize(setup, j);
    const [pw, ph, pd] = levelSize(setup, j + 1);
    const coarseLabels = current;
    const fineLabels = next;
    const list = lists[j % 2];
    program.pass(`facet upsample ${j}`).dispatch({
      kernel: FACET_UPSAMPLE_KERNEL,
      constants,
      params: gridParams(setup, j, [pw, ph, pd, 0]),
      bindings: [
        { binding: 1, buffer: coarseLabels },
        { binding: 3, buffer: fineLabels },
      ],
      workgroups: { grid: gridWorkgroups(dims, w, h, d) },
    });
    const indirect = { indirect: args, offset: 0 };
    program
      .pass(`facet refine ${j}`)
      .dispatch({
        kernel: FACET_ARGS_KERNEL,
        constants,
        params: gridParams(setup, j, [maxGroups, j]),
        bindings: [
          { binding: 1, buffer: counts },
          { binding: 2, buffer: args },
        ],
        workgroups: { grid: [1, 1, 1] },
      })
      .dispatch({
        kernel: FACET_REFINE_KERNEL,
        constants,
        params: gridParams(setup, j, [pw, ph, pd, j]),
        bindings: [
          { binding: 1, buffer: sitesBuffer },
          { binding: 2, buffer: list },
          { binding: 3, buffer: counts },
          { binding: 4, buffer: coarseLabels },
          { binding: 5, buffer: fineLabels },
        ],
        workgroups: indirect,
      });
    if (j > 0) {
      program.dispatch({
        kernel: FACET_MARK_KERNEL,
        constants: { dims, fromList: 1 },
        params: gridParams(setup, j, [j], [], levelSize(setup, j - 1)),
        bindings: [
          { binding: 1, buffer: fineLabels },
          { binding: 2, buffer: counts },
          { binding: 3, buffer: lists[(j - 1) % 2] },
          { binding: 4, buffer: list },
        ],
        workgroups: indirect,
      });
    }
    [current, next] = [next, current];
  }
}

async function buildExact(
  program: RasterProgram,
  setup: RasterSetup,
  buckets: SiteBuckets,
  labels: GPUBuffer,
  make: Alloc,
  counters: RasterPlan['counters'],
): Promise<void> {
  const { dims } = setup;
  const groups = gridWorkgroups(dims, setup.width, setup.height, setup.depth);
  if (buckets.order.length === 0) {
    program.pass('exact').dispatch({
      kernel: FILL_KERNEL,
      constants: { dims },
      params: gridParams(setup, 0, [setup.pixels, NO_SITE]),
      bindings: [{ binding: 1, buffer: labels }],
      workgroups: { linear: Math.ceil(setup.pixels / LIST_WORKGROUP) },
    });
    return;
  }
  const positions = await make.upload(buckets.positions, 'exact site positions');
  const order = await make.upload(buckets.order, 'exact site order');
  const start = await make.upload(buckets.start, 'exact bucket offsets');
  const ties = await make.storage(setup.pixels * 4, 'exact near-ties', BufferUsage.COPY_SRC);
  const tieCount = await make.storage(4, 'exact near-tie count', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
  counters.ties = ties;
  counters.tieCount = tieCount;
  program.encode((encoder) => encoder.clearBuffer(tieCount, 0, 4));
  const [ox, oy, oz] = buckets.origin;
  const [sx, sy, sz] = setup.scale;
  program.pass('exact').dispatch({
    kernel: EXACT_KERNEL,
    constants: { dims },
    params: paramBlock(
      [setup.width, setup.height, setup.depth, setup.pixels, ...buckets.counts, 0],
      [
        sx,
        sy,
        sz,
        1,
        ox,
        oy,
        oz,
        buckets.edge,
        boundMargin(setup, buckets),
        toleranceFloor(setup),
        TIE_FACTOR,
        0,
      ],
      [setup.pixels],
    ),
    bindings: [
      { binding: 1, buffer: positions },
      { binding: 2, buffer: order },
      { binding: 3, buffer: start },
      { binding: 4, buffer: labels },
      { binding: 5, buffer: ties },
      { binding: 6, buffer: tieCount },
    ],
    workgroups: { grid: groups },
  });
}
