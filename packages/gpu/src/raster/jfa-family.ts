import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage } from '../runtime/usage.js';
import { carryPlan } from './carry-plan.js';
import { chooseCoarseLevel, maxCoarseLevel } from './coarse-level.js';
import {
  FACET_ARGS_KERNEL,
  FACET_MARK_KERNEL,
  FACET_REFINE_KERNEL,
  FACET_UPSAMPLE_KERNEL,
} from './facet-kernels.js';
import { JFA_CARRY_KERNEL } from './jfa-carry-kernel.js';
import { JFA_STEP_KERNEL } from './jfa-kernel.js';
import { type Alloc, gridParams, levelSize } from './level-grid.js';
import type { RasterGpuOptions, RasterGpuStats, RasterPlan } from './raster-plan.js';
import type { RasterProgram } from './raster-program.js';
import { NO_SITE, nextPowerOfTwo, type RasterSetup } from './raster-setup.js';
import { gridWorkgroups, JFA_TILE, jfaTileOrder, LIST_WORKGROUP } from './raster-wgsl.js';
import {
  FILL_KERNEL,
  SEED_DISTANCE_KERNEL,
  SEED_LABEL_KERNEL,
  SEED_POSITION_KERNEL,
  SEED_RESET_KERNEL,
} from './seed-kernels.js';
import { rankSites } from './site-order.js';

/** The label buffers the passes ping-pong between, and the carried positions, as they stand. */
interface PingPong {
  current: GPUBuffer;
  next: GPUBuffer;
  pos: GPUBuffer | null;
  nextPos: GPUBuffer | null;
}

/** The coarse level (Facet-JFA) and the step lengths of the JFA passes, into `stats`. */
function jfaLevels(
  setup: RasterSetup,
  options: RasterGpuOptions,
  stats: RasterGpuStats,
): { level: number; steps: number[]; cw: number; ch: number; cd: number } {
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
  return { level, steps, cw, ch, cd };
}

/**
 * The JFA family (jfa, 1+jfa, jfa+1, facet-jfa): the seeds, one pass per step at the coarse
 * level, then Facet-JFA's refinement level by level down to the pixels, into `out`.
 */
export async function buildJfaFamily(
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
  const { level, steps, cw, ch, cd } = jfaLevels(setup, options, stats);
  const seeded = await recordSeeds(
    ctx,
    program,
    setup,
    options,
    positions,
    out,
    make,
    stats,
    level,
    steps,
    cw,
    ch,
    cd,
  );
  recordSteps(program, setup, options, seeded, level, steps, cw, ch, cd);
  if (options.mode !== 'facet-jfa' || level === 0) return;
  await recordFacet(ctx, program, setup, positions, make, counters, seeded.buffers, level, cw, ch, cd);
}

/** What the seeds leave for the steps: the ping-pong buffers, the carry plan and the ranks. */
interface Seeded {
  buffers: PingPong;
  carried: boolean[];
  rankedSites: GPUBuffer;
  original: GPUBuffer;
  lastRank: number;
}

/** Records the seeds at the coarse level: labels filled, each site's pixel claimed by its nearest. */
async function recordSeeds(
  ctx: GpuContext,
  program: RasterProgram,
  setup: RasterSetup,
  options: RasterGpuOptions,
  positions: GPUBuffer,
  out: GPUBuffer,
  make: Alloc,
  stats: RasterGpuStats,
  level: number,
  steps: number[],
  cw: number,
  ch: number,
  cd: number,
): Promise<Seeded> {
  const { dims, count } = setup;
  const mode = options.mode;
  const other = await make.storage(setup.pixels * 4, 'raster labels (ping-pong)');
  // seed into the buffer from which an even number of flips ends in `out`
  const flips = steps.length + level;
  const current = flips % 2 === 0 ? out : other;
  const next = current === out ? other : out;
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
  const ranks =
    steps.length > 0 ? await rankSites(ctx, program, setup, level, seed, sitesBuffer, make) : null;
  const rankBuffer = ranks ? ranks.rank : await make.upload(Uint32Array.of(0), 'raster site ranks');
  const original = ranks ? ranks.original : await make.upload(Uint32Array.of(0), 'raster rank sites');
  const rankedSites = ranks ? ranks.positions : sitesBuffer;
  const lastRank = ranks ? ranks.lastRank : 0;
  const anyCarry = stats.carriedPasses > 0;
  const pos = anyCarry ? await make.storage(levelPixels * 8, 'raster positions') : null;
  const nextPos = anyCarry ? await make.storage(levelPixels * 8, 'raster positions (ping-pong)') : null;
  program
    .pass('seed')
    .dispatch(FILL_KERNEL, {
      constants,
      params: gridParams(setup, level, [levelPixels, NO_SITE]),
      buffers: { out: current },
      workgroups: { linear: Math.ceil(levelPixels / LIST_WORKGROUP) },
    })
    .dispatch(SEED_RESET_KERNEL, {
      constants,
      params: gridParams(setup, level, seedMisc),
      buffers: {
        seed,
        best_bits: next,
      },
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    })
    .dispatch(SEED_DISTANCE_KERNEL, {
      constants,
      params: gridParams(setup, level, seedMisc),
      buffers: {
        sites: sitesBuffer,
        seed,
        site_bits: siteBits,
        best_bits: next,
      },
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    })
    .dispatch(SEED_LABEL_KERNEL, {
      constants: { dims, ranked: ranks ? 1 : 0 },
      params: gridParams(setup, level, seedMisc),
      buffers: {
        seed,
        site_bits: siteBits,
        best_bits: next,
        labels: current,
        rank: ranks ? rankBuffer : undefined,
      },
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    });
  if (pos && carried[0]) {
    program.dispatch(SEED_POSITION_KERNEL, {
      constants,
      params: gridParams(setup, level, seedMisc),
      buffers: {
        sites: sitesBuffer,
        seed,
        labels: current,
        pos,
        rank: rankBuffer,
      },
      workgroups: { linear: Math.ceil(count / LIST_WORKGROUP) },
    });
  }
  return { buffers: { current, next, pos, nextPos }, carried, rankedSites, original, lastRank };
}

/** Records one JFA pass per step (carrying positions where the carry plan says). */
function recordSteps(
  program: RasterProgram,
  setup: RasterSetup,
  options: RasterGpuOptions,
  seeded: Seeded,
  level: number,
  steps: number[],
  cw: number,
  ch: number,
  cd: number,
): void {
  const { dims } = setup;
  const mode = options.mode;
  const { carried, rankedSites, original, lastRank } = seeded;
  const state = seeded.buffers;
  let { current, next, pos, nextPos } = state;
  // one compute pass per step, so that a profiler times each step
  const passName = mode === 'facet-jfa' ? 'facet coarse jfa' : mode;
  const groups = gridWorkgroups(dims, cw, ch, cd);
  steps.forEach((step, k) => {
    program.pass(`${passName} step ${step}`);
    const last = k === steps.length - 1 ? 1 : 0;
    const writePositions = !last && carried[k + 1] ? 1 : 0;
    const posOut = writePositions && nextPos ? nextPos : undefined;
    if (carried[k] && pos) {
      const { classStride, perClass } = jfaTileOrder(ch, step);
      program.dispatch(JFA_CARRY_KERNEL, {
        constants: { writePositions, toOriginal: last },
        params: gridParams(setup, level, [step, classStride, perClass, lastRank]),
        buffers: {
          src_label: current,
          src_pos: pos,
          dst_label: next,
          dst_pos: posOut,
          original,
        },
        workgroups: { grid: [Math.ceil(cw / JFA_TILE[0]), classStride * perClass, 1] },
      });
    } else {
      program.dispatch(JFA_STEP_KERNEL, {
        constants: { dims, ranked: 1, toOriginal: last, writePositions },
        params: gridParams(setup, level, [step, lastRank]),
        buffers: {
          sites: rankedSites,
          src: current,
          dst: next,
          original,
          dst_pos: posOut,
        },
        workgroups: { grid: groups },
      });
    }
    if (writePositions) [pos, nextPos] = [nextPos, pos];
    [current, next] = [next, current];
  });
  Object.assign(state, { current, next, pos, nextPos });
}

/**
 * Facet-JFA: mark the coarse level, appending the children of its boundary pixels to the list
 * of level − 1; then per finer level j: upsample, refine the listed pixels, mark them (appending
 * the children of boundary pixels to the list of level j − 1). counts[j] = list length of level
 * j, cleared per run; lists alternate between two buffers.
 */
async function recordFacet(
  ctx: GpuContext,
  program: RasterProgram,
  setup: RasterSetup,
  sitesBuffer: GPUBuffer,
  make: Alloc,
  counters: RasterPlan['counters'],
  state: PingPong,
  level: number,
  cw: number,
  ch: number,
  cd: number,
): Promise<void> {
  const { dims } = setup;
  const constants = { dims };
  const groups = gridWorkgroups(dims, cw, ch, cd);
  let { current, next } = state;

  const lists = [
    await make.storage(setup.pixels * 4, 'facet list A'),
    await make.storage(setup.pixels * 4, 'facet list B'),
  ];
  const counts = await make.storage(level * 4, 'facet counts', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
  const args = await make.storage(12, 'facet args', BufferUsage.INDIRECT);
  counters.stats = counts;
  program.encode((encoder) => encoder.clearBuffer(counts));
  program.pass(`facet mark ${level}`).dispatch(FACET_MARK_KERNEL, {
    constants: { dims, fromList: 0 },
    params: gridParams(setup, level, [level], [], levelSize(setup, level - 1)),
    buffers: {
      labels: current,
      counts,
      out_list: lists[(level - 1) % 2],
    },
    workgroups: { grid: groups },
  });
  const maxGroups = ctx.limits.maxComputeWorkgroupsPerDimension;
  for (let j = level - 1; j >= 0; j--) {
    const [w, h, d] = levelSize(setup, j);
    const [pw, ph, pd] = levelSize(setup, j + 1);
    const coarseLabels = current;
    const fineLabels = next;
    const list = lists[j % 2];
    program.pass(`facet upsample ${j}`).dispatch(FACET_UPSAMPLE_KERNEL, {
      constants,
      params: gridParams(setup, j, [pw, ph, pd, 0]),
      buffers: {
        coarse_labels: coarseLabels,
        labels: fineLabels,
      },
      workgroups: { grid: gridWorkgroups(dims, w, h, d) },
    });
    const indirect = { indirect: args, offset: 0 };
    program
      .pass(`facet refine ${j}`)
      .dispatch(FACET_ARGS_KERNEL, {
        constants,
        params: gridParams(setup, j, [maxGroups, j]),
        buffers: {
          counts,
          args,
        },
        workgroups: { grid: [1, 1, 1] },
      })
      .dispatch(FACET_REFINE_KERNEL, {
        constants,
        params: gridParams(setup, j, [pw, ph, pd, j]),
        buffers: {
          sites: sitesBuffer,
          list,
          counts,
          coarse_labels: coarseLabels,
          labels: fineLabels,
        },
        workgroups: indirect,
      });
    if (j > 0) {
      program.dispatch(FACET_MARK_KERNEL, {
        constants: { dims, fromList: 1 },
        params: gridParams(setup, j, [j], [], levelSize(setup, j - 1)),
        buffers: {
          labels: fineLabels,
          counts,
          out_list: lists[(j - 1) % 2],
          list,
        },
        workgroups: indirect,
      });
    }
    [current, next] = [next, current];
  }
}
