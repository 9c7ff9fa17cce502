import { BufferPool, BufferUsage, readback, uploadStorage } from '@geoframe/gpu';
import { test as cpuTest, describe, expect } from 'vitest';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

const STORAGE = BufferUsage.STORAGE;
const STORAGE_SRC = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

describe('BufferPool', () => {
  cpuTest('size classes: powers of two from 16, exact past the device maximum', () => {
    expect([0, 1, 16, 17, 1000, 1024, 1025].map((b) => BufferPool.sizeClass(b))).toEqual([
      16, 16, 16, 32, 1024, 1024, 2048,
    ]);
    expect(BufferPool.sizeClass(3000, 2048)).toBe(3000);
    expect(BufferPool.sizeClass(3001, 4096)).toBe(4096);
    expect(BufferPool.sizeClass(3001, 3500)).toBe(3004);
    expect(() => BufferPool.sizeClass(-1)).toThrow(RangeError);
    expect(() => BufferPool.sizeClass(Number.NaN)).toThrow(RangeError);
  });

  test('a released buffer is reused for the same usage and size class only', async () => {
    const ctx = await requireGpu();
    const pool = new BufferPool(ctx);
    try {
      const a = await pool.acquire(1000, STORAGE, 'a');
      expect(a.size).toBe(1024);
      expect(pool.stats).toMatchObject({
        created: 1,
        reused: 0,
        inUseBuffers: 1,
        inUseBytes: 1024,
        freeBytes: 0,
      });
      pool.release(a);
      expect(pool.stats).toMatchObject({ inUseBuffers: 0, freeBuffers: 1, freeBytes: 1024 });
      const other = await pool.acquire(1000, STORAGE_SRC, 'other usage');
      expect(other).not.toBe(a);
      const bigger = await pool.acquire(1025, STORAGE, 'other class');
      expect(bigger).not.toBe(a);
      const again = await pool.acquire(600, STORAGE, 'again');
      expect(again).toBe(a);
      expect(again.label).toBe('again');
      expect(pool.stats).toMatchObject({
        created: 3,
        reused: 1,
        inUseBuffers: 3,
        freeBuffers: 0,
        freeBytes: 0,
      });
    } finally {
      pool.destroy();
    }
  });

  test('reused buffers work (data round trip after reuse)', async () => {
    const ctx = await requireGpu();
    const pool = new BufferPool(ctx);
    try {
      const first = await pool.acquire(64, STORAGE_SRC, 'first');
      pool.release(first);
      const buffer = await pool.acquire(40, STORAGE_SRC, 'second');
      expect(buffer).toBe(first);
      const source = await uploadStorage(
        ctx,
        new Uint32Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        'src',
        BufferUsage.COPY_SRC,
      );
      const encoder = ctx.device.createCommandEncoder();
      encoder.copyBufferToBuffer(source, 0, buffer, 0, 40);
      ctx.device.queue.submit([encoder.finish()]);
      expect([...(await readback(ctx, buffer, new Uint32Array(10)))]).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ]);
      source.destroy();
    } finally {
      pool.destroy();
    }
  });

  test('the cap evicts the oldest free buffers; buffers over the cap are not kept', async () => {
    const ctx = await requireGpu();
    const pool = new BufferPool(ctx, { maxFreeBytes: 3 * 1024 });
    try {
      const bufs = await Promise.all([0, 1, 2, 3].map((i) => pool.acquire(1024, STORAGE, `b${i}`)));
      for (const b of bufs) pool.release(b);
      // the fourth release evicted b0 (released first)
      expect(pool.stats).toMatchObject({ created: 4, freeBuffers: 3, freeBytes: 3 * 1024 });
      const reused = await Promise.all([0, 1, 2].map(() => pool.acquire(1024, STORAGE, 'r')));
      expect(new Set(reused)).toEqual(new Set(bufs.slice(1)));
      expect(pool.stats.created).toBe(4);
      const fresh = await pool.acquire(1024, STORAGE, 'fresh');
      expect(bufs).not.toContain(fresh);
      const huge = await pool.acquire(8 * 1024, STORAGE, 'huge');
      pool.release(huge);
      expect(pool.stats.freeBuffers).toBe(0);
      expect(() => pool.release(huge)).toThrow(/not come from this pool/);
      const none = new BufferPool(ctx, { maxFreeBytes: 0 });
      const b = await none.acquire(4, STORAGE, 'b');
      none.release(b);
      expect(none.stats).toMatchObject({ freeBuffers: 0, created: 1 });
      none.destroy();
    } finally {
      pool.destroy();
    }
  });

  test('misuse: foreign buffers, double release, use after destroy', async () => {
    const ctx = await requireGpu();
    const pool = new BufferPool(ctx);
    const foreign = ctx.device.createBuffer({ size: 16, usage: STORAGE });
    expect(() => pool.release(foreign)).toThrow(/not come from this pool/);
    foreign.destroy();
    const b = await pool.acquire(16, STORAGE, 'b');
    pool.release(b);
    expect(() => pool.release(b)).toThrow(/twice/);
    const held = await pool.acquire(100, STORAGE, 'held');
    pool.destroy();
    expect(pool.stats).toMatchObject({ inUseBuffers: 0, freeBuffers: 0 });
    await expect(pool.acquire(16, STORAGE, 'late')).rejects.toThrow(/destroy/);
    expect(() => pool.release(held)).toThrow(/destroy/);
    expect(() => new BufferPool(ctx, { maxFreeBytes: -1 })).toThrow(RangeError);
  });
});
