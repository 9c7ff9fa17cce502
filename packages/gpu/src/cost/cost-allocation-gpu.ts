import { type CostAllocation, type CostGridProblem, GeoframeError } from '@geoframe/core';
import { GpuOutOfMemoryError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { GpuProfiler } from '../runtime/profiler.js';
import { createBuffers, finish, prepareAndSeed } from './cost-device.js';
import { type PhaseRounds, roundParams, runPhase } from './cost-rounds.js';
import { prepareCost, valueError } from './cost-setup.js';

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
  /** Time the passes with timestamp queries where the device has them (`stats.gpuMs`). */
  profile?: boolean;
}

/** How a run went. */
export interface CostGpuStats {
  /** Rounds of all phases together (each round: one dispatch over the active tiles). */
  iterations: number;
  /** Rounds per phase: cost, label, hops (0 without backlink). */
  rounds: { cost: number; label: number; hops: number };
  /** Host round trips to read the convergence words. */
  batches: number;
  /** GPU time of the relax and backlink passes (timestamp queries), when profiled. */
  gpuMs?: number;
  tiles: number;
}

/** Default of {@link CostGpuOptions.inner}. */
export const DEFAULT_INNER = 64;

/**
 * Cost allocation on the GPU: for every cell of `problem`'s grid, the source reachable most
 * cheaply and that cost, as the least fixed point of lexicographic relaxation (cost in f32, then
 * source id) — what a Dijkstra with the same f32 step arithmetic computes, for any number of
 * sources (adr/0018-cost-allocation-gpu.md). Three (with `backlink`, four) bounded fixed-point
 * phases over tiles in workgroup memory; every run terminates.
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
  ctx.assertUsable();
  const setup = prepareCost(problem);
  const inner = options.inner ?? DEFAULT_INNER;
  if (!Number.isInteger(inner) || inner < 1) throw new RangeError(`inner ${inner} is not a positive integer`);
  const binding = ctx.limits.maxStorageBufferBindingSize;
  if (setup.cells * 4 > binding) {
    const why = `${setup.cells} cells need ${setup.cells * 4}-byte buffers; this device binds at most ${binding} bytes`;
    throw new GpuOutOfMemoryError('cost allocation cells', setup.cells * 4, why);
  }
  const backlink = options.backlink === true;
  const buffers = await createBuffers(ctx, problem, setup, backlink);
  const params = await roundParams(ctx, setup, inner);
  const profiler =
    options.profile && ctx.features.timestampQuery ? new GpuProfiler(ctx, { maxPasses: 2 }) : null;
  const owned: GPUBuffer[] = [params, ...Object.values(buffers).filter((b): b is GPUBuffer => b !== null)];
  try {
    const none: PhaseRounds = { rounds: 0, batches: 0, gpuMs: 0 };
    const seeded = await prepareAndSeed(
      ctx,
      setup,
      problem.metric === 'compliance',
      buffers,
      params,
      profiler,
    );
    if (seeded.invalidCell >= 0) throw valueError(problem, setup, seeded.invalidCell);
    if (seeded.subnormalCell >= 0) {
      const c = seeded.subnormalCell;
      throw declined(`cell ${c}'s value ${problem.values[c]} is outside f32's normal range on the device`);
    }
    const cost = await runPhase(ctx, setup, 'cost', buffers, params, profiler);
    const label = await runPhase(ctx, setup, 'label', buffers, params, profiler);
    const hops = backlink ? await runPhase(ctx, setup, 'hops', buffers, params, profiler) : none;
    const out = await finish(ctx, setup, buffers, params, profiler, owned);
    const result: CostAllocation & { stats: CostGpuStats } = {
      labels: out.labels,
      cost: out.cost,
      stats: {
        iterations: cost.rounds + label.rounds + hops.rounds,
        rounds: { cost: cost.rounds, label: label.rounds, hops: hops.rounds },
        batches: cost.batches + label.batches + hops.batches,
        tiles: setup.tiles[3],
      },
    };
    if (profiler) result.stats.gpuMs = seeded.gpuMs + cost.gpuMs + label.gpuMs + hops.gpuMs + out.gpuMs;
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
    profiler?.destroy();
    for (const b of owned) b.destroy();
  }
}
