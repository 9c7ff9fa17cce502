import { countScatter } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { encodeHistogram } from '../src/primitives/histogram/index.js';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { seededWords } from './scan-reference.js';

const SIZES = [0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 100003];

/** Seeded keys below `range`, skewed: half of them in the lowest eighth of the range. */
function randomKeys(n: number, range: number, seed: number): Uint32Array {
  const next = seededWords(seed);
  const keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = next();
    keys[i] = r & 1 ? next() % Math.max(1, range >>> 3) : next() % range;
  }
  return keys;
}

function cpuCounts(keys: Uint32Array, bins: number): Uint32Array {
  const counts = new Uint32Array(bins);
  for (const k of keys) if (k < bins) counts[k]++;
  return counts;
}

async function gpuHistogram(
  keys: Uint32Array,
  bins: number,
  options: { globalAtomics?: boolean; keysOffset?: number; count?: number } = {},
): Promise<Uint32Array> {
  const ctx = await requireGpu();
  const keyBuffer = await uploadStorage(ctx, keys, 'keys');
  const counts = await uploadStorage(
    ctx,
    new Uint32Array(bins).fill(12345),
    'counts',
    BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
  );
  const encoder = ctx.device.createCommandEncoder();
  await encodeHistogram(ctx, encoder, {
    keys: keyBuffer,
    count: options.count ?? keys.length,
    keysOffset: options.keysOffset,
    bins,
    countsOut: counts,
    globalAtomics: options.globalAtomics,
  });
  ctx.device.queue.submit([encoder.finish()]);
  const result = await readback(ctx, counts, new Uint32Array(bins));
  keyBuffer.destroy();
  counts.destroy();
  return result;
}

describe.each([
  ['private histograms', false],
  ['global atomics', true],
])('encodeHistogram, %s', (_label, globalAtomics) => {
  test.each(SIZES)('%i keys, bins 1, 7, 256, 4096: the CPU counts (keys ≥ bins ignored)', async (n) => {
    for (const bins of [1, 7, 256, 4096]) {
      const keys = randomKeys(n, bins + 3, n + bins);
      expect(await gpuHistogram(keys, bins, { globalAtomics })).toEqual(cpuCounts(keys, bins));
    }
  });
});

test('many bins use global atomics; an unaligned keys range is counted alone', async () => {
  const keys = randomKeys(100003, 70000, 1);
  expect(await gpuHistogram(keys, 65536)).toEqual(cpuCounts(keys, 65536));
  const part = await gpuHistogram(keys, 100, { keysOffset: 77, count: 5000 });
  expect(part).toEqual(cpuCounts(keys.subarray(77, 5077), 100));
});

/** Stable counting sort on the CPU: indices grouped by key, increasing within a key. */
function cpuCountScatter(keys: Uint32Array, bins: number): { offsets: number[]; order: number[] } {
  const counts = cpuCounts(keys, bins);
  const offsets = [0];
  for (let b = 0; b < bins; b++) offsets.push(offsets[b] + counts[b]);
  const next = offsets.slice(0, bins);
  const order = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) order[next[keys[i]]++] = i;
  return { offsets, order };
}

describe('countScatter', () => {
  test.each(SIZES)('%i keys, bins 1, 5, 300: offsets and stable order equal the CPU', async (n) => {
    const ctx = await requireGpu();
    for (const bins of [1, 5, 300]) {
      const keys = randomKeys(n, bins, 2 * n + bins);
      const got = await countScatter(ctx, keys, bins);
      const expected = cpuCountScatter(keys, bins);
      expect([...got.offsets]).toEqual(expected.offsets);
      expect([...got.order]).toEqual(expected.order);
    }
  });

  test('hand-computed, and keys out of range rejected', async () => {
    const ctx = await requireGpu();
    const got = await countScatter(ctx, new Uint32Array([2, 0, 2, 1, 0, 2]), 4);
    expect([...got.offsets]).toEqual([0, 2, 3, 6, 6]);
    expect([...got.order]).toEqual([1, 4, 3, 0, 2, 5]);
    await expect(countScatter(ctx, new Uint32Array([0, 4]), 4)).rejects.toThrow(RangeError);
  });
});
