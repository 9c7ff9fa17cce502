import type { CostGridProblem } from '@geoframe/core';
import { createBufferChecked, uploadStorage } from '../runtime/buffers.js';
import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { type BindingEntry, bindingEntries, groupEntry } from '../runtime/kernel-bindings.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { remapUploads, submitForRead, uploadParts } from '../runtime/staging.js';
import { BufferUsage } from '../runtime/usage.js';
import { BACKLINK_KERNEL } from './backlink-kernel.js';
import { CHECK_KERNEL, PREPARE_KERNEL } from './check-kernels.js';
import type { CostBuffers } from './cost-rounds.js';
import type { CostSetup } from './cost-setup.js';
import { COST_PARAM_WORDS, COST_WORKGROUP, listWords, TAIL_WORDS } from './cost-wgsl.js';
import type { HostOutput } from './host-output.js';
import { FILL_KERNEL, SEED_KERNEL } from './seed-kernels.js';
import { takeTails } from './tail-pool.js';

const NONE = 0xffffffff;
/** Names of the staging buffers the context keeps for cost allocation (voronoi/transfer/staging.ts). */
const VALUES_STAGING = 'cost values';
const OUTPUT_STAGING = 'cost output';

/** The device buffers of a run (the values are uploaded with the seed pass, converted there). */
export async function createBuffers(
  ctx: GpuContext,
  setup: CostSetup,
  backlink: boolean,
  keepTails = true,
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
  const words = Math.ceil(setup.cells / 4);
  // two per phase run: cost, label, label again (descending after a flat step), hops
  const tails = takeTails(ctx, keepTails);
  const list = (k: number) =>
    createBufferChecked(ctx, {
      label: `cost tile list ${k}`,
      size: listWords(setup.tiles[3]) * 4,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
  return {
    values: await cellBuffer('cost values', BufferUsage.COPY_DST),
    dist: await cellBuffer('cost dist', copy),
    labels: await cellBuffer('cost labels', copy),
    hops: backlink ? await cellBuffer('cost hops', 0) : null,
    link: backlink
      ? await createBufferChecked(ctx, {
          label: 'cost backlink',
          size: words * 4,
          usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC,
        })
      : null,
    sources: await uploadStorage(ctx, setup.sources, 'cost sources'),
    keys: await createBufferChecked(ctx, {
      label: 'cost tile keys',
      size: setup.tiles[3] * 4,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    }),
    flags: await createBufferChecked(ctx, {
      label: 'cost flags',
      size: TAIL_WORDS * 4,
      usage: BufferUsage.STORAGE | copy,
    }),
    lists: [await list(0), await list(1), await list(2)],
    bad,
    tails: await tails,
  };
}

/**
 * Dispatches `pipeline` over `threads` threads of a linear kernel in `pass`, params block 0 bound
 * and `bindings` (a kernel's `bindingEntries`).
 */
function linear(
  ctx: GpuContext,
  pass: GPUComputePassEncoder,
  pipeline: GPUComputePipeline,
  params: GPUBuffer,
  bindings: BindingEntry[],
  threads: number,
): void {
  const [x, y] = dispatchSize(
    Math.ceil(threads / COST_WORKGROUP),
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  if (x === 0) return;
  const entries: GPUBindGroupEntry[] = [
    { binding: 0, resource: { buffer: params, offset: 0, size: COST_PARAM_WORDS * 4 } },
    ...bindings.map(groupEntry),
  ];
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, ctx.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
  pass.dispatchWorkgroups(x, y);
}

/** The seed kernel's buffers (the seed pass and the labels' reset). */
function seedEntries(b: CostBuffers): BindingEntry[] {
  return bindingEntries(SEED_KERNEL.bindings, {
    values: b.values,
    dist: b.dist,
    labels: b.labels,
    sources: b.sources,
  });
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
  problem: CostGridProblem,
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
  // the values up through a staging buffer kept by the context (mapped again ahead for the next
  // run): a copy into mapped memory that was mapped before runs at several GB/s, a fresh one at
  // page-fault speed
  await uploadParts(ctx, encoder, VALUES_STAGING, [{ data: problem.values, target: b.values }]);
  const pass = encoder.beginComputePass(
    profiler ? profiler.passDescriptor('cost/seed') : { label: 'cost/seed' },
  );
  const prepared = bindingEntries(PREPARE_KERNEL.bindings, { values: b.values, bad: b.bad });
  linear(ctx, pass, prepare, params, prepared, setup.cells);
  const fills = bindingEntries(FILL_KERNEL.bindings, {
    dist: b.dist,
    labels: b.labels,
    ...(b.hops ? { hops: b.hops } : {}),
  });
  linear(ctx, pass, fill, params, fills, setup.cells);
  linear(ctx, pass, seeds, params, seedEntries(b), setup.sources.length);
  pass.end();
  profiler?.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  remapUploads(ctx, VALUES_STAGING);
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
  linear(ctx, pass, fill, params, bindingEntries(FILL_KERNEL.bindings, { labels: b.labels }), setup.cells);
  linear(ctx, pass, seeds, params, seedEntries(b), setup.sources.length);
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

/**
 * The backlink pass (when asked for), the consistency check, and one readback of everything
 * through a staging buffer kept by the context into the `prepared` host arrays (readied while the
 * GPU works). `waitMs`: from the submission until the mapping is there (the arrays readied
 * meanwhile); `copyMs`: the copy out of it.
 */
export async function finish(
  ctx: GpuContext,
  setup: CostSetup,
  buffers: CostBuffers,
  params: GPUBuffer,
  profiler: GpuProfiler | null,
  prepared: { ready(): Promise<HostOutput> },
): Promise<CostOutput & { waitMs: number; copyMs: number }> {
  const b = buffers;
  const encoder = ctx.device.createCommandEncoder({ label: 'cost/finish' });
  const words = Math.ceil(setup.cells / 4);
  const pass = encoder.beginComputePass(
    profiler ? profiler.passDescriptor('cost/finish') : { label: 'cost/finish' },
  );
  if (b.hops && b.link) {
    const pipeline = await ctx.pipelines.get(BACKLINK_KERNEL, { connectivity: setup.connectivity });
    const bindings = bindingEntries(BACKLINK_KERNEL.bindings, {
      values: b.values,
      dist: b.dist,
      labels: b.labels,
      hops: b.hops,
      backlink: b.link,
    });
    linear(ctx, pass, pipeline, params, bindings, words);
  }
  const check = await ctx.pipelines.get(CHECK_KERNEL, { backlink: b.link ? 1 : 0 });
  const checks = bindingEntries(CHECK_KERNEL.bindings, {
    values: b.values,
    dist: b.dist,
    labels: b.labels,
    bad: b.bad,
    ...(b.link ? { backlink: b.link, sources: b.sources } : {}),
  });
  linear(ctx, pass, check, params, checks, setup.cells);
  pass.end();
  const bytes = setup.cells * 4;
  const parts = [
    { source: b.bad, bytes: 16 },
    { source: b.dist, bytes },
    { source: b.labels, bytes },
  ];
  if (b.link) parts.push({ source: b.link, bytes: words * 4 });
  profiler?.resolve(encoder);
  const pending = await submitForRead(ctx, encoder, OUTPUT_STAGING, parts);
  const output = await prepared.ready();
  const found = new Uint32Array(4);
  const targets: ArrayBufferView[] = [found, output.cost, output.labels];
  if (output.backlink) targets.push(output.backlink);
  const { waitMs, copyMs } = await pending.into(targets);
  const gpuMs = profiler ? (await profiler.profile()).totalMs : 0;
  return {
    cost: output.cost,
    labels: output.labels,
    ...(output.backlink ? { backlink: output.backlink } : {}),
    invalidCell: cellOrNone(found[0]),
    subnormalCell: cellOrNone(found[3]),
    inconsistentCell: cellOrNone(found[1]),
    overflowCell: cellOrNone(found[2]),
    gpuMs,
    waitMs,
    copyMs,
  };
}
