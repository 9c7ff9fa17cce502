import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import {
  type BindingEntry,
  type BindingLayout,
  type BoundBuffers,
  bindingEntries,
  groupEntry,
} from '../runtime/kernel-bindings.js';
import {
  type KernelConstants,
  type KernelUse,
  kernelUse,
  type NamedKernel,
} from '../runtime/pipeline-cache.js';
import { BufferUsage } from '../runtime/usage.js';

/** A compute dispatch waiting to be recorded: kernel with its constants, u32 parameters, bindings, grid. */
export interface PlannedDispatch {
  kernel: KernelUse;
  /** Up to 64 u32 parameters, bound as binding 0 (a uniform block). */
  params: ArrayLike<number>;
  entries: BindingEntry[];
  /** Workgroups of the 1D grid; split over x and y by {@link dispatchSize}. */
  workgroups: number;
  /** Arguments (x, y, z workgroups, written by earlier GPU work) instead of `workgroups`. */
  indirect?: { buffer: GPUBuffer; offset: number };
}

/** What {@link planned} needs besides the kernel; `constants` may be left out by a kernel without any. */
export type DispatchPlan<C extends KernelConstants, L extends BindingLayout> = {
  params: ArrayLike<number>;
  buffers: BoundBuffers<L>;
  workgroups: number;
  indirect?: { buffer: GPUBuffer; offset: number };
} & (Record<string, never> extends C ? { constants?: C } : { constants: C });

/** A dispatch of `kernel` binding `plan.buffers` by name. */
export function planned<C extends KernelConstants, L extends BindingLayout>(
  kernel: NamedKernel<C, L>,
  plan: DispatchPlan<C, L>,
): PlannedDispatch {
  return {
    kernel: kernelUse(kernel, plan.constants),
    params: plan.params,
    entries: bindingEntries(kernel.bindings, plan.buffers),
    workgroups: plan.workgroups,
    indirect: plan.indirect,
  };
}

/** Bytes between parameter blocks in a uniform buffer (WebGPU's largest offset alignment). */
const PARAM_STRIDE = 256;

/** Parameter blocks an encoder's uniform buffer holds before another is started (16 KiB). */
const ARENA_BLOCKS = 64;

/** The uniform buffer of an encoder's parameter blocks, and how many blocks are taken. */
interface ParamArena {
  buffer: GPUBuffer;
  used: number;
}

/**
 * One uniform buffer per command encoder for the parameters of everything recorded into it (a
 * new one when it is full). Creating a small mapped buffer costs ~0.1 ms on the H100 host through
 * Dawn (docs/benchmarks.md, "Host costs"), a `queue.writeBuffer` of the same bytes ~4 µs; a
 * pipeline run records ~30 calls. Writing at record time is safe because the buffer is the
 * encoder's alone: no submitted work reads it before the encoder is submitted.
 */
const arenas = new WeakMap<GPUCommandEncoder, ParamArena>();

function encoderParams(
  device: GPUDevice,
  encoder: GPUCommandEncoder,
  label: string,
  count: number,
): { buffer: GPUBuffer; first: number } {
  let arena = arenas.get(encoder);
  if (!arena || arena.used + count > arena.buffer.size / PARAM_STRIDE) {
    arena = {
      buffer: device.createBuffer({
        label: `${label} params`,
        size: Math.max(ARENA_BLOCKS, count) * PARAM_STRIDE,
        usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
      }),
      used: 0,
    };
    arenas.set(encoder, arena);
  }
  const first = arena.used;
  arena.used += count;
  return { buffer: arena.buffer, first };
}

/**
 * Records `dispatches` into one compute pass of `encoder`. Pipelines come from the context's
 * cache (awaited before anything is recorded). The parameter blocks go into the encoder's own
 * uniform buffer, 256 bytes apart, written now with one `queue.writeBuffer` (see `arenas`); it is
 * left to garbage collection with the encoder. `descriptor` (e.g. a profiler's) replaces the
 * pass's default `{ label }`.
 */
export async function recordDispatches(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  label: string,
  dispatches: PlannedDispatch[],
  maxPerDimension: number,
  descriptor?: GPUComputePassDescriptor,
): Promise<void> {
  const active = dispatches.filter((d) => d.workgroups > 0 || d.indirect);
  if (active.length === 0) {
    // a profiled pass is still recorded, so its timestamps are written
    if (descriptor?.timestampWrites) encoder.beginComputePass(descriptor).end();
    return;
  }
  const pipelines = await Promise.all(active.map((d) => d.kernel.pipeline(ctx.pipelines)));
  ctx.assertUsable();
  const device = ctx.device;
  const { buffer: uniforms, first } = encoderParams(device, encoder, label, active.length);
  const words = new Uint32Array((active.length * PARAM_STRIDE) / 4);
  active.forEach((d, k) => {
    words.set(Array.from(d.params), (k * PARAM_STRIDE) / 4);
  });
  device.queue.writeBuffer(uniforms, first * PARAM_STRIDE, words);
  const pass = encoder.beginComputePass(descriptor ?? { label });
  active.forEach((d, k) => {
    const pipeline = pipelines[k];
    const entries: GPUBindGroupEntry[] = [
      { binding: 0, resource: { buffer: uniforms, offset: (first + k) * PARAM_STRIDE, size: PARAM_STRIDE } },
      ...d.entries.map(groupEntry),
    ];
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }));
    if (d.indirect) {
      pass.dispatchWorkgroupsIndirect(d.indirect.buffer, d.indirect.offset);
      return;
    }
    const [x, y] = dispatchSize(d.workgroups, maxPerDimension);
    pass.dispatchWorkgroups(x, y);
  });
  pass.end();
}

/**
 * A binding of `count` u32 elements of `buffer` starting at element `first`: the offset is
 * rounded down to the device's storage offset alignment and `base` says where element `first`
 * lies in the binding.
 */
export function elementRange(
  ctx: GpuContext,
  buffer: GPUBuffer,
  first: number,
  count: number,
): { offset: number; size: number; base: number } {
  const align = ctx.limits.minStorageBufferOffsetAlignment;
  const byte = first * 4;
  const offset = Math.floor(byte / align) * align;
  const size = Math.max(4, byte + count * 4 - offset);
  if (offset + size > buffer.size) {
    throw new RangeError(
      `${buffer.label || 'buffer'}: elements [${first}, ${first + count}) exceed its ${buffer.size} bytes`,
    );
  }
  return { offset, size, base: (byte - offset) / 4 };
}
