import { GeoframeError } from '@geoframe/core';
import { createBufferChecked } from '../runtime/buffers.js';
import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage, MapMode } from '../runtime/usage.js';
import type { CostSetup } from './cost-setup.js';
import { COST_PARAM_WORDS } from './cost-wgsl.js';
import { NEXT_ROUND_KERNEL } from './seed-kernels.js';
import { type RelaxPhase, TILE_RELAX_KERNEL } from './tile-relax-kernel.js';

/** Most rounds recorded between two reads of the `changed` words (an even number). */
export const MAX_BATCH = 64;
/** Rounds in the first batch; later batches double up to {@link MAX_BATCH}. */
export const FIRST_BATCH = 8;
const PARAM_STRIDE = 256;

/** The device buffers every pass binds. */
export interface CostBuffers {
  values: GPUBuffer;
  dist: GPUBuffer;
  labels: GPUBuffer;
  hops: GPUBuffer | null;
  sources: GPUBuffer;
  /**
   * Per tile, whether it is in a round's list, for two rounds (words [0, T) and [T, 2T), T tiles);
   * the two rounds' lists of active tiles ([2T, 3T), [3T, 4T)); their lengths (4T, 4T + 1); then
   * MAX_BATCH `changed` words. Round r reads half r % 2 and fills the other.
   */
  flags: GPUBuffer;
  /** Indirect dispatch arguments of the two rounds' lists: 2 × (x, y, 1). */
  args: GPUBuffer;
  /**
   * Three words (2³² − 1: none): the lowest cell with an invalid value, with an inconsistent
   * output, with a value or cost out of f32's normal range (the GPU declines).
   */
  bad: GPUBuffer;
}

/** Words of {@link CostBuffers.flags} for `tiles` tiles. */
export function flagWords(tiles: number): number {
  return 4 * tiles + 2 + MAX_BATCH;
}

/** What one phase cost: rounds run (the last found nothing to change), batches (host round trips). */
export interface PhaseRounds {
  rounds: number;
  batches: number;
  gpuMs: number;
}

/** The parameter blocks of a batch's rounds: slot j reads half j % 2 and writes changed word j. */
export async function roundParams(ctx: GpuContext, setup: CostSetup, inner: number): Promise<GPUBuffer> {
  const buffer = await createBufferChecked(ctx, {
    label: 'cost params',
    size: MAX_BATCH * PARAM_STRIDE,
    usage: BufferUsage.UNIFORM,
    mappedAtCreation: true,
  });
  const words = new Uint32Array(buffer.getMappedRange());
  const floats = new Float32Array(words.buffer);
  for (let j = 0; j < MAX_BATCH; j++) {
    const o = (j * PARAM_STRIDE) / 4;
    words.set([...setup.size, setup.cells, ...setup.tiles, setup.maxCostBits, j % 2, j, inner], o);
    words[o + 12] = setup.sources.length;
    floats.set(setup.lens, o + 16);
  }
  buffer.unmap();
  return buffer;
}

function bindGroups(
  ctx: GpuContext,
  pipeline: GPUComputePipeline,
  phase: RelaxPhase,
  buffers: CostBuffers,
  params: GPUBuffer,
): GPUBindGroup[] {
  const entries: GPUBindGroupEntry[] = [
    { binding: 1, resource: { buffer: buffers.values } },
    { binding: 2, resource: { buffer: buffers.dist } },
    { binding: 6, resource: { buffer: buffers.flags } },
  ];
  if (phase !== 'cost') entries.push({ binding: 3, resource: { buffer: buffers.labels } });
  if (phase === 'hops') {
    entries.push({ binding: 4, resource: { buffer: buffers.hops! } });
    entries.push({ binding: 5, resource: { buffer: buffers.sources } });
  }
  return Array.from({ length: MAX_BATCH }, (_, j) =>
    ctx.device.createBindGroup({
      label: `cost/${phase} round ${j}`,
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params, offset: j * PARAM_STRIDE, size: COST_PARAM_WORDS * 4 } },
        ...entries,
      ],
    }),
  );
}

/**
 * Runs one relax phase to its fixed point: every tile active at first; batches of rounds (an
 * indirect dispatch over the round's list of active tiles, then {@link NEXT_ROUND_KERNEL}; all
 * in one compute pass) until a round changes nothing. The round count is bounded
 * by the cell count plus one (Bellman-Ford: a least-cost path has fewer steps than there are cells,
 * and each round extends every unfinished path by at least one step), so a run that goes past it
 * is a bug and throws rather than looping.
 */
export async function runPhase(
  ctx: GpuContext,
  setup: CostSetup,
  phase: RelaxPhase,
  buffers: CostBuffers,
  params: GPUBuffer,
  profiler: GpuProfiler | null,
): Promise<PhaseRounds> {
  const connectivity = setup.connectivity;
  const pipeline = await ctx.pipelines.get(TILE_RELAX_KERNEL, { connectivity, phase });
  const groups = bindGroups(ctx, pipeline, phase, buffers, params);
  const tiles = setup.tiles[3];
  const next = await ctx.pipelines.get(NEXT_ROUND_KERNEL, {
    maxX: ctx.limits.maxComputeWorkgroupsPerDimension,
  });
  const nextGroups = Array.from({ length: MAX_BATCH }, (_, j) =>
    ctx.device.createBindGroup({
      label: `cost/next-round ${j}`,
      layout: next.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params, offset: j * PARAM_STRIDE, size: COST_PARAM_WORDS * 4 } },
        { binding: 6, resource: { buffer: buffers.flags } },
        { binding: 7, resource: { buffer: buffers.args } },
      ],
    }),
  );
  // the first round: every tile active, listed in order
  const initial = new Uint32Array(flagWords(tiles));
  initial.fill(1, 0, tiles);
  for (let t = 0; t < tiles; t++) initial[2 * tiles + t] = t;
  initial[4 * tiles] = tiles;
  ctx.device.queue.writeBuffer(buffers.flags, 0, initial);
  const [x, y] = dispatchSize(tiles, ctx.limits.maxComputeWorkgroupsPerDimension);
  ctx.device.queue.writeBuffer(buffers.args, 0, Uint32Array.of(x, y, 1, 0, 1, 1));
  const changedAt = (4 * tiles + 2) * 4;
  const staging = await createBufferChecked(ctx, {
    label: 'cost changed readback',
    size: MAX_BATCH * 4,
    usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
  });
  const limit = setup.cells + 2;
  let rounds = 0;
  let batches = 0;
  let gpuMs = 0;
  let batch = FIRST_BATCH;
  try {
    for (;;) {
      ctx.assertUsable();
      const encoder = ctx.device.createCommandEncoder({ label: `cost/${phase}` });
      encoder.clearBuffer(buffers.flags, changedAt, MAX_BATCH * 4);
      const pass = encoder.beginComputePass(
        profiler ? profiler.passDescriptor(`cost/${phase}`) : { label: `cost/${phase}` },
      );
      for (let j = 0; j < batch; j++) {
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, groups[j]);
        pass.dispatchWorkgroupsIndirect(buffers.args, (j % 2) * 12);
        pass.setPipeline(next);
        pass.setBindGroup(0, nextGroups[j]);
        pass.dispatchWorkgroups(1);
      }
      pass.end();
      encoder.copyBufferToBuffer(buffers.flags, changedAt, staging, 0, MAX_BATCH * 4);
      profiler?.resolve(encoder);
      ctx.device.queue.submit([encoder.finish()]);
      await staging.mapAsync(MapMode.READ).catch((cause) => {
        ctx.assertUsable();
        throw cause;
      });
      const changed = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      if (profiler) gpuMs += (await profiler.profile()).totalMs;
      batches++;
      const quiet = changed.subarray(0, batch).indexOf(0);
      if (quiet >= 0) return { rounds: rounds + quiet + 1, batches, gpuMs };
      rounds += batch;
      if (rounds > limit) {
        // the watchdog's code for a kernel loop at its bound: a CPU run may answer instead
        throw new GeoframeError(
          'GPU_LOOP_LIMIT',
          `cost/${phase}: no fixed point after ${rounds} rounds (bound ${limit})`,
        );
      }
      batch = Math.min(MAX_BATCH, batch * 2);
    }
  } finally {
    staging.destroy();
  }
}
