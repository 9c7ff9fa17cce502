import { type CostAllocation, type CostGridProblem, GeoframeError } from '@geoframe/core';
import { createBufferChecked, stageReadback, uploadStorage } from '../runtime/buffers.js';
import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage } from '../runtime/usage.js';
import { BACKLINK_KERNEL } from './backlink-kernel.js';
import { type CostBuffers, flagWords, type PhaseRounds, roundParams, runPhase } from './cost-rounds.js';
import { type CostSetup, prepareCost } from './cost-setup.js';
import { COST_PARAM_WORDS, COST_WORKGROUP } from './cost-wgsl.js';
import { FILL_KERNEL, SEED_KERNEL } from './seed-kernels.js';

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
 * @throws GeoframeError `COST_GRID_TOO_LARGE` when a per-cell buffer exceeds the device's
 *   `maxStorageBufferBindingSize`.
 * @throws GeoframeError `COST_INCONSISTENT` if a reached cell has no tight predecessor (the
 *   device computed one step two ways) — never a silent wrong label.
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
    throw new GeoframeError(
      'COST_GRID_TOO_LARGE',
      `cost allocation: ${setup.cells} cells need ${setup.cells * 4}-byte buffers; this device binds at most ${binding} bytes`,
    );
  }
  const backlink = options.backlink === true;
  const buffers = await createBuffers(ctx, setup, backlink);
  const params = await roundParams(ctx, setup, inner);
  const profiler =
    options.profile && ctx.features.timestampQuery ? new GpuProfiler(ctx, { maxPasses: 2 }) : null;
  const owned: GPUBuffer[] = [params, ...Object.values(buffers).filter((b): b is GPUBuffer => b !== null)];
  try {
    const none: PhaseRounds = { rounds: 0, batches: 0, gpuMs: 0 };
    const seedMs = await seed(ctx, setup, buffers, params, profiler);
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
    if (profiler) result.stats.gpuMs = seedMs + cost.gpuMs + label.gpuMs + hops.gpuMs + out.gpuMs;
    if (out.backlink) result.backlink = out.backlink;
    checkConsistent(setup, result);
    return result;
  } finally {
    profiler?.destroy();
    for (const b of owned) b.destroy();
  }
}

async function createBuffers(ctx: GpuContext, setup: CostSetup, backlink: boolean): Promise<CostBuffers> {
  const copy = BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  const cellBuffer = (label: string, usage: number) =>
    createBufferChecked(ctx, { label, size: setup.cells * 4, usage: BufferUsage.STORAGE | usage });
  return {
    values: await uploadStorage(ctx, setup.values, 'cost values'),
    dist: await cellBuffer('cost dist', copy),
    labels: await cellBuffer('cost labels', copy),
    hops: backlink ? await cellBuffer('cost hops', 0) : null,
    sources: await uploadStorage(ctx, setup.sources, 'cost sources'),
    flags: await createBufferChecked(ctx, {
      label: 'cost flags',
      size: flagWords(setup.tiles[3]) * 4,
      usage: BufferUsage.STORAGE | copy,
    }),
    args: await createBufferChecked(ctx, {
      label: 'cost dispatch args',
      size: 6 * 4,
      usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_DST,
    }),
  };
}

/** Every cell unreached, then the sources' cells seeded: on the device, no per-cell upload. */
async function seed(
  ctx: GpuContext,
  setup: CostSetup,
  buffers: CostBuffers,
  params: GPUBuffer,
  profiler: GpuProfiler | null,
): Promise<number> {
  const fill = await ctx.pipelines.get(FILL_KERNEL, { hops: buffers.hops ? 1 : 0 });
  const seeds = await ctx.pipelines.get(SEED_KERNEL, {});
  const uniform = { buffer: params, offset: 0, size: COST_PARAM_WORDS * 4 };
  const fillEntries: GPUBindGroupEntry[] = [
    { binding: 0, resource: uniform },
    { binding: 2, resource: { buffer: buffers.dist } },
    { binding: 3, resource: { buffer: buffers.labels } },
  ];
  if (buffers.hops) fillEntries.push({ binding: 4, resource: { buffer: buffers.hops } });
  const seedEntries: GPUBindGroupEntry[] = [
    { binding: 0, resource: uniform },
    { binding: 1, resource: { buffer: buffers.values } },
    { binding: 2, resource: { buffer: buffers.dist } },
    { binding: 3, resource: { buffer: buffers.labels } },
    { binding: 5, resource: { buffer: buffers.sources } },
  ];
  const encoder = ctx.device.createCommandEncoder({ label: 'cost/seed' });
  const pass = encoder.beginComputePass(
    profiler ? profiler.passDescriptor('cost/seed') : { label: 'cost/seed' },
  );
  const max = ctx.limits.maxComputeWorkgroupsPerDimension;
  for (const [pipeline, entries, threads] of [
    [fill, fillEntries, setup.cells],
    [seeds, seedEntries, setup.sources.length],
  ] as const) {
    const [x, y] = dispatchSize(Math.ceil(threads / COST_WORKGROUP), max);
    if (x === 0) continue;
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, ctx.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
    pass.dispatchWorkgroups(x, y);
  }
  pass.end();
  profiler?.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  return profiler ? (await profiler.profile()).totalMs : 0;
}

/** The backlink pass (when asked for) and one readback of cost, labels and backlinks. */
async function finish(
  ctx: GpuContext,
  setup: CostSetup,
  buffers: CostBuffers,
  params: GPUBuffer,
  profiler: GpuProfiler | null,
  owned: GPUBuffer[],
): Promise<{ cost: Float32Array; labels: Int32Array; backlink?: Uint8Array; gpuMs: number }> {
  const encoder = ctx.device.createCommandEncoder({ label: 'cost/finish' });
  const words = Math.ceil(setup.cells / 4);
  let linkBuffer: GPUBuffer | null = null;
  if (buffers.hops) {
    linkBuffer = await createBufferChecked(ctx, {
      label: 'cost backlink',
      size: words * 4,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
    });
    owned.push(linkBuffer);
    const pipeline = await ctx.pipelines.get(BACKLINK_KERNEL, { connectivity: setup.connectivity });
    const bindGroup = ctx.device.createBindGroup({
      label: 'cost/backlink',
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params, offset: 0, size: COST_PARAM_WORDS * 4 } },
        { binding: 1, resource: { buffer: buffers.values } },
        { binding: 2, resource: { buffer: buffers.dist } },
        { binding: 3, resource: { buffer: buffers.labels } },
        { binding: 4, resource: { buffer: buffers.hops } },
        { binding: 5, resource: { buffer: linkBuffer } },
      ],
    });
    const pass = encoder.beginComputePass(
      profiler ? profiler.passDescriptor('cost/backlink') : { label: 'cost/backlink' },
    );
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    const [x, y] = dispatchSize(
      Math.ceil(words / COST_WORKGROUP),
      ctx.limits.maxComputeWorkgroupsPerDimension,
    );
    pass.dispatchWorkgroups(x, y);
    pass.end();
    profiler?.resolve(encoder);
  }
  const parts = [
    { buffer: buffers.dist, offset: 0, bytes: setup.cells * 4 },
    { buffer: buffers.labels, offset: 0, bytes: setup.cells * 4 },
  ];
  if (linkBuffer) parts.push({ buffer: linkBuffer, offset: 0, bytes: words * 4 });
  const staged = await stageReadback(ctx, encoder, parts, 'cost');
  ctx.device.queue.submit([encoder.finish()]);
  const [d, l, b] = await staged.read();
  const gpuMs = linkBuffer && profiler ? (await profiler.profile()).totalMs : 0;
  const out: { cost: Float32Array; labels: Int32Array; backlink?: Uint8Array; gpuMs: number } = {
    cost: new Float32Array(d.buffer, d.byteOffset, setup.cells),
    labels: new Int32Array(l.buffer, l.byteOffset, setup.cells),
    gpuMs,
  };
  if (b) out.backlink = b.subarray(0, setup.cells);
  return out;
}

/**
 * Every reached cell must have a label, and (with backlinks) every reached cell but its label's
 * source cell a backlink: the label and backlink passes recompute each step's cost, and would
 * miss a tight step only if the device rounded one step two ways. That would be a wrong result,
 * so it is an error.
 */
function checkConsistent(setup: CostSetup, result: CostAllocation): void {
  const { cost, labels, backlink } = result;
  for (let i = 0; i < setup.cells; i++) {
    if (cost[i] === Number.POSITIVE_INFINITY) continue;
    const l = labels[i];
    const bad =
      l < 0
        ? 'has no label'
        : backlink && backlink[i] === 255 && setup.sources[l] !== i
          ? 'has no backlink'
          : null;
    if (bad) {
      throw new GeoframeError(
        'COST_INCONSISTENT',
        `cost allocation: cell ${i} is reached (cost ${cost[i]}) but ${bad}: the device rounded a step's cost inconsistently`,
      );
    }
  }
}
