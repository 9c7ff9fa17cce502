import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { MapMode } from '../runtime/usage.js';
import { MAX_BATCH, TAIL_WORDS } from './cost-wgsl.js';

// A phase's rounds are recorded in batches (cost-rounds.ts): one compute pass of rounds, the
// copy of the phase's tail words to a staging buffer, and its mapping, read by the host.

/** A submitted batch: its size and the mapping of its tail words. */
export interface Batch {
  /** The batch's first round (its `changed` word: first % MAX_BATCH). */
  first: number;
  size: number;
  staging: GPUBuffer;
  mapped: Promise<void>;
  profiler: GpuProfiler | null;
}

/** What {@link submitBatch} records with, and how far it got (rounds, batches). */
export interface Recorder {
  ctx: GpuContext;
  label: string;
  flags: GPUBuffer;
  pipeline: GPUComputePipeline;
  /** The rotation's bind groups: round r uses groups[r % 3]. */
  groups: GPUBindGroup[];
  /** Workgroups of a round, as [x, y]. */
  wide: [number, number];
  /** Two staging buffers for the batches' tail words, used in turn (two may be in flight). */
  stagings: GPUBuffer[];
  profilers: [GpuProfiler, GpuProfiler] | null;
  mark: (what: string) => void;
  submitted: number;
  recorded: number;
}

/**
 * Records `size` rounds in one compute pass (the pipeline set once, then a bind group and a
 * dispatch a round), the copy of the `flags` words to a staging buffer, submits, and starts
 * mapping that buffer.
 */
export function submitBatch(rec: Recorder, size: number): Batch {
  const { ctx, label } = rec;
  const staging = rec.stagings[rec.submitted % 2];
  const profiler = rec.profilers ? rec.profilers[rec.submitted % 2] : null;
  const batch = ++rec.submitted;
  const encoder = ctx.device.createCommandEncoder({ label });
  encoder.clearBuffer(rec.flags, 0, MAX_BATCH * 4);
  const pass = encoder.beginComputePass(profiler ? profiler.passDescriptor(label) : { label });
  const first = rec.recorded;
  pass.setPipeline(rec.pipeline);
  for (let j = 0; j < size; j++) {
    pass.setBindGroup(0, rec.groups[rec.recorded++ % 3]);
    pass.dispatchWorkgroups(rec.wide[0], rec.wide[1]);
  }
  pass.end();
  encoder.copyBufferToBuffer(rec.flags, 0, staging, 0, TAIL_WORDS * 4);
  profiler?.resolve(encoder);
  ctx.device.queue.submit([encoder.finish()]);
  rec.mark(`${label} batch ${batch} (${size} rounds) submitted`);
  const mapped = staging.mapAsync(MapMode.READ);
  mapped.then(
    () => rec.mark(`${label} batch ${batch} mapped`),
    () => {},
  );
  return { first, size, staging, mapped, profiler };
}

/** The batch's `flags` words once mapped, and its GPU time (profiled). */
export async function readBatch(
  ctx: GpuContext,
  batch: Batch,
): Promise<{ tail: Uint32Array; gpuMs: number }> {
  await batch.mapped.catch((cause) => {
    ctx.assertUsable();
    throw cause;
  });
  const tail = new Uint32Array(batch.staging.getMappedRange().slice(0));
  batch.staging.unmap();
  return { tail, gpuMs: batch.profiler ? (await batch.profiler.profile()).totalMs : 0 };
}
