import { compactIndices } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { encodeCompactValues } from '../src/primitives/compact/index.js';
import type { ScanOptions } from '../src/primitives/scan/index.js';
import { createStorage, readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { seededWords } from './scan-reference.js';

const SIZES = [0, 1, 2, 255, 256, 257, 4095, 4096, 4097, 100003];

/** Seeded flags: 0 or 1 with probability `p` of 1, plus some non-zero values other than 1. */
function randomFlags(n: number, seed: number, p: number): Uint32Array {
  const next = seededWords(seed);
  const flags = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = next() / 2 ** 32;
    flags[i] = r < p ? (r < p / 8 ? 0xffffffff : 1) : 0;
  }
  return flags;
}

function cpuCompact(flags: Uint32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < flags.length; i++) if (flags[i] !== 0) out.push(i);
  return out;
}

const PATHS: [string, ScanOptions][] = [
  ['reduce-then-scan, subgroups', { variant: 'reduce-then-scan', useSubgroups: true }],
  ['reduce-then-scan, workgroup memory', { variant: 'reduce-then-scan', useSubgroups: false }],
  ['chained scan (vectorized, subgroups)', { variant: 'chained' }],
  ['chained scan, workgroup memory', { variant: 'chained', useSubgroups: false }],
];

describe.each(PATHS)('compactIndices, %s', (_label, scan) => {
  test.each(SIZES)('%i flags at densities 0, 0.01, 0.5, 1: indices in increasing order', async (n) => {
    const ctx = await requireGpu();
    for (const p of [0, 0.01, 0.5, 1]) {
      const flags = randomFlags(n, n + Math.round(p * 100), p);
      expect([...(await compactIndices(ctx, flags, scan))]).toEqual(cpuCompact(flags));
    }
  });
});

test('hand-computed: flags 0/1/other non-zero', async () => {
  const ctx = await requireGpu();
  const flags = new Uint32Array([0, 1, 1, 0, 7, 0, 0, 1]);
  expect([...(await compactIndices(ctx, flags))]).toEqual([1, 2, 4, 7]);
});

test('encodeCompactValues keeps the flagged values in order and writes their count', async () => {
  const ctx = await requireGpu();
  const n = 100003;
  const flags = randomFlags(n, 3, 0.3);
  const values = new Uint32Array(n);
  const next = seededWords(4);
  for (let i = 0; i < n; i++) values[i] = next();
  const valuesBuffer = await uploadStorage(ctx, values, 'values');
  const flagBuffer = await uploadStorage(ctx, flags, 'flags');
  const valuesOut = await createStorage(ctx, n * 4, 'values out', BufferUsage.COPY_SRC);
  const countOut = await createStorage(ctx, 4, 'count', BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
  const encoder = ctx.device.createCommandEncoder();
  await encodeCompactValues(ctx, encoder, {
    values: valuesBuffer,
    flags: flagBuffer,
    count: n,
    valuesOut,
    countOut,
  });
  ctx.device.queue.submit([encoder.finish()]);
  const expected = cpuCompact(flags).map((i) => values[i]);
  const [kept] = await readback(ctx, countOut, new Uint32Array(1));
  expect(kept).toBe(expected.length);
  expect([...(await readback(ctx, valuesOut, new Uint32Array(kept)))]).toEqual(expected);
  for (const b of [valuesBuffer, flagBuffer, valuesOut, countOut]) b.destroy();
});
