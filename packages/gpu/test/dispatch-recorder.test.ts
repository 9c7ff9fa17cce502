import { describe, expect } from 'vitest';
import { type PlannedDispatch, planned, recordDispatches } from '../src/primitives/dispatch-recorder.js';
import { readback } from '../src/runtime/buffers.js';
import { defineKernel } from '../src/runtime/pipeline-cache.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';

// out[params.slot] = params.value: every dispatch writes its own parameters where they can be checked
const WRITE_PARAM = defineKernel({
  name: 'test/write-param',
  bindings: { out: 1 },
  source: () => `struct Params { slot: u32, value: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() { out[params.slot] = params.value; }`,
});

function writes(out: GPUBuffer, slots: number[], value: (slot: number) => number): PlannedDispatch[] {
  return slots.map((slot) =>
    planned(WRITE_PARAM, { params: [slot, value(slot)], buffers: { out }, workgroups: 1 }),
  );
}

describe('recordDispatches', () => {
  test('keeps every dispatch its own parameters across calls, encoders and full parameter buffers', async () => {
    const ctx = await requireGpu();
    const slots = 300;
    const out = ctx.device.createBuffer({
      size: 4 * slots,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    const other = ctx.device.createBuffer({
      size: 4 * slots,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    // two encoders recorded in turn before either is submitted; calls of 1 to 97 dispatches, so
    // an encoder's parameter buffer fills (64 blocks) and another is started, also within a call
    const a = ctx.device.createCommandEncoder();
    const b = ctx.device.createCommandEncoder();
    const sizes = [1, 40, 30, 97, 2, 70, 60];
    let next = 0;
    for (const size of sizes) {
      const range = Array.from({ length: size }, (_, k) => next + k);
      await recordDispatches(
        ctx,
        a,
        'test/a',
        writes(out, range, (s) => 7 * s + 1),
        65535,
      );
      await recordDispatches(
        ctx,
        b,
        'test/b',
        writes(other, range, (s) => 5 * s + 3),
        65535,
      );
      next += size;
    }
    // b goes first: parameters written for a while b was recorded must not have reached b
    ctx.device.queue.submit([b.finish()]);
    ctx.device.queue.submit([a.finish()]);
    const gotA = await readback(ctx, out, new Uint32Array(next));
    const gotB = await readback(ctx, other, new Uint32Array(next));
    expect(next).toBe(slots);
    for (let s = 0; s < next; s++) {
      expect(gotA[s]).toBe(7 * s + 1);
      expect(gotB[s]).toBe(5 * s + 3);
    }
    out.destroy();
    other.destroy();
  });
});
