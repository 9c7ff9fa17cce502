import { GeoframeError } from '@geoframe/core';
import { createBufferChecked } from '../runtime/buffers.js';
import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { BufferUsage, MapMode } from '../runtime/usage.js';
import type { CostSetup } from './cost-setup.js';
import { COST_PARAM_WORDS, MAX_BATCH, TAIL_WORDS } from './cost-wgsl.js';

export { MAX_BATCH } from './cost-wgsl.js';

import { NEXT_ROUND_KERNEL } from './seed-kernels.js';
import { type RelaxPhase, TILE_RELAX_KERNEL } from './tile-relax-kernel.js';

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
   * the tail: MAX_BATCH `changed` words, the label pass's `flat` word, the phase's counters of tile
   * visits and local iterations. Round r reads half r % 2 and fills the other.
   */
  flags: GPUBuffer;
  /** Indirect dispatch arguments of the two rounds' lists: 2 × (x, y, 1). */
  args: GPUBuffer;
  /**
   * Four words (2³² − 1: none): the lowest cell with an invalid value, with an inconsistent
   * output, whose cost overflows f32, whose value is subnormal for the device (the GPU declines).
   */
  bad: GPUBuffer;
}

/** Words of {@link CostBuffers.flags} for `tiles` tiles. */
export function flagWords(tiles: number): number {
  return 4 * tiles + 2 + TAIL_WORDS;
}

/** What one phase cost: rounds run (the last found nothing to change), batches (host round trips). */
export interface PhaseRounds {
  rounds: number;
  batches: number;
  gpuMs: number;
  /** Tile visits (workgroups that took a tile) and their local iterations, over all rounds. */
  visits: number;
  iterations: number;
  /**
   * The label pass from carried labels met a flat tight step (its fixed point may then not be
   * unique): it stopped early, and the caller runs the monotone label pass instead.
   */
  flat: boolean;
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
  carry: boolean,
  buffers: CostBuffers,
  params: GPUBuffer,
): GPUBindGroup[] {
  const entries: GPUBindGroupEntry[] = [
    { binding: 1, resource: { buffer: buffers.values } },
    { binding: 2, resource: { buffer: buffers.dist } },
    { binding: 6, resource: { buffer: buffers.flags } },
  ];
  if (phase !== 'cost' || carry) entries.push({ binding: 3, resource: { buffer: buffers.labels } });
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

/** How a phase runs: labels carried (see TileRelaxConstants.carry), batches overlapped. */
export interface PhaseOptions {
  carry: boolean;
  /**
   * Record and submit the next batch before reading the current one's `changed` words, so the
   * GPU never waits for the host between batches (the batch after the last is empty
   * dispatches). Default of the engine; off only to measure what it saves.
   */
  overlap: boolean;
}

/** A submitted batch: its size and the mapping of its tail words. */
interface Batch {
  size: number;
  staging: GPUBuffer;
  mapped: Promise<void>;
  profiler: GpuProfiler | null;
}

/**
 * Runs one relax phase to its fixed point: every tile active at first; batches of rounds (an
 * indirect dispatch over the round's list of active tiles, then {@link NEXT_ROUND_KERNEL}; all
 * in one compute pass) until a round changes nothing. The round count is bounded
 * by the cell count plus one (Bellman-Ford: a least-cost path has fewer steps than there are cells,
 * and each round extends every unfinished path by at least one step), so a run that goes past it
 * is a bug and throws rather than looping. `profilers`: two, used in turn (two batches may be in
 * flight).
 */
export async function runPhase(
  ctx: GpuContext,
  setup: CostSetup,
  phase: RelaxPhase,
  buffers: CostBuffers,
  params: GPUBuffer,
  profilers: [GpuProfiler, GpuProfiler] | null,
  options: PhaseOptions,
): Promise<PhaseRounds> {
  const connectivity = setup.connectivity;
  const carry = options.carry && phase !== 'hops';
  const pipeline = await ctx.pipelines.get(TILE_RELAX_KERNEL, { connectivity, phase, carry: carry ? 1 : 0 });
  const groups = bindGroups(ctx, pipeline, phase, carry, buffers, params);
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
  // the first round: every tile active, listed in order; the tail (flat word, counters) zeroed
  const initial = new Uint32Array(flagWords(tiles));
  initial.fill(1, 0, tiles);
  for (let t = 0; t < tiles; t++) initial[2 * tiles + t] = t;
  initial[4 * tiles] = tiles;
  ctx.device.queue.writeBuffer(buffers.flags, 0, initial);
  const [x, y] = dispatchSize(tiles, ctx.limits.maxComputeWorkgroupsPerDimension);
  ctx.device.queue.writeBuffer(buffers.args, 0, Uint32Array.of(x, y, 1, 0, 1, 1));
  const tailAt = (4 * tiles + 2) * 4;
  const stagings = await Promise.all(
    [0, 1].map((k) =>
      createBufferChecked(ctx, {
        label: `cost changed readback ${k}`,
        size: TAIL_WORDS * 4,
        usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
      }),
    ),
  );
  let submitted = 0;
  const submit = (size: number): Batch => {
    const staging = stagings[submitted % 2];
    const profiler = profilers ? profilers[submitted % 2] : null;
    submitted++;
    const encoder = ctx.device.createCommandEncoder({ label: `cost/${phase}` });
    encoder.clearBuffer(buffers.flags, tailAt, MAX_BATCH * 4);
    const pass = encoder.beginComputePass(
      profiler ? profiler.passDescriptor(`cost/${phase}`) : { label: `cost/${phase}` },
    );
    for (let j = 0; j < size; j++) {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, groups[j]);
      pass.dispatchWorkgroupsIndirect(buffers.args, (j % 2) * 12);
      pass.setPipeline(next);
      pass.setBindGroup(0, nextGroups[j]);
      pass.dispatchWorkgroups(1);
    }
    pass.end();
    encoder.copyBufferToBuffer(buffers.flags, tailAt, staging, 0, TAIL_WORDS * 4);
    profiler?.resolve(encoder);
    ctx.device.queue.submit([encoder.finish()]);
    const mapped = staging.mapAsync(MapMode.READ);
    return { size, staging, mapped, profiler };
  };
  /** The batch's tail words once mapped, and its GPU time (profiled). */
  const read = async (batch: Batch): Promise<{ tail: Uint32Array; gpuMs: number }> => {
    await batch.mapped.catch((cause) => {
      ctx.assertUsable();
      throw cause;
    });
    const tail = new Uint32Array(batch.staging.getMappedRange().slice(0));
    batch.staging.unmap();
    return { tail, gpuMs: batch.profiler ? (await batch.profiler.profile()).totalMs : 0 };
  };
  const limit = setup.cells + 2;
  const out: PhaseRounds = { rounds: 0, batches: 0, gpuMs: 0, visits: 0, iterations: 0, flat: false };
  let ahead: Batch | null = null;
  try {
    ctx.assertUsable();
    let current = submit(FIRST_BATCH);
    for (;;) {
      const size = Math.min(MAX_BATCH, current.size * 2);
      ahead = options.overlap ? submit(size) : null;
      const { tail, gpuMs } = await read(current);
      out.gpuMs += gpuMs;
      out.batches++;
      out.visits = tail[MAX_BATCH + 1];
      out.iterations = tail[MAX_BATCH + 2];
      const quiet = tail.subarray(0, current.size).indexOf(0);
      // a flat tight step is seen in the first round (every tile, every cell): stop at once
      out.flat = carry && phase === 'label' && tail[MAX_BATCH] !== 0;
      if (quiet >= 0 || out.flat) {
        out.rounds += quiet >= 0 ? quiet + 1 : current.size;
        break;
      }
      out.rounds += current.size;
      if (out.rounds > limit) {
        // the watchdog's code for a kernel loop at its bound: a CPU run may answer instead
        throw new GeoframeError(
          'GPU_LOOP_LIMIT',
          `cost/${phase}: no fixed point after ${out.rounds} rounds (bound ${limit})`,
        );
      }
      ctx.assertUsable();
      current = ahead ?? submit(size);
      ahead = null;
    }
    if (ahead && profilers) {
      // a profiled run reads the batch in flight too (its profiler must be read before reuse)
      out.gpuMs += (await read(ahead)).gpuMs;
      ahead = null;
    }
    return out;
  } finally {
    // a batch still in flight (empty rounds after the fixed point) needs no reading: destroying
    // its staging buffer cancels the mapping
    ahead?.mapped.catch(() => {});
    for (const staging of stagings) staging.destroy();
  }
}
