import { createBufferChecked } from './buffers.js';
import type { GpuContext } from './gpu-context.js';

/** Options of {@link BufferPool}. */
export interface BufferPoolOptions {
  /**
   * Most bytes kept in released (free) buffers; releasing past it destroys the buffers released
   * longest ago. Default 256 MiB. 0 keeps nothing (every release destroys).
   */
  maxFreeBytes?: number;
}

/** What a {@link BufferPool} holds and has done. */
export interface BufferPoolStats {
  /** Buffers created by {@link BufferPool.acquire}. */
  created: number;
  /** Acquisitions served by a released buffer. */
  reused: number;
  inUseBuffers: number;
  inUseBytes: number;
  freeBuffers: number;
  freeBytes: number;
}

interface Entry {
  key: string;
  size: number;
}

/**
 * Reuses GPU buffers between kernels: {@link acquire} returns a released buffer of the same
 * usage and size class (the byte count rounded up to a power of two, at least 16) when there is
 * one, otherwise creates one; {@link release} hands it back. A size whose power of two would
 * pass the device's `maxBufferSize` is its own class (rounded up to 4). Released buffers are
 * kept up to `maxFreeBytes`.
 *
 * A pooled buffer is at least as large as asked, and its contents are what its last user left
 * (not zeroed): bind exact ranges, clear what must start at zero. Releasing a buffer whose GPU
 * work is still queued is safe (the queue runs in order); a buffer still mapped is unmapped.
 */
export class BufferPool {
  private readonly ctx: GpuContext;
  private readonly maxFreeBytes: number;
  private readonly free = new Map<string, GPUBuffer[]>();
  /** Free buffers in release order, oldest first, for eviction. */
  private readonly freeOrder: GPUBuffer[] = [];
  private readonly owned = new Map<GPUBuffer, Entry>();
  private readonly inUse = new Set<GPUBuffer>();
  private counts = { created: 0, reused: 0, freeBytes: 0 };
  private destroyed = false;

  constructor(ctx: GpuContext, options: BufferPoolOptions = {}) {
    this.ctx = ctx;
    this.maxFreeBytes = options.maxFreeBytes ?? 256 * 1024 * 1024;
    if (!(this.maxFreeBytes >= 0)) throw new RangeError(`maxFreeBytes ${options.maxFreeBytes} is negative`);
  }

  /**
   * The byte size of the class `bytes` falls in: the next power of two ≥ max(bytes, 16), or
   * `bytes` rounded up to 4 when that power of two would exceed `maxBufferSize`.
   */
  static sizeClass(bytes: number, maxBufferSize = Number.POSITIVE_INFINITY): number {
    if (!(bytes >= 0) || !Number.isFinite(bytes)) throw new RangeError(`${bytes} is not a byte count`);
    const power = 2 ** Math.ceil(Math.log2(Math.max(16, bytes)));
    return power <= maxBufferSize ? power : Math.ceil(bytes / 4) * 4;
  }

  /**
   * A buffer of at least `bytes` bytes with exactly `usage` (e.g. `BufferUsage.STORAGE |
   * BufferUsage.COPY_SRC`), labelled `label` (a reused buffer is relabelled).
   *
   * @throws GpuOutOfMemoryError, GpuValidationError as {@link createBufferChecked}; RangeError
   *   for a bad byte count or after {@link destroy}.
   */
  async acquire(bytes: number, usage: number, label: string): Promise<GPUBuffer> {
    this.assertOpen();
    const size = BufferPool.sizeClass(bytes, this.ctx.limits.maxBufferSize);
    const key = `${usage}:${size}`;
    const reusable = this.free.get(key)?.pop();
    if (reusable) {
      this.freeOrder.splice(this.freeOrder.indexOf(reusable), 1);
      this.counts.freeBytes -= size;
      this.counts.reused++;
      reusable.label = label;
      this.inUse.add(reusable);
      return reusable;
    }
    const buffer = await createBufferChecked(this.ctx, { label, size, usage });
    if (this.destroyed) {
      // the pool was destroyed while the buffer was being made
      buffer.destroy();
      throw new RangeError('BufferPool: destroyed while acquiring');
    }
    this.counts.created++;
    this.owned.set(buffer, { key, size });
    this.inUse.add(buffer);
    return buffer;
  }

  /**
   * Hands `buffer` back for reuse (or destroys it when keeping it would pass `maxFreeBytes`,
   * after evicting older free buffers first).
   *
   * @throws RangeError for a buffer this pool did not hand out, or one already released.
   */
  release(buffer: GPUBuffer): void {
    this.assertOpen();
    const entry = this.owned.get(buffer);
    if (!entry) throw new RangeError(`BufferPool: ${buffer.label || 'buffer'} does not come from this pool`);
    if (!this.inUse.delete(buffer))
      throw new RangeError(`BufferPool: ${buffer.label || 'buffer'} released twice`);
    if (buffer.mapState !== 'unmapped') buffer.unmap();
    if (entry.size > this.maxFreeBytes) {
      this.drop(buffer);
      return;
    }
    while (this.counts.freeBytes + entry.size > this.maxFreeBytes) {
      const oldest = this.freeOrder.shift()!;
      const old = this.owned.get(oldest)!;
      const list = this.free.get(old.key)!;
      list.splice(list.indexOf(oldest), 1);
      this.counts.freeBytes -= old.size;
      this.drop(oldest);
    }
    const list = this.free.get(entry.key);
    if (list) list.push(buffer);
    else this.free.set(entry.key, [buffer]);
    this.freeOrder.push(buffer);
    this.counts.freeBytes += entry.size;
  }

  /** Current holdings and counters. */
  get stats(): BufferPoolStats {
    let inUseBytes = 0;
    for (const buffer of this.inUse) inUseBytes += this.owned.get(buffer)!.size;
    return {
      created: this.counts.created,
      reused: this.counts.reused,
      inUseBuffers: this.inUse.size,
      inUseBytes,
      freeBuffers: this.freeOrder.length,
      freeBytes: this.counts.freeBytes,
    };
  }

  /** Destroys every buffer the pool made, in use or free; the pool cannot be used afterwards. */
  destroy(): void {
    this.destroyed = true;
    for (const buffer of this.owned.keys()) buffer.destroy();
    this.owned.clear();
    this.inUse.clear();
    this.free.clear();
    this.freeOrder.length = 0;
    this.counts.freeBytes = 0;
  }

  private drop(buffer: GPUBuffer): void {
    this.owned.delete(buffer);
    buffer.destroy();
  }

  private assertOpen(): void {
    if (this.destroyed) throw new RangeError('BufferPool: used after destroy()');
    this.ctx.assertUsable();
  }
}
