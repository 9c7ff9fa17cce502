import type { CostGridProblem } from '@geoframe/core';
import { createBufferChecked, stageReadback, uploadStorage } from '../runtime/buffers.js';
import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage } from '../runtime/usage.js';
import { BACKLINK_KERNEL } from './backlink-kernel.js';
import { CHECK_KERNEL, PREPARE_KERNEL } from './check-kernels.js';
import { type CostBuffers, flagWords } from './cost-rounds.js';
import type { CostSetup } from './cost-setup.js';
import { COST_PARAM_WORDS, COST_WORKGROUP } from './cost-wgsl.js';
import { FILL_KERNEL, SEED_KERNEL } from './seed-kernels.js';

const NONE = 0xffffffff;

/** The device buffers of a run; the caller's values are uploaded as they are (converted there). */
export async function createBuffers(
  ctx: GpuContext,
  problem: CostGridProblem,
  setup: CostSetup,
  backlink: boolean,
): Promise<CostBuffers> {
  const copy = BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  const cellBuffer = (label: string, usage: number) =>
    createBufferChecked(ctx, { label, size: setup.cells * 4, usage: BufferUsage.STORAGE | usage });
  const bad = await createBufferChecked(ctx, {
    label: 'cost bad cells',
    size: 16,
    usage: BufferUsage.STORAGE | copy,
  });
  ctx.device.queue.writeBuffer(bad, 0, Uint32Array.of(NONE, NONE, NONE, NONE));
  return {
    values: await uploadStorage(ctx, problem.values, 'cost values'),
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
    bad,
  };
}

type Binding = [number, GPUBuffer];

/** Dispatches `pipeline` over `threads` threads of a linear kernel in `pass`, params block 0 bound. */
function linear(
  ctx: GpuContext,
  pass: GPUComputePassEncoder,
  pipeline: GPUComputePipeline,
  params: GPUBuffer,
  bindings: Binding[],
  threads: number,
): void {
  const [x, y] = dispatchSize(
    Math.ceil(threads / COST_WORKGROUP),
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  if (x === 0) return;
  const entries: GPUBindGroupEntry[] = [
    { binding: 0, resource: { buffer: params, offset: 0, size: COST_PARAM_WORDS * 4 } },
    ...bindings.map(([binding, buffer]) => ({ binding, resource: { buffer } })),
  ];
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, ctx.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
  pass.dispatchWorkgroups(x, y);
}

function cellOrNone(word: number): number {
  return word === NONE ? -1 : word;
}

/**
 * Converts and checks the values, marks every cell unreached and seeds the sources' cells, in
 * one pass; returns its GPU time (with a profiler, else 0). What the check finds is read with the
 * output ({@link finish}): an invalid value is left as it is, which every pass treats as a
 * barrier (negative) or a step past maxCost (+∞), so the run ends and is refused there.
 */
export async function prepareAndSeed(
  ctx: GpuContext,
  setup: CostSetup,
  compliance: boolean,
  buffers: CostBuffers,
  params: GPUBuffer,
  profiler: GpuProfiler | null,
): Promise<number> {
  const b = buffers;
  const [prepare, fill, seeds] = await Promise.all([
    ctx.pipelines.get(PREPARE_KERNEL, { compliance: compliance ? 1 : 0 }),
    ctx.pipelines.get(FILL_KERNEL, { hops: b.hops ? 1 : 0, dist: 1 }),
    ctx.pipelines.get(SEED_KERNEL, {}),
  ]);
  const encoder = ctx.device.createCommandEncoder({ label: 'cost/seed' });
  const pass = encoder.beginComputePass(
    profiler ? profiler.passDescriptor('cost/seed') : { label: 'cost/seed' },
  );
  linear(
    ctx,
    pass,
    prepare,
    params,
    [
      [1, b.values],
      [8, b.bad],
    ],
    setup.cells,
  );
  const fills: Binding[] = [
    [2, b.dist],
    [3, b.labels],
  ];
  if (b.hops) fills.push([4, b.hops]);
  linear(ctx, pass, fill, params, fills, setup.cells);
  linear(
    ctx,
    pass,
    seeds,
    params,
    [
      [1, b.values],
      [2, b.dist],
      [3, b.labels],
      [5, b.sources],
    ],
    setup.sources.length,
  );
  pass.end();
  profiler?.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  return profiler ? (await profiler.profile()).totalMs : 0;
}

/**
 * Labels back to their start for the monotone label pass: none, then each source's cell the
 * lowest id in it (the seed pass again; the costs it writes are the ones already there).
 */
export async function resetLabels(
  ctx: GpuContext,
  setup: CostSetup,
  buffers: CostBuffers,
  params: GPUBuffer,
): Promise<void> {
  const b = buffers;
  const [fill, seeds] = await Promise.all([
    ctx.pipelines.get(FILL_KERNEL, { hops: 0, dist: 0 }),
    ctx.pipelines.get(SEED_KERNEL, {}),
  ]);
  const encoder = ctx.device.createCommandEncoder({ label: 'cost/reset labels' });
  const pass = encoder.beginComputePass({ label: 'cost/reset labels' });
  linear(ctx, pass, fill, params, [[3, b.labels]], setup.cells);
  const seeded: Binding[] = [
    [1, b.values],
    [2, b.dist],
    [3, b.labels],
    [5, b.sources],
  ];
  linear(ctx, pass, seeds, params, seeded, setup.sources.length);
  pass.end();
  ctx.device.queue.submit([encoder.finish()]);
}

/** What {@link finish} brings back. */
export interface CostOutput {
  cost: Float32Array;
  labels: Int32Array;
  backlink?: Uint8Array;
  /** The lowest cell whose value is invalid (the host names it), −1 when none. */
  invalidCell: number;
  /** The lowest cell whose value (or 1/v) is subnormal for the device, −1 when none. */
  subnormalCell: number;
  /** The lowest reached cell without a label (or backlink), −1 when none. */
  inconsistentCell: number;
  /** The lowest cell whose cost overflowed f32, −1 when none. */
  overflowCell: number;
  gpuMs: number;
}

/** The backlink pass (when asked for), the consistency check, and one readback of everything. */
export async function finish(
  ctx: GpuContext,
  setup: CostSetup,
  buffers: CostBuffers,
  params: GPUBuffer,
  profiler: GpuProfiler | null,
  owned: GPUBuffer[],
): Promise<CostOutput> {
  const b = buffers;
  const encoder = ctx.device.createCommandEncoder({ label: 'cost/finish' });
  const words = Math.ceil(setup.cells / 4);
  let link: GPUBuffer | null = null;
  const pass = encoder.beginComputePass(
    profiler ? profiler.passDescriptor('cost/finish') : { label: 'cost/finish' },
  );
  if (b.hops) {
    link = await createBufferChecked(ctx, {
      label: 'cost backlink',
      size: words * 4,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
    });
    owned.push(link);
    const pipeline = await ctx.pipelines.get(BACKLINK_KERNEL, { connectivity: setup.connectivity });
    const bindings: Binding[] = [
      [1, b.values],
      [2, b.dist],
      [3, b.labels],
      [4, b.hops],
      [5, link],
    ];
    linear(ctx, pass, pipeline, params, bindings, words);
  }
  const check = await ctx.pipelines.get(CHECK_KERNEL, { backlink: link ? 1 : 0 });
  const checks: Binding[] = [
    [1, b.values],
    [2, b.dist],
    [3, b.labels],
    [8, b.bad],
  ];
  if (link) checks.push([4, link], [5, b.sources]);
  linear(ctx, pass, check, params, checks, setup.cells);
  pass.end();
  profiler?.resolve(encoder);
  const parts = [
    { buffer: b.dist, offset: 0, bytes: setup.cells * 4 },
    { buffer: b.labels, offset: 0, bytes: setup.cells * 4 },
    { buffer: b.bad, offset: 0, bytes: 16 },
  ];
  if (link) parts.push({ buffer: link, offset: 0, bytes: words * 4 });
  const staged = await stageReadback(ctx, encoder, parts, 'cost');
  ctx.device.queue.submit([encoder.finish()]);
  const [d, l, bad, links] = await staged.read();
  const gpuMs = profiler ? (await profiler.profile()).totalMs : 0;
  const found = new Uint32Array(bad.buffer, bad.byteOffset, 4);
  const out: CostOutput = {
    cost: new Float32Array(d.buffer, d.byteOffset, setup.cells),
    labels: new Int32Array(l.buffer, l.byteOffset, setup.cells),
    invalidCell: cellOrNone(found[0]),
    subnormalCell: cellOrNone(found[3]),
    inconsistentCell: cellOrNone(found[1]),
    overflowCell: cellOrNone(found[2]),
    gpuMs,
  };
  if (links) out.backlink = links.subarray(0, setup.cells);
  return out;
}
