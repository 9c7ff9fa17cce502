import { dispatchSize } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { KernelConstants, KernelSpec } from '../runtime/pipeline-cache.js';
import { BufferUsage } from '../runtime/usage.js';

/** One buffer binding of a recorded dispatch (whole buffer when offset and size are absent). */
export interface BindingEntry {
  binding: number;
  buffer: GPUBuffer;
  offset?: number;
  size?: number;
}

/** A compute dispatch waiting to be recorded: kernel, constants, u32 parameters, bindings, grid. */
export interface PlannedDispatch {
  kernel: KernelSpec<never>;
  constants: KernelConstants;
  /** Up to 64 u32 parameters, bound as binding 0 (a uniform block). */
  params: ArrayLike<number>;
  entries: BindingEntry[];
  /** Workgroups of the 1D grid; split over x and y by {@link dispatchSize}. */
  workgroups: number;
  /** Arguments (x, y, z workgroups, written by earlier GPU work) instead of `workgroups`. */
  indirect?: { buffer: GPUBuffer; offset: number };
}

/** Bytes between parameter blocks in the shared uniform buffer (WebGPU's largest offset alignment). */
const PARAM_STRIDE = 256;

/**
 * Records `dispatches` into one compute pass of `encoder`. Pipelines come from the context's
 * cache (awaited before anything is recorded). All parameter blocks go into one new uniform
 * buffer, 256 bytes apart: a fresh buffer per call, because `queue.writeBuffer` into a shared
 * one would overwrite parameters of an encoder recorded earlier but not yet submitted. It is
 * small and left to garbage collection (it cannot be destroyed before the caller submits).
 * `descriptor` (e.g. a profiler's) replaces the pass's default `{ label }`.
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
  const pipelines = await Promise.all(
    active.map((d) => ctx.pipelines.get(d.kernel as KernelSpec<KernelConstants>, d.constants)),
  );
  ctx.assertUsable();
  const device = ctx.device;
  const uniforms = device.createBuffer({
    label: `${label} params`,
    size: active.length * PARAM_STRIDE,
    usage: BufferUsage.UNIFORM,
    mappedAtCreation: true,
  });
  const words = new Uint32Array(uniforms.getMappedRange());
  active.forEach((d, k) => {
    words.set(Array.from(d.params), (k * PARAM_STRIDE) / 4);
  });
  uniforms.unmap();
  const pass = encoder.beginComputePass(descriptor ?? { label });
  active.forEach((d, k) => {
    const pipeline = pipelines[k];
    const entries: GPUBindGroupEntry[] = [
      { binding: 0, resource: { buffer: uniforms, offset: k * PARAM_STRIDE, size: PARAM_STRIDE } },
      ...d.entries.map((e) => ({
        binding: e.binding,
        resource:
          e.offset === undefined
            ? { buffer: e.buffer }
            : { buffer: e.buffer, offset: e.offset, size: e.size },
      })),
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
