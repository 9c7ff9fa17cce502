import { scanU32 } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { encodeScanWith } from '../src/primitives/scan/encode-scan.js';
import { encodeScan, type ScanOptions } from '../src/primitives/scan/index.js';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { cpuScan, randomWords } from './scan-reference.js';

const SIZES = [0, 1, 2, 255, 256, 257, 2047, 2048, 2049, 4095, 4096, 4097, 100003];

const PATHS: [string, ScanOptions][] = [
  ['subgroups', { variant: 'reduce-then-scan', useSubgroups: true }],
  ['workgroup memory', { variant: 'reduce-then-scan', useSubgroups: false }],
];

describe.each(PATHS)('reduce-then-scan, %s', (_label, options) => {
  test.each(SIZES)('%i elements, exclusive and inclusive, against the CPU', async (n) => {
    const ctx = await requireGpu();
    const values = randomWords(n, 7 + n);
    for (const inclusive of [false, true]) {
      const got = await scanU32(ctx, values, { ...options, inclusive });
      expect(got).toEqual(cpuScan(values, inclusive));
    }
  });
});

test('the subgroup path is really available here (so both paths are exercised)', async () => {
  const ctx = await requireGpu();
  expect(ctx.features.subgroups).toBe(true);
});

test('hand-computed: wrapping sums of 0 and 0xffffffff', async () => {
  const ctx = await requireGpu();
  const values = new Uint32Array([0xffffffff, 1, 0, 0xffffffff, 0xffffffff, 3]);
  expect([...(await scanU32(ctx, values))]).toEqual([0, 0xffffffff, 0, 0, 0xffffffff, 0xfffffffe]);
  expect([...(await scanU32(ctx, values, { inclusive: true }))]).toEqual([
    0xffffffff, 0, 0, 0xffffffff, 0xfffffffe, 1,
  ]);
});

/** Scans `values` from `inputOffset` of one buffer into `outputOffset` of another; returns the whole output buffer. */
async function scanBetween(
  values: Uint32Array,
  n: number,
  inputOffset: number,
  outputOffset: number,
  options: ScanOptions & { inclusive?: boolean },
): Promise<Uint32Array> {
  const ctx = await requireGpu();
  const input = await uploadStorage(ctx, values, 'scan test input', BufferUsage.COPY_SRC);
  const sentinel = new Uint32Array(outputOffset + n + 5).fill(0xabcdef);
  const output = await uploadStorage(ctx, sentinel, 'scan test output', BufferUsage.COPY_SRC);
  const encoder = ctx.device.createCommandEncoder();
  await encodeScan(ctx, encoder, { ...options, input, output, count: n, inputOffset, outputOffset });
  ctx.device.queue.submit([encoder.finish()]);
  const result = await readback(ctx, output, new Uint32Array(sentinel.length));
  input.destroy();
  output.destroy();
  return result;
}

describe('ranges, segments and grids', () => {
  test.each(PATHS)(
    'unaligned offsets into another buffer leave the rest untouched (%s)',
    async (_l, options) => {
      const values = randomWords(5000, 11);
      for (const [n, inOff, outOff] of [
        [4097, 3, 61],
        [1, 4999, 0],
        [257, 64, 1],
      ]) {
        const out = await scanBetween(values, n, inOff, outOff, { ...options, inclusive: n === 257 });
        const expected = cpuScan(values.subarray(inOff, inOff + n), n === 257);
        expect(out.subarray(outOff, outOff + n)).toEqual(expected);
        expect(out.subarray(0, outOff).every((v) => v === 0xabcdef)).toBe(true);
        expect(out.subarray(outOff + n).every((v) => v === 0xabcdef)).toBe(true);
      }
    },
  );

  test('segments smaller than the data carry the running sum across (exclusive and inclusive, in place)', async () => {
    const ctx = await requireGpu();
    const values = randomWords(100003, 5);
    // 3 tiles per segment: 100003 elements in 17 segments, three levels of block sums inside
    for (const inclusive of [false, true]) {
      const got = await scanU32(ctx, values, {
        inclusive,
        maxBindingBytes: 3 * 2048 * 4 + 256,
        variant: 'reduce-then-scan',
      });
      expect(got).toEqual(cpuScan(values, inclusive));
    }
    const out = await scanBetween(values, 90001, 7, 13, { maxBindingBytes: 2048 * 4 + 256 });
    expect(out.subarray(13, 13 + 90001)).toEqual(cpuScan(values.subarray(7, 7 + 90001), false));
  });

  test('grids split over x and y give the same result', async () => {
    const ctx = await requireGpu();
    const values = randomWords(100003, 9);
    // 49 tiles at 10 workgroups per dimension: a 10 × 5 grid with one surplus workgroup
    for (const useSubgroups of [true, false]) {
      const got = await scanU32(ctx, values, { maxWorkgroupsPerDimension: 10, useSubgroups });
      expect(got).toEqual(cpuScan(values, false));
    }
  });

  test('several scans recorded into one encoder (shared scratch) are all correct', async () => {
    const ctx = await requireGpu();
    const sizes = [100003, 5000, 3];
    const arrays = sizes.map((n, k) => randomWords(n, 100 + k));
    const buffers = await Promise.all(
      arrays.map((a) => uploadStorage(ctx, a, 'multi', BufferUsage.COPY_SRC)),
    );
    const encoder = ctx.device.createCommandEncoder();
    for (let k = 0; k < sizes.length; k++) {
      await encodeScan(ctx, encoder, {
        input: buffers[k],
        output: buffers[k],
        count: sizes[k],
        inclusive: k === 1,
      });
    }
    ctx.device.queue.submit([encoder.finish()]);
    for (let k = 0; k < sizes.length; k++) {
      expect(await readback(ctx, buffers[k], new Uint32Array(sizes[k]))).toEqual(cpuScan(arrays[k], k === 1));
      buffers[k].destroy();
    }
  });

  test('bad arguments are RangeErrors; count 0 records nothing', async () => {
    const ctx = await requireGpu();
    const buffer = await uploadStorage(ctx, new Uint32Array(8), 'args', BufferUsage.COPY_SRC);
    const encoder = ctx.device.createCommandEncoder();
    await expect(encodeScan(ctx, encoder, { input: buffer, output: buffer, count: 9 })).rejects.toThrow(
      RangeError,
    );
    await expect(encodeScan(ctx, encoder, { input: buffer, output: buffer, count: -1 })).rejects.toThrow(
      RangeError,
    );
    await expect(
      encodeScan(ctx, encoder, { input: buffer, output: buffer, count: 2, inputOffset: 0, outputOffset: 4 }),
    ).rejects.toThrow(RangeError);
    await encodeScan(ctx, encoder, { input: buffer, output: buffer, count: 0 });
    ctx.device.queue.submit([encoder.finish()]);
    buffer.destroy();
  });
});

const CHAINED: [string, ScanOptions][] = [
  ['subgroups', { variant: 'chained', useSubgroups: true }],
  ['workgroup memory', { variant: 'chained', useSubgroups: false }],
  ['every wait falls back to reducing the predecessor', { variant: 'chained', lookbackSpins: 0 }],
];

describe.each(CHAINED)('chained scan, %s', (_label, options) => {
  test.each(SIZES)('%i elements, exclusive and inclusive, in place, against the CPU', async (n) => {
    const ctx = await requireGpu();
    const values = randomWords(n, 31 + n);
    for (const inclusive of [false, true]) {
      expect(await scanU32(ctx, values, { ...options, inclusive })).toEqual(cpuScan(values, inclusive));
    }
  });

  test('unaligned offsets into another buffer, segments and split grids', async () => {
    const ctx = await requireGpu();
    const values = randomWords(100003, 77);
    const out = await scanBetween(values, 90001, 7, 13, { ...options, inclusive: true });
    expect(out.subarray(13, 13 + 90001)).toEqual(cpuScan(values.subarray(7, 7 + 90001), true));
    expect(out[12]).toBe(0xabcdef);
    expect(out[13 + 90001]).toBe(0xabcdef);
    const segmented = await scanU32(ctx, values, { ...options, maxBindingBytes: 3 * 2048 * 4 + 256 });
    expect(segmented).toEqual(cpuScan(values, false));
    const split = await scanU32(ctx, values, { ...options, maxWorkgroupsPerDimension: 10 });
    expect(split).toEqual(cpuScan(values, false));
  });

  test('aligned offsets (vec4 loads and stores) with a partial last vec4 leave the rest untouched', async () => {
    const values = randomWords(100003, 78);
    for (const [n, inOff, outOff] of [
      [90001, 8, 4],
      [90002, 4, 3],
      [90003, 5, 64],
      [3, 0, 0],
      [4101, 0, 0],
    ]) {
      const out = await scanBetween(values, n, inOff, outOff, { ...options, inclusive: n % 2 === 0 });
      expect(out.subarray(outOff, outOff + n)).toEqual(
        cpuScan(values.subarray(inOff, inOff + n), n % 2 === 0),
      );
      expect(Array.from(out.subarray(0, outOff)).every((v) => v === 0xabcdef)).toBe(true);
      expect(Array.from(out.subarray(outOff + n)).every((v) => v === 0xabcdef)).toBe(true);
    }
  });
});

describe('chained scan tile sizes', () => {
  test.each([1, 2, 8])(
    '%i vec4 per thread, with and without look-back fallback',
    async (vectorsPerThread) => {
      const ctx = await requireGpu();
      const values = randomWords(70001, 5 + vectorsPerThread);
      const input = await uploadStorage(ctx, values, 'scan test input');
      const output = await uploadStorage(
        ctx,
        new Uint32Array(values.length),
        'scan test output',
        BufferUsage.COPY_SRC,
      );
      for (const lookbackSpins of [0, 64]) {
        const encoder = ctx.device.createCommandEncoder();
        await encodeScanWith(
          ctx,
          encoder,
          { input, output, count: values.length, variant: 'chained', lookbackSpins },
          { vectorsPerThread },
        );
        ctx.device.queue.submit([encoder.finish()]);
        expect(await readback(ctx, output, new Uint32Array(values.length))).toEqual(cpuScan(values, false));
      }
      input.destroy();
      output.destroy();
    },
  );
});

describe('chained scan with no forward progress between workgroups', () => {
  // every published state ignored: as if no predecessor were ever scheduled, each tile reduces
  // all its predecessors through the fallback; the result must not change
  test.each([
    ['subgroups (vec4 tiles)', { useSubgroups: true }],
    ['workgroup memory', { useSubgroups: false }],
  ] as [string, ScanOptions][])('%s: exact against the CPU', async (_label, options) => {
    const ctx = await requireGpu();
    for (const [n, seed] of [
      [1, 1],
      [4097, 2],
      [30_721, 3],
    ]) {
      const values = randomWords(n, 900 + seed);
      const input = await uploadStorage(ctx, values, 'scan test input');
      const output = await uploadStorage(ctx, new Uint32Array(n), 'scan test output', BufferUsage.COPY_SRC);
      for (const inclusive of [false, true]) {
        const encoder = ctx.device.createCommandEncoder();
        await encodeScanWith(
          ctx,
          encoder,
          { ...options, input, output, count: n, inclusive, variant: 'chained', lookbackSpins: 0 },
          { ignorePublished: true },
        );
        ctx.device.queue.submit([encoder.finish()]);
        expect(await readback(ctx, output, new Uint32Array(n))).toEqual(cpuScan(values, inclusive));
      }
      input.destroy();
      output.destroy();
    }
  });
});
