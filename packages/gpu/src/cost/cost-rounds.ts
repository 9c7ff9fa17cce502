import { GeoframeError } from '@geoframe/core';
import { createBufferChecked } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage, MapMode } from '../runtime/usage.js';
import type { CostSetup } from './cost-setup.js';
import { COST_PARAM_WORDS } from './cost-wgsl.js';
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
  /** Two halves of per-tile activity (this round's, the next's), then MAX_BATCH `changed` words. */
  flags: GPUBuffer;
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
 * Runs one relax phase to its fixed point: every tile active at first; batches of rounds (one
 * dispatch each, in one compute pass) until a round changes nothing. The round count is bounded
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
  const initial = new Uint32Array(2 * tiles + MAX_BATCH);
  initial.fill(1, 0, tiles);
  ctx.device.queue.writeBuffer(buffers.flags, 0, initial);
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
      encoder.clearBuffer(buffers.flags, 2 * tiles * 4, MAX_BATCH * 4);
      const pass = encoder.beginComputePass(
        profiler ? profiler.passDescriptor(`cost/${phase}`) : { label: `cost/${phase}` },
      );
      pass.setPipeline(pipeline);
      for (let j = 0; j < batch; j++) {
        pass.setBindGroup(0, groups[j]);
        pass.dispatchWorkgroups(setup.tiles[0], setup.tiles[1], setup.tiles[2]);
      }
      pass.end();
      encoder.copyBufferToBuffer(buffers.flags, 2 * tiles * 4, staging, 0, MAX_BATCH * 4);
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
        throw new GeoframeError(
          'COST_NOT_CONVERGED',
          `cost/${phase}: no fixed point after ${rounds} rounds (bound ${limit})`,
        );
      }
      batch = Math.min(MAX_BATCH, batch * 2);
    }
  } finally {
    staging.destroy();
  }
}
