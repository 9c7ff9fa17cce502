import {
  alignBufferSize,
  createBufferChecked,
  type ReadbackPart,
  stageReadback,
} from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage, MapMode } from '../runtime/usage.js';

/**
 * A few map-read staging buffers made once per run and reused by each submission's read-back of
 * a few scalars. A fresh staging buffer per submission (`stageReadback`) costs a buffer and two
 * awaited error scopes each time, on the host's critical path between recording and submitting:
 * once per L-BFGS evaluation. `count` buffers allow that many read-backs in flight (Lloyd
 * records the next batch before reading the last: 2); a request that is larger, or finds every
 * buffer in flight, falls back to `stageReadback`.
 */
export class StagingPool {
  private readonly ctx: GpuContext;
  private readonly free: GPUBuffer[];
  private readonly all: GPUBuffer[];
  private readonly size: number;

  private constructor(ctx: GpuContext, buffers: GPUBuffer[], size: number) {
    this.ctx = ctx;
    this.all = buffers;
    this.free = [...buffers];
    this.size = size;
  }

  /** `count` staging buffers of `size` bytes. @throws GpuOutOfMemoryError. */
  static async create(ctx: GpuContext, count: number, size: number): Promise<StagingPool> {
    const buffers: GPUBuffer[] = [];
    try {
      for (let k = 0; k < count; k++) {
        buffers.push(
          await createBufferChecked(ctx, {
            label: 'cvt scalars readback',
            size: alignBufferSize(Math.max(4, size)),
            usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
          }),
        );
      }
    } catch (error) {
      for (const b of buffers) b.destroy();
      throw error;
    }
    return new StagingPool(ctx, buffers, size);
  }

  /** Records the copies of `parts` into `encoder`; `read` maps and returns them after submission. */
  async stage(
    encoder: GPUCommandEncoder,
    parts: ReadbackPart[],
  ): Promise<{ read: () => Promise<Uint8Array[]> }> {
    const starts: number[] = [];
    let size = 0;
    for (const part of parts) {
      starts.push(size);
      size += alignBufferSize(part.bytes);
    }
    const staging = size <= this.size ? this.free.pop() : undefined;
    if (!staging) return stageReadback(this.ctx, encoder, parts, 'cvt scalars');
    parts.forEach((part, k) => {
      if (part.bytes > 0)
        encoder.copyBufferToBuffer(part.buffer, part.offset, staging, starts[k], part.bytes);
    });
    const read = async (): Promise<Uint8Array[]> => {
      try {
        await staging.mapAsync(MapMode.READ, 0, Math.max(4, size));
      } catch (cause) {
        this.ctx.assertUsable();
        throw cause; // the buffer stays out of the pool
      }
      const mapped = new Uint8Array(staging.getMappedRange(0, Math.max(4, size)));
      const out = parts.map((part, k) => mapped.slice(starts[k], starts[k] + part.bytes));
      staging.unmap();
      this.free.push(staging);
      return out;
    };
    return { read };
  }

  destroy(): void {
    for (const b of this.all) b.destroy();
  }
}
