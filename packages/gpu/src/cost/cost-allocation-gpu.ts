import { type CostAllocation, type CostGridProblem, GeoframeError } from '@geoframe/core';
import { GpuOutOfMemoryError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { GpuProfiler } from '../runtime/profiler.js';
import { createBuffers, finish, prepareAndSeed, resetLabels } from './cost-device.js';
import { orderDelta, seededTiles } from './cost-order.js';
import {
  type CostBuffers,
  NONE_RUN,
  type PhaseOptions,
  type PhaseRounds,
  roundParams,
  runPhase,
} from './cost-rounds.js';
import type { CostSetup } from './cost-setup.js';
import { prepareCost, valueError } from './cost-setup.js';
import { type CostGpuStats, type HostStep, NO_HOST_MS, runStats, sumPhases } from './cost-stats.js';
import { prepareOutput } from './host-output.js';
import { releaseTails } from './tail-pool.js';

export type { CostGpuStats, HostStep, PerPhase } from './cost-stats.js';

import type { TileMarks } from './tile-marks.js';
import type { TilePicks } from './tile-pick.js';

/**
 * An input whose result the GPU cannot vouch for. `GPU_PRECISION` is the code under which the
 * dispatcher answers with the CPU engine instead (adr/0020).
 */
function declined(why: string): GeoframeError {
  return new GeoframeError('GPU_PRECISION', `cost allocation on the GPU declined: ${why}`);
}

/** Options of {@link costAllocationGpu}. */
export interface CostGpuOptions {
  /** Also compute `backlink` (one more fixed point, the hop counts, and a pass). Default false. */
  backlink?: boolean;
  /**
   * Most local iterations per tile visit (default 64): 1 makes every round a plain front-wave
   * (Jacobi) step over the active tiles; more lets a tile settle in workgroup memory first.
   */
  inner?: number;
  /**
   * How labels are found (the result is the same): `'carried'` (default) — labels ride along
   * the cost rounds and the label pass only repairs them, falling back to `'descend'` where
   * tight steps can form cycles (zero-cost cells); `'descend'` — the label pass descends from
   * "none" after the cost pass, as many rounds again.
   */
  labels?: 'carried' | 'descend';
  /**
   * Submit the next batch of rounds before reading the current one's convergence words (default
   * true); false only to measure what it saves.
   */
  overlap?: boolean;
  /** Time the passes with timestamp queries where the device has them (`stats.gpuMs`). */
  profile?: boolean;
  /**
   * The ordered cost pass's Δ, in typical steps (the mean per-unit cost of a sample of cells ×
   * the least spacing): a round runs the listed tiles whose key is within Δ of the least key
   * listed (cost-order.ts). `Infinity`: every listed tile each round (the plain pass).
   */
  delta?: number;
  /** Reuse the context's tail staging buffers (default true); false only to measure it. */
  keepTails?: boolean;
  /**
   * How the relax kernel lists the next round's tiles: `'parallel'` (default; one thread per
   * neighbouring tile) or `'serial'` (thread 0 alone, the earlier kernel); only to compare them.
   */
  marks?: TileMarks;
  /**
   * How the ordered cost pass takes a round's listed tiles: `'serial'` (default; thread 0 takes
   * one entry after the other) or `'parallel'` (one thread per entry, the tiles that wait passed
   * on together; no faster on the H200, docs/benchmarks.md); only to compare them. Other passes
   * take entries serially.
   */
  picks?: TilePicks;
  /**
   * Most workgroups a round (default 2,048, each taking list entries in turn); a few only to
   * test how workgroups share a long list.
   */
  roundWorkgroups?: number;
  /** Record host events with their times (`stats.trace`). */
  trace?: boolean;
  /**
   * Allocates the output: a Float64Array of the cell count, whose first half becomes `cost` and
   * second half `labels` (geo hands in one whose pages worker threads map while the GPU works;
   * without it, fresh arrays are readied on this thread between turns of the event loop).
   */
  outputArray?: (length: number) => Promise<Float64Array>;
}

/** Default of {@link CostGpuOptions.inner}. */
export const DEFAULT_INNER = 64;

/**
 * Default of {@link CostGpuOptions.delta}: four typical steps, the best of the Δ tried on the
 * H200 for the 256³ cubes and 8192² (docs/benchmarks.md, 2026-11-28 second run; the differences
 * between Δ 2–8 are within the run-to-run spread there).
 */
export const DEFAULT_DELTA = 4;

/**
 * Cost allocation on the GPU: for every cell of `problem`'s grid, the source reachable most
 * cheaply and that cost, as the least fixed point of lexicographic relaxation (cost in f32, then
 * source id) — what a Dijkstra with the same f32 step arithmetic computes, for any number of
 * sources (adr/0018-cost-allocation-gpu.md). Bounded fixed-point phases (cost with labels
 * carried, label repair, hops with `backlink`) over tiles in workgroup memory; every run
 * terminates.
 *
 * @throws CostProblemError for an invalid problem (naming the cell or source).
 * @throws GpuOutOfMemoryError when a per-cell buffer exceeds the device's
 *   `maxStorageBufferBindingSize`.
 * @throws GeoframeError `GPU_PRECISION` (the GPU declines; a CPU run answers under dispatch) when
 *   a value or an accumulated cost is outside f32's normal range, or a reached cell has no tight
 *   predecessor (the device computed one step two ways) — never a silently wrong result.
 * @throws GeoframeError `GPU_LOOP_LIMIT` if a phase ran past its Bellman-Ford bound (a bug).
 */
export async function costAllocationGpu(
  ctx: GpuContext,
  problem: CostGridProblem,
  options: CostGpuOptions = {},
): Promise<CostAllocation & { stats: CostGpuStats }> {
  const began = performance.now();
  let lap = began;
  const trace: { at: number; what: string }[] | null = options.trace ? [] : null;
  const mark = trace ? (what: string) => trace.push({ at: performance.now() - began, what }) : undefined;
  const laps = () => {
    const now = performance.now();
    const ms = now - lap;
    lap = now;
    return ms;
  };
  ctx.assertUsable();
  const setup = prepareCost(problem);
  const { inner, delta } = checkedOptions(ctx, setup, options);
  const backlink = options.backlink === true;
  const checkMs = laps();
  const keepTails = options.keepTails !== false;
  const buffers = await createBuffers(ctx, setup, backlink, keepTails);
  const deltaBits = orderDelta(problem, delta);
  const params = await roundParams(ctx, setup, inner, deltaBits);
  const profilers: [GpuProfiler, GpuProfiler] | null =
    options.profile && ctx.features.timestampQuery
      ? [new GpuProfiler(ctx, { maxPasses: 2 }), new GpuProfiler(ctx, { maxPasses: 2 })]
      : null;
  const { tails, ...perRun } = buffers;
  const owned: GPUBuffer[] = [params, ...Object.values(perRun).flat()].filter(
    (b): b is GPUBuffer => b !== null,
  );
  try {
    const hostMs: Record<HostStep, number> = { ...NO_HOST_MS, check: checkMs, upload: laps() };
    // the returned arrays' pages are mapped while the GPU works
    const output = prepareOutput(setup.cells, backlink, options.outputArray);
    const compliance = problem.metric === 'compliance';
    const seedGpu = await prepareAndSeed(
      ctx,
      problem,
      setup,
      compliance,
      buffers,
      params,
      profilers?.[0] ?? null,
    );
    hostMs.seed = laps();
    mark?.('seed submitted');
    const carry = options.labels !== 'descend';
    const phase: PhaseOptions = {
      carry,
      overlap: options.overlap !== false,
      slot: 0,
      kernel: {
        marks: options.marks ?? 'parallel',
        picks: options.picks ?? 'serial',
        workgroups: options.roundWorkgroups,
      },
      mark,
    };
    const ordered = deltaBits !== 0x7f800000;
    const first = seededTiles(setup);
    mark?.('first tiles found');
    const cost = await runPhase(ctx, setup, 'cost', buffers, params, profilers, {
      ...phase,
      first,
      ordered,
    });
    hostMs.cost = laps();
    const { label, labelPass } = await labelPhase(ctx, setup, buffers, params, profilers, phase);
    hostMs.label = laps();
    const hops = backlink
      ? await runPhase(ctx, setup, 'hops', buffers, params, profilers, { ...phase, slot: 3 })
      : NONE_RUN;
    hostMs.hops = laps();
    const out = await finish(ctx, setup, buffers, params, profilers?.[0] ?? null, output);
    hostMs.wait = out.waitMs;
    hostMs.copy = out.copyMs;
    mark?.('output copied');
    if (out.invalidCell >= 0) throw valueError(problem, setup, out.invalidCell);
    if (out.subnormalCell >= 0) {
      const c = out.subnormalCell;
      throw declined(`cell ${c}'s value ${problem.values[c]} is outside f32's normal range on the device`);
    }
    const phases = { cost, label, hops };
    const result: CostAllocation & { stats: CostGpuStats } = {
      labels: out.labels,
      cost: out.cost,
      stats: runStats(phases, labelPass, hostMs, setup.tiles[3]),
    };
    if (trace) result.stats.trace = trace;
    if (profilers) {
      const gpuSteps = {
        seed: seedGpu,
        cost: cost.gpuMs,
        label: label.gpuMs,
        hops: hops.gpuMs,
        finish: out.gpuMs,
      };
      result.stats.gpuSteps = gpuSteps;
      result.stats.gpuMs = Object.values(gpuSteps).reduce((a, b) => a + b, 0);
    }
    if (out.backlink) result.backlink = out.backlink;
    if (out.inconsistentCell >= 0) {
      const c = out.inconsistentCell;
      const what = out.labels[c] < 0 ? 'label' : 'backlink';
      throw declined(
        `cell ${c} is reached (cost ${out.cost[c]}) but has no ${what}: the device rounded a step's cost two ways`,
      );
    }
    if (out.overflowCell >= 0) throw declined(`the cost of cell ${out.overflowCell} overflows f32`);
    return result;
  } finally {
    for (const p of profilers ?? []) p.destroy();
    for (const b of owned) b.destroy();
    releaseTails(ctx, tails, keepTails);
  }
}

/**
 * The label pass: repairing the carried labels, or descending from "none" (asked for, or after
 * the repair met a flat tight step: such steps may form cycles, where repaired labels could
 * settle below the answer; adr/0018).
 */
async function labelPhase(
  ctx: GpuContext,
  setup: CostSetup,
  buffers: CostBuffers,
  params: GPUBuffer,
  profilers: [GpuProfiler, GpuProfiler] | null,
  phase: PhaseOptions,
): Promise<{ label: PhaseRounds; labelPass: CostGpuStats['labelPass'] }> {
  const label = await runPhase(ctx, setup, 'label', buffers, params, profilers, { ...phase, slot: 1 });
  if (!phase.carry) return { label, labelPass: 'descend' };
  if (!label.flat) return { label, labelPass: 'carried' };
  await resetLabels(ctx, setup, buffers, params);
  const descent = await runPhase(ctx, setup, 'label', buffers, params, profilers, {
    ...phase,
    carry: false,
    slot: 2,
  });
  return { label: sumPhases(label, descent), labelPass: 'fallback' };
}

/** `inner` and `delta` checked (and defaulted), and the grid checked against the device's binding limit. */
function checkedOptions(
  ctx: GpuContext,
  setup: CostSetup,
  options: CostGpuOptions,
): { inner: number; delta: number } {
  const inner = options.inner ?? DEFAULT_INNER;
  if (!Number.isInteger(inner) || inner < 1) throw new RangeError(`inner ${inner} is not a positive integer`);
  const delta = options.delta ?? DEFAULT_DELTA;
  if (!(delta >= 0)) throw new RangeError(`delta ${delta} is not ≥ 0 (Infinity: the plain pass)`);
  const binding = ctx.limits.maxStorageBufferBindingSize;
  if (setup.cells * 4 > binding) {
    const why = `${setup.cells} cells need ${setup.cells * 4}-byte buffers; this device binds at most ${binding} bytes`;
    throw new GpuOutOfMemoryError('cost allocation cells', setup.cells * 4, why);
  }
  return { inner, delta };
}
