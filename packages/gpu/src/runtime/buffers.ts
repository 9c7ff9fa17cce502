import { GpuOutOfMemoryError, GpuValidationError } from './errors.js';
import type { GpuContext } from './gpu-context.js';
import { BufferUsage, MapMode } from './usage.js';

/** `n` rounded up to a multiple of 4 (buffer sizes and copies must be), and at least 4. */
export function alignBufferSize(n: number): number {
  return Math.max(4, Math.ceil(n / 4) * 4);
}

/**
 * `device.createBuffer` inside `out-of-memory` and `validation` error scopes, so a failed
 * allocation is an exception here rather than an uncaptured error later.
 *
 * @throws GpuOutOfMemoryError when the allocation fails (also when `mappedAtCreation` throws RangeError).
 * @throws GpuValidationError (named by the buffer's label) for a size over `maxBufferSize` or bad usage.
 * @throws GpuDeviceLostError when the device is lost.
 */
export async function createBufferChecked(
  ctx: GpuContext,
  descriptor: GPUBufferDescriptor & { label: string },
): Promise<GPUBuffer> {
  ctx.assertUsable();
  const device = ctx.device;
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let buffer: GPUBuffer | undefined;
  let thrown: unknown;
  try {
    buffer = device.createBuffer(descriptor);
  } catch (error) {
    thrown = error;
  }
  // both scopes popped before any await, so no other task's errors land in them
  const validationScope = device.popErrorScope();
  const memoryScope = device.popErrorScope();
  const [validation, memory] = await Promise.all([validationScope, memoryScope]);
  if (memory || thrown instanceof RangeError) {
    buffer?.destroy();
    const message = memory?.message ?? (thrown as Error).message;
    throw new GpuOutOfMemoryError(descriptor.label, descriptor.size, message);
  }
  if (thrown) throw thrown;
  if (validation) {
    buffer?.destroy();
    throw new GpuValidationError(descriptor.label, validation.message);
  }
  return buffer!;
}

/**
 * A new storage buffer holding `data`'s bytes (size rounded up to 4, at least 4), written through
 * `mappedAtCreation` (one copy into the mapping; no staging copy as `writeBuffer` makes).
 * `extraUsage` adds flags, e.g. `BufferUsage.COPY_SRC`.
 */
export async function uploadStorage(
  ctx: GpuContext,
  data: ArrayBufferView,
  label: string,
  extraUsage = 0,
): Promise<GPUBuffer> {
  const buffer = await createBufferChecked(ctx, {
    label,
    size: alignBufferSize(data.byteLength),
    usage: BufferUsage.STORAGE | extraUsage,
    mappedAtCreation: true,
  });
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  new Uint8Array(buffer.getMappedRange(), 0, data.byteLength).set(bytes);
  buffer.unmap();
  return buffer;
}

/** A new zero-filled storage buffer of `byteLength` bytes (rounded up to 4, at least 4). */
export function createStorage(
  ctx: GpuContext,
  byteLength: number,
  label: string,
  extraUsage = 0,
): Promise<GPUBuffer> {
  return createBufferChecked(ctx, {
    label,
    size: alignBufferSize(byteLength),
    usage: BufferUsage.STORAGE | extraUsage,
  });
}

/** A uniform buffer holding `data` (small parameter blocks; written with `queue.writeBuffer`). */
export async function uploadUniform(ctx: GpuContext, data: Uint32Array, label: string): Promise<GPUBuffer> {
  const buffer = await createBufferChecked(ctx, {
    label,
    size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
    usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
  });
  ctx.device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/**
 * Copies `target.byteLength` bytes of `source` from `sourceOffset` into `target`: a copy into a
 * `MAP_READ` staging buffer, `mapAsync`, a copy out, `unmap`. Work submitted earlier on the queue
 * finishes first. `source` needs `COPY_SRC` usage and room for the byte count rounded up to 4;
 * `sourceOffset` must be a multiple of 4. `target` may be a view into a larger array.
 *
 * @throws GpuDeviceLostError when the device is lost before or while mapping.
 */
export async function readback<T extends ArrayBufferView>(
  ctx: GpuContext,
  source: GPUBuffer,
  target: T,
  sourceOffset = 0,
): Promise<T> {
  if (target.byteLength === 0) return target;
  const size = alignBufferSize(target.byteLength);
  const staging = await createBufferChecked(ctx, {
    label: `${source.label || 'buffer'} readback`,
    size,
    usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
  });
  try {
    const encoder = ctx.device.createCommandEncoder();
    encoder.copyBufferToBuffer(source, sourceOffset, staging, 0, size);
    ctx.device.queue.submit([encoder.finish()]);
    try {
      await staging.mapAsync(MapMode.READ);
    } catch (cause) {
      ctx.assertUsable();
      throw cause;
    }
    const mapped = new Uint8Array(staging.getMappedRange(), 0, target.byteLength);
    new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(mapped);
    staging.unmap();
    return target;
  } finally {
    staging.destroy();
  }
}

/** A byte range of a GPU buffer to bring back (offset and size multiples of 4). */
export interface ReadbackPart {
  buffer: GPUBuffer;
  offset: number;
  bytes: number;
}

/**
 * Records copies of `parts` into one staging buffer at the end of `encoder` (the caller's, so
 * they run after its work), and returns `read`, which the caller awaits after submitting the
 * encoder: one mapping for every part instead of a submission and a mapping each (each mapping
 * waits for the queue; a few small results then cost one wait, not several).
 */
export async function stageReadback(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  parts: ReadbackPart[],
  label: string,
): Promise<{ read: () => Promise<Uint8Array[]> }> {
  const starts: number[] = [];
  let size = 0;
  for (const part of parts) {
    starts.push(size);
    size += alignBufferSize(part.bytes);
  }
  const staging = await createBufferChecked(ctx, {
    label: `${label} readback`,
    size: Math.max(4, size),
    usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
  });
  parts.forEach((part, k) => {
    if (part.bytes > 0) encoder.copyBufferToBuffer(part.buffer, part.offset, staging, starts[k], part.bytes);
  });
  const read = async (): Promise<Uint8Array[]> => {
    try {
      try {
        await staging.mapAsync(MapMode.READ);
      } catch (cause) {
        ctx.assertUsable();
        throw cause;
      }
      const mapped = new Uint8Array(staging.getMappedRange());
      const out = parts.map((part, k) => mapped.slice(starts[k], starts[k] + part.bytes));
      staging.unmap();
      return out;
    } finally {
      staging.destroy();
    }
  };
  return { read };
}
