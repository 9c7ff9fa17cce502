import { radixSort } from '@geoframe/gpu';
import { mulberry32 } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import { encodeRadixSort } from '../src/primitives/sort/radix-sort.js';
import { planDigitPasses } from '../src/primitives/sort/sort-plan.js';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { gather, stableOrder } from './sort-reference.js';

const SIZES = [0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 100_003];

/** Random u32 keys with 0 and 0xffffffff planted (when there is room). */
function randomKeys(n: number, seed: number, range = 2 ** 32): Uint32Array {
  const rand = mulberry32(seed);
  const keys = Uint32Array.from({ length: n }, () => Math.floor(rand() * range));
  if (n > 2) {
    keys[Math.floor(n / 3)] = 0;
    keys[Math.floor(n / 2)] = range === 2 ** 32 ? 0xffffffff : range - 1;
  }
  return keys;
}

const iota = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);

/** Sorts on the GPU (pairs with values = original index, and keys only) and compares with the CPU. */
async function expectSorted(keys: Uint32Array, keyBits = 32): Promise<void> {
  const ctx = await requireGpu();
  const order = stableOrder(keys, keyBits);
  const pairs = await radixSort(ctx, keys, iota(keys.length), { keyBits });
  expect(pairs.values).toEqual(order);
  expect(pairs.keys).toEqual(gather(keys, order));
  const only = await radixSort(ctx, keys, undefined, { keyBits });
  expect(only.values).toBeUndefined();
  expect(only.keys).toEqual(gather(keys, order));
}

describe('radix sort on the GPU equals a stable CPU sort', () => {
  test.each(SIZES)('%i random keys (full range, with 0 and 0xffffffff)', async (n) => {
    await expectSorted(randomKeys(n, n + 1));
  });

  test.each(SIZES.filter((n) => n <= 4097))('%i keys with many ties (stability)', async (n) => {
    await expectSorted(randomKeys(n, 7 * n + 3, 5));
  });

  test('ties spread over many tiles and all digits (1e5+3 keys, 300 distinct values)', async () => {
    const rand = mulberry32(11);
    const values = randomKeys(300, 12);
    await expectSorted(Uint32Array.from({ length: 100_003 }, () => values[Math.floor(rand() * 300)]));
  });

  test.each([257, 4097])('%i all-equal, sorted and reversed keys', async (n) => {
    await expectSorted(new Uint32Array(n).fill(0xdeadbeef));
    await expectSorted(new Uint32Array(n));
    await expectSorted(new Uint32Array(n).fill(0xffffffff));
    const sorted = Uint32Array.from(stableOrder(randomKeys(n, 5)), (i, k) => k * 1000 + (i & 1));
    await expectSorted(sorted);
    await expectSorted(sorted.slice().reverse());
  });

  test.each([4097, 100_003])('keyBits 16: %i keys, high bits ignored but kept', async (n) => {
    // random high halves: ordering must use only the low 16 bits, stably
    await expectSorted(randomKeys(n, 99 + n), 16);
    await expectSorted(randomKeys(n, 3 + n, 1 << 16), 16);
  });

  test('keyBits 1, 8, 12, 24 and 31 (odd bit counts, 0-bit pass)', async () => {
    for (const bits of [1, 8, 12, 24, 31]) await expectSorted(randomKeys(4097, bits), bits);
  });

  test('grids split over x and y when one dimension is too small', async () => {
    const ctx = await requireGpu();
    const keys = randomKeys(20_000, 17);
    const out = await radixSort(ctx, keys, iota(keys.length), { maxWorkgroupsPerDimension: 4 });
    const order = stableOrder(keys);
    expect(out.values).toEqual(order);
    expect(out.keys).toEqual(gather(keys, order));
  });

  test('encodeRadixSort sorts a prefix in place; two sorts in one encoder keep their own parameters', async () => {
    const ctx = await requireGpu();
    const a = randomKeys(5000, 21);
    const b = randomKeys(3000, 22, 1000);
    const bufA = await uploadStorage(ctx, a, 'test a', BufferUsage.COPY_SRC);
    const bufB = await uploadStorage(ctx, b, 'test b', BufferUsage.COPY_SRC);
    const valB = await uploadStorage(ctx, iota(3000), 'test b values', BufferUsage.COPY_SRC);
    try {
      const encoder = ctx.device.createCommandEncoder();
      await encodeRadixSort(ctx, encoder, { keys: bufA, count: 4000 }); // the last 1000 stay
      await encodeRadixSort(ctx, encoder, { keys: bufB, values: valB, count: 3000, keyBits: 16 });
      ctx.device.queue.submit([encoder.finish()]);
      const outA = await readback(ctx, bufA, new Uint32Array(5000));
      expect(outA.subarray(0, 4000)).toEqual(gather(a, stableOrder(a.subarray(0, 4000))));
      expect(outA.subarray(4000)).toEqual(a.subarray(4000));
      const order = stableOrder(b, 16);
      expect(await readback(ctx, bufB, new Uint32Array(3000))).toEqual(gather(b, order));
      expect(await readback(ctx, valB, new Uint32Array(3000))).toEqual(order);
    } finally {
      for (const buffer of [bufA, bufB, valB]) buffer.destroy();
    }
  });

  test('bad arguments are RangeErrors', async () => {
    const ctx = await requireGpu();
    await expect(radixSort(ctx, new Uint32Array(3), new Uint32Array(2))).rejects.toThrow(RangeError);
    await expect(radixSort(ctx, new Uint32Array(3), undefined, { keyBits: 0 })).rejects.toThrow(RangeError);
    const small = await uploadStorage(ctx, new Uint32Array(4), 'small');
    try {
      const encoder = ctx.device.createCommandEncoder();
      await expect(encodeRadixSort(ctx, encoder, { keys: small, count: 5 })).rejects.toThrow(RangeError);
    } finally {
      small.destroy();
    }
  });
});

describe('digit pass plan', () => {
  it('uses an even number of passes of at most 8 bits covering exactly keyBits', () => {
    expect(planDigitPasses(32)).toEqual([0, 8, 16, 24].map((shift) => ({ shift, bits: 8 })));
    expect(planDigitPasses(16)).toEqual([
      { shift: 0, bits: 8 },
      { shift: 8, bits: 8 },
    ]);
    expect(planDigitPasses(1)).toEqual([
      { shift: 0, bits: 1 },
      { shift: 1, bits: 0 },
    ]);
    for (let bits = 1; bits <= 32; bits++) {
      const plan = planDigitPasses(bits);
      expect(plan.length % 2).toBe(0);
      expect(plan.reduce((s, p) => s + p.bits, 0)).toBe(bits);
      expect(Math.max(...plan.map((p) => p.bits))).toBeLessThanOrEqual(8);
    }
    expect(() => planDigitPasses(33)).toThrow(RangeError);
    expect(() => planDigitPasses(2.5)).toThrow(RangeError);
  });
});
