import { segmentedReduce, segmentedSort } from '@geoframe/gpu';
import { mulberry32 } from '@geoframe/testing';
import { describe, expect, it } from 'vitest';
import {
  encodeSegmentedSort,
  MAX_TILE_SEGMENT,
  orderedF32Bits,
} from '../src/primitives/sort/segmented-sort.js';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { gather, stableOrder } from './sort-reference.js';

/** Offsets of segments with lengths drawn by `length`, starting at `start`. */
function offsetsOf(lengths: number[], start = 0): Uint32Array {
  const offsets = new Uint32Array(lengths.length + 1);
  offsets[0] = start;
  lengths.forEach((n, s) => {
    offsets[s + 1] = offsets[s] + n;
  });
  return offsets;
}

function randomLengths(segments: number, max: number, seed: number): number[] {
  const rand = mulberry32(seed);
  return Array.from({ length: segments }, () => Math.floor(rand() * (max + 1)));
}

function randomKeys(n: number, seed: number, range = 2 ** 32): Uint32Array {
  const rand = mulberry32(seed);
  return Uint32Array.from({ length: n }, () => Math.floor(rand() * range));
}

/** CPU reference: each segment stably sorted by key, elements outside every segment in place. */
function referenceSegmentedSort(keys: Uint32Array, values: Uint32Array, offsets: Uint32Array) {
  const outKeys = keys.slice();
  const outValues = values.slice();
  for (let s = 0; s + 1 < offsets.length; s++) {
    const [a, b] = [offsets[s], offsets[s + 1]];
    const order = stableOrder(keys.subarray(a, b));
    outKeys.set(gather(keys.subarray(a, b), order), a);
    outValues.set(gather(values.subarray(a, b), order), a);
  }
  return { keys: outKeys, values: outValues };
}

async function expectSegmentedSorted(keys: Uint32Array, offsets: Uint32Array): Promise<void> {
  const ctx = await requireGpu();
  const values = Uint32Array.from(keys, (_, i) => i);
  const out = await segmentedSort(ctx, keys, values, offsets);
  const expected = referenceSegmentedSort(keys, values, offsets);
  expect(out.values).toEqual(expected.values);
  expect(out.keys).toEqual(expected.keys);
}

describe('segmented sort on the GPU equals per-segment stable CPU sorts', () => {
  test('random segment lengths 0..70 (in-workgroup path), full-range keys and many ties', async () => {
    const lengths = randomLengths(3000, 70, 1);
    const offsets = offsetsOf(lengths);
    const n = offsets[lengths.length];
    expect(n).toBeGreaterThan(90_000);
    await expectSegmentedSorted(randomKeys(n, 2), offsets);
    await expectSegmentedSorted(randomKeys(n, 3, 4), offsets);
  });

  test('plus one segment longer than a workgroup tile (global radix path)', async () => {
    const lengths = randomLengths(1500, 70, 4);
    lengths.splice(700, 0, 3 * MAX_TILE_SEGMENT + 17);
    const offsets = offsetsOf(lengths);
    const n = offsets[lengths.length];
    await expectSegmentedSorted(randomKeys(n, 5), offsets);
    await expectSegmentedSorted(randomKeys(n, 6, 3), offsets);
  });

  test('segments up to the tile length (bitonic network inside workgroups)', async () => {
    const lengths = [...randomLengths(40, MAX_TILE_SEGMENT, 7), MAX_TILE_SEGMENT, 1, MAX_TILE_SEGMENT, 0];
    const offsets = offsetsOf(lengths);
    const n = offsets[lengths.length];
    await expectSegmentedSorted(randomKeys(n, 8), offsets);
    await expectSegmentedSorted(randomKeys(n, 9, 7), offsets);
  });

  test('elements before the first and after the last offset stay in place, on both paths', async () => {
    for (const long of [false, true]) {
      const lengths = randomLengths(200, 40, 10);
      if (long) lengths.push(2 * MAX_TILE_SEGMENT);
      const offsets = offsetsOf(lengths, 37);
      const n = offsets[lengths.length] + 55;
      await expectSegmentedSorted(randomKeys(n, 11, 1000), offsets);
    }
  });

  test('small and degenerate inputs: no segments, empty segments, single elements, sorted and reversed', async () => {
    await expectSegmentedSorted(new Uint32Array(0), new Uint32Array([0]));
    await expectSegmentedSorted(Uint32Array.from([3, 1]), new Uint32Array([0]));
    await expectSegmentedSorted(Uint32Array.from([3, 1, 2]), new Uint32Array([0, 0, 3, 3]));
    await expectSegmentedSorted(Uint32Array.from([3, 1, 2]), new Uint32Array([0, 1, 2, 3]));
    const up = Uint32Array.from({ length: 600 }, (_, i) => i);
    const lengths = [0, 3, 64, 6, 200, 32, 295];
    await expectSegmentedSorted(up, offsetsOf(lengths));
    await expectSegmentedSorted(up.slice().reverse(), offsetsOf(lengths));
    await expectSegmentedSorted(Uint32Array.from([0xffffffff, 0, 0xffffffff, 0]), new Uint32Array([0, 4]));
  });

  test('f32 keys through their order-preserving bits: numeric order within segments, stable', async () => {
    const ctx = await requireGpu();
    const offsets = offsetsOf(randomLengths(150, 64, 13));
    const n = offsets[offsets.length - 1];
    const rand = mulberry32(12);
    const floats = Float32Array.from({ length: n }, () => Math.round((rand() - 0.5) * 40) / 4);
    floats.set([-0, 0, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, -1e-40, 1e-40, 0, -0], 100);
    const values = Uint32Array.from(floats, (_, i) => i);
    const out = await segmentedSort(ctx, orderedF32Bits(floats), values, offsets);
    for (let s = 0; s + 1 < offsets.length; s++) {
      const idx = Array.from(values.subarray(offsets[s], offsets[s + 1]));
      // numeric order, -0 before 0, ties by index
      const negZero = (x: number) => (Object.is(x, -0) ? 1 : 0);
      const cmp = (x: number, y: number) => (x !== y ? x - y : negZero(y) - negZero(x));
      idx.sort((a, b) => cmp(floats[a], floats[b]) || a - b);
      expect(Array.from(out.values.subarray(offsets[s], offsets[s + 1]))).toEqual(idx);
    }
  });

  test('encodeSegmentedSort without a length hint takes the global path; with one, the tile path', async () => {
    const ctx = await requireGpu();
    const lengths = randomLengths(500, 20, 14);
    const offsets = offsetsOf(lengths);
    const n = offsets[lengths.length];
    const keys = randomKeys(n, 15, 50);
    const values = Uint32Array.from(keys, (_, i) => i);
    const expected = referenceSegmentedSort(keys, values, offsets);
    for (const maxSegmentLength of [undefined, 20]) {
      const k = await uploadStorage(ctx, keys, 'k', BufferUsage.COPY_SRC);
      const v = await uploadStorage(ctx, values, 'v', BufferUsage.COPY_SRC);
      const o = await uploadStorage(ctx, offsets, 'o');
      try {
        const encoder = ctx.device.createCommandEncoder();
        await encodeSegmentedSort(ctx, encoder, {
          keys: k,
          values: v,
          segmentOffsets: o,
          segments: lengths.length,
          count: n,
          maxSegmentLength,
          maxWorkgroupsPerDimension: 8,
        });
        ctx.device.queue.submit([encoder.finish()]);
        expect(await readback(ctx, k, new Uint32Array(n))).toEqual(expected.keys);
        expect(await readback(ctx, v, new Uint32Array(n))).toEqual(expected.values);
      } finally {
        for (const b of [k, v, o]) b.destroy();
      }
    }
  });

  test('bad offsets are RangeErrors', async () => {
    const ctx = await requireGpu();
    const keys = new Uint32Array(4);
    await expect(segmentedSort(ctx, keys, keys, new Uint32Array([0, 3, 2]))).rejects.toThrow(RangeError);
    await expect(segmentedSort(ctx, keys, keys, new Uint32Array([0, 5]))).rejects.toThrow(RangeError);
    await expect(segmentedSort(ctx, keys, new Uint32Array(3), new Uint32Array([0, 4]))).rejects.toThrow(
      RangeError,
    );
  });
});

describe('segmented reduce on the GPU equals per-segment CPU sums', () => {
  test('random lengths 0..70 plus a long segment, values wrapping past 2^32', async () => {
    const ctx = await requireGpu();
    const lengths = randomLengths(2000, 70, 20);
    lengths.splice(1000, 0, 20_011);
    lengths.push(0, 0);
    for (const [start, tail] of [
      [0, 0],
      [13, 29],
    ]) {
      const offsets = offsetsOf(lengths, start);
      const n = offsets[lengths.length] + tail;
      const values = randomKeys(n, 21 + start);
      const sums = await segmentedReduce(ctx, values, offsets);
      const expected = new Uint32Array(lengths.length);
      for (let s = 0; s < lengths.length; s++) {
        let sum = 0;
        for (let e = offsets[s]; e < offsets[s + 1]; e++) sum = (sum + values[e]) >>> 0;
        expected[s] = sum;
      }
      expect(sums).toEqual(expected);
    }
  });

  test('no segments, all-empty segments, one element', async () => {
    const ctx = await requireGpu();
    expect(await segmentedReduce(ctx, new Uint32Array(5), new Uint32Array([0]))).toEqual(new Uint32Array(0));
    expect(await segmentedReduce(ctx, Uint32Array.from([1, 2]), new Uint32Array([1, 1, 1]))).toEqual(
      new Uint32Array(2),
    );
    expect(await segmentedReduce(ctx, Uint32Array.from([7]), new Uint32Array([0, 1]))).toEqual(
      Uint32Array.from([7]),
    );
  });
});

describe('orderedF32Bits', () => {
  it('orders bits as the numbers', () => {
    const xs = Float32Array.from([
      Number.NEGATIVE_INFINITY,
      -3.5,
      -1e-40,
      -0,
      0,
      1e-40,
      2,
      Number.POSITIVE_INFINITY,
    ]);
    const bits = orderedF32Bits(xs);
    for (let i = 1; i < bits.length; i++) expect(bits[i - 1] < bits[i]).toBe(true);
  });
});
