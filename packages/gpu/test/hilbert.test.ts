import { InvalidGeometryError } from '@geoframe/core';
import { hilbertKeysGpu } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { encodeHilbertKeys } from '../src/primitives/hilbert/hilbert.js';
import { hilbertKeysCpu, hilbertKeysOfGrid } from '../src/primitives/hilbert/hilbert-cpu.js';
import { quantizeHilbertGrid } from '../src/primitives/hilbert/hilbert-grid.js';
import { createStorage, readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { seededRandom } from './random-geometry.js';

const SIZES = [0, 1, 2, 255, 256, 257, 4097, 100003];
const BITS = [16, 32] as const;

type Layout = (random: () => number, i: number) => [number, number];

/** Point layouts: each must give bit-identical keys on both paths. */
const LAYOUTS: Record<string, Layout> = {
  uniform: (r) => [r(), r()],
  'offset 1e7, spread 1': (r) => [1e7 + r(), 1e7 + r()],
  negative: (r) => [-1000 * r() - 1e-3, -r() * 1e-6],
  'wide and thin': (r) => [r() * 1e9 - 5e8, 1 + r() * 1e-9],
  'all equal': () => [3.5, -2.25],
  'zero width': (r) => [42, r() * 10],
  'zero height': (r) => [r() * 10, -7],
  'integer lattice': (_r, i) => [i % 317, Math.floor(i / 317)],
};

function points(layout: Layout, n: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  const xy = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) [xy[2 * i], xy[2 * i + 1]] = layout(random, i);
  return xy;
}

describe.each(BITS)('%i-bit Hilbert keys: GPU equals CPU bit for bit', (bits) => {
  test.each(SIZES)('%i points, every layout', async (n) => {
    const ctx = await requireGpu();
    for (const [name, layout] of Object.entries(LAYOUTS)) {
      const xy = points(layout, n, n + bits);
      const expected = hilbertKeysCpu(xy, { bits });
      const actual = await hilbertKeysGpu(ctx, xy, { bits });
      expect(actual.length, name).toBe((n * bits) / 16);
      expect(actual, name).toEqual(expected);
    }
  });

  test('caller bounds smaller than the points (clamped), chunked, 2D dispatch', async () => {
    const ctx = await requireGpu();
    const xy = points(LAYOUTS.uniform, 70001, 99);
    const options = { bits, bounds: [0.25, 0.25, 0.75, 0.5] as const };
    const expected = hilbertKeysCpu(xy, options);
    // 1000-point chunks, at most 3 workgroups per dimension (so y > 1)
    const gpu = await hilbertKeysGpu(ctx, xy, {
      ...options,
      maxBindingBytes: 1000 * (bits / 4),
      maxWorkgroupsPerDimension: 3,
    });
    expect(gpu).toEqual(expected);
  });

  test('full-range grid cells (every bit pattern of x and y)', async () => {
    const ctx = await requireGpu();
    const random = seededRandom(5);
    const n = 20000;
    const grid = new Uint32Array((n * bits) / 16).map(() => Math.floor(random() * 2 ** 32));
    const gridBuffer = await uploadStorage(ctx, grid, 'test grid');
    const keysBuffer = await createStorage(ctx, grid.byteLength, 'test keys', BufferUsage.COPY_SRC);
    try {
      const encoder = ctx.device.createCommandEncoder();
      await encodeHilbertKeys(ctx, encoder, { bits, count: n, grid: gridBuffer, keys: keysBuffer });
      ctx.device.queue.submit([encoder.finish()]);
      const keys = await readback(ctx, keysBuffer, new Uint32Array(grid.length));
      expect(keys).toEqual(hilbertKeysOfGrid(grid, bits));
    } finally {
      gridBuffer.destroy();
      keysBuffer.destroy();
    }
  });
});

describe('encodeHilbertKeys in a pipeline', () => {
  test('reads and writes at offsets within larger buffers, leaving the rest alone', async () => {
    const ctx = await requireGpu();
    const xy = points(LAYOUTS.uniform, 1000, 17);
    const grid = quantizeHilbertGrid(xy, { bits: 32 });
    const padded = new Uint32Array(64 + grid.length + 64).fill(0xdeadbeef);
    padded.set(grid, 64); // 256 bytes in: the default storage offset alignment
    const gridBuffer = await uploadStorage(ctx, padded, 'test grid');
    const keysBuffer = await uploadStorage(
      ctx,
      new Uint32Array(padded.length).fill(7),
      'test keys',
      BufferUsage.COPY_SRC,
    );
    try {
      const encoder = ctx.device.createCommandEncoder();
      await encodeHilbertKeys(ctx, encoder, {
        bits: 32,
        count: 1000,
        grid: gridBuffer,
        gridOffset: 256,
        keys: keysBuffer,
        keysOffset: 512,
      });
      // an empty pass for count 0 is fine
      await encodeHilbertKeys(ctx, encoder, { bits: 16, count: 0, grid: gridBuffer, keys: keysBuffer });
      ctx.device.queue.submit([encoder.finish()]);
      const out = await readback(ctx, keysBuffer, new Uint32Array(padded.length));
      expect(out.subarray(128, 128 + 2000)).toEqual(hilbertKeysCpu(xy, { bits: 32 }));
      expect(out.subarray(0, 128).every((v) => v === 7)).toBe(true);
      expect(out.subarray(2128).every((v) => v === 7)).toBe(true);
    } finally {
      gridBuffer.destroy();
      keysBuffer.destroy();
    }
  });

  test('counts over one binding are a RangeError; bad bits too', async () => {
    const ctx = await requireGpu();
    const buffer = await createStorage(ctx, 16, 'test');
    try {
      const encoder = ctx.device.createCommandEncoder();
      const count = ctx.limits.maxStorageBufferBindingSize / 4 + 1;
      await expect(
        encodeHilbertKeys(ctx, encoder, { bits: 16, count, grid: buffer, keys: buffer }),
      ).rejects.toThrow(RangeError);
      await expect(
        encodeHilbertKeys(ctx, encoder, { bits: 24 as 16, count: 1, grid: buffer, keys: buffer }),
      ).rejects.toThrow(/16 or 32/);
    } finally {
      buffer.destroy();
    }
  });

  test('NaN is an error naming the point before any GPU work', async () => {
    const ctx = await requireGpu();
    const xy = points(LAYOUTS.uniform, 300, 1);
    xy[2 * 257] = Number.NaN;
    await expect(hilbertKeysGpu(ctx, xy, { bits: 32 })).rejects.toThrow(InvalidGeometryError);
    await expect(hilbertKeysGpu(ctx, xy, { bits: 16 })).rejects.toThrow(/point 257/);
  });
});
