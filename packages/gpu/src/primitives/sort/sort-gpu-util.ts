import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import {
  type BindingLayout,
  type BoundBuffers,
  bindingEntries,
  groupEntry,
} from '../../runtime/kernel-bindings.js';
import { BufferUsage } from '../../runtime/usage.js';

/** WebGPU's `minUniformBufferOffsetAlignment` ceiling: per-dispatch parameter blocks sit this far apart. */
export const PARAM_STRIDE = 256;

/**
 * A uniform buffer holding one 16-byte block of four u32 per dispatch, blocks {@link PARAM_STRIDE}
 * bytes apart, filled through `mappedAtCreation` (synchronous). A fresh buffer per encoded call,
 * so two sorts recorded into one encoder never see each other's parameters; it is freed when
 * garbage collected after the work that uses it.
 */
export function paramBlocks(
  ctx: GpuContext,
  label: string,
  blocks: readonly (readonly number[])[],
): GPUBuffer {
  const buffer = ctx.device.createBuffer({
    label,
    size: Math.max(1, blocks.length) * PARAM_STRIDE,
    usage: BufferUsage.UNIFORM,
    mappedAtCreation: true,
  });
  const words = new Uint32Array(buffer.getMappedRange());
  blocks.forEach((block, i) => {
    words.set(block, (i * PARAM_STRIDE) / 4);
  });
  buffer.unmap();
  return buffer;
}

/** A whole buffer, or block `index` (16 bytes) of a {@link paramBlocks} buffer. */
export type Binding = GPUBuffer | { params: GPUBuffer; index: number };

/** A bind group of group 0: `params` at binding 0, `buffers` by the names `kernel` declares. */
export function bindKernel<L extends BindingLayout>(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  kernel: { bindings: L },
  params: Binding,
  buffers: BoundBuffers<L>,
): GPUBindGroup {
  return device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      {
        binding: 0,
        resource:
          'params' in params
            ? { buffer: params.params, offset: params.index * PARAM_STRIDE, size: 16 }
            : { buffer: params },
      },
      ...bindingEntries(kernel.bindings, buffers).map(groupEntry),
    ],
  });
}

/** Throws a RangeError when `buffer` holds fewer than `count` u32 words. */
export function assertWords(buffer: GPUBuffer, count: number, what: string): void {
  if (buffer.size < count * 4) {
    throw new RangeError(`${what} holds ${buffer.size} bytes, fewer than ${count} u32 words`);
  }
}

/**
 * Records work with `record` into a new encoder and submits it, all inside a `validation` error
 * scope: a validation failure becomes a GpuValidationError named `label` instead of an uncaptured
 * error. An exception from `record` is rethrown after the scope is popped.
 */
export async function submitChecked(
  ctx: GpuContext,
  label: string,
  record: (encoder: GPUCommandEncoder) => Promise<void>,
): Promise<void> {
  const device = ctx.device;
  device.pushErrorScope('validation');
  let failure: { error: unknown } | undefined;
  try {
    const encoder = device.createCommandEncoder({ label });
    await record(encoder);
    device.queue.submit([encoder.finish()]);
  } catch (error) {
    failure = { error };
  }
  const scope = await device.popErrorScope();
  if (failure) throw failure.error;
  if (scope) throw new GpuValidationError(label, scope.message);
}
