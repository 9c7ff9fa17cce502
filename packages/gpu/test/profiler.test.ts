import { formatProfile, GpuProfiler } from '@geoframe/gpu';
import { describe, expect } from 'vitest';
import { encodeHilbertKeys } from '../src/primitives/hilbert/hilbert.js';
import { hilbertKeysCpu } from '../src/primitives/hilbert/hilbert-cpu.js';
import { quantizeHilbertGrid } from '../src/primitives/hilbert/hilbert-grid.js';
import { createStorage, readback, uploadStorage } from '../src/runtime/buffers.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { seededRandom } from './random-geometry.js';

/** Three profiled Hilbert passes over the same data in one encoder; checks the keys too. */
async function profiledRound(profiler: GpuProfiler, names: string[]) {
  const ctx = await requireGpu();
  const random = seededRandom(4);
  const n = 50000;
  const xy = new Float64Array(2 * n).map(() => random());
  const grid = await uploadStorage(ctx, quantizeHilbertGrid(xy, { bits: 32 }), 'test grid');
  const keys = await createStorage(ctx, n * 8, 'test keys', BufferUsage.COPY_SRC);
  try {
    const encoder = ctx.device.createCommandEncoder();
    for (const name of names) {
      await encodeHilbertKeys(ctx, encoder, {
        bits: 32,
        count: n,
        grid,
        keys,
        pass: profiler.passDescriptor(name),
      });
    }
    profiler.resolve(encoder);
    ctx.device.queue.submit([encoder.finish()]);
    const profile = await profiler.profile();
    expect(await readback(ctx, keys, new Uint32Array(2 * n))).toEqual(hilbertKeysCpu(xy, { bits: 32 }));
    return profile;
  } finally {
    grid.destroy();
    keys.destroy();
  }
}

describe('GpuProfiler', () => {
  test('timestamps where the device has them: names in order, non-negative, monotone starts', async () => {
    const ctx = await requireGpu();
    const profiler = new GpuProfiler(ctx);
    expect(profiler.source).toBe(ctx.features.timestampQuery ? 'timestamp' : 'wall');
    try {
      for (let round = 0; round < 2; round++) {
        const profile = await profiledRound(profiler, ['first', 'second', 'third']);
        expect(profile.source).toBe(profiler.source);
        if (profile.source === 'timestamp') {
          expect(profile.passes.map((p) => p.name)).toEqual(['first', 'second', 'third']);
          expect(profile.passes[0].startMs).toBe(0);
          for (let i = 1; i < 3; i++) {
            expect(profile.passes[i].startMs).toBeGreaterThanOrEqual(profile.passes[i - 1].startMs);
          }
        } else {
          expect(profile.passes.map((p) => p.name)).toEqual(['first, second, third']);
        }
        for (const pass of profile.passes) {
          expect(pass.ms).toBeGreaterThanOrEqual(0);
          expect(Number.isFinite(pass.ms)).toBe(true);
        }
        const sum = profile.passes.reduce((s, p) => s + p.ms, 0);
        expect(profile.totalMs).toBeCloseTo(sum, 12);
        expect(formatProfile(profile)).toMatch(/total [0-9.]+ ms, (timestamp|wall)\)$/);
      }
    } finally {
      profiler.destroy();
    }
  });

  test('wall mode on request: one interval covering the round, positive', async () => {
    const ctx = await requireGpu();
    const profiler = new GpuProfiler(ctx, { mode: 'wall' });
    try {
      const profile = await profiledRound(profiler, ['a', 'b']);
      expect(profile.source).toBe('wall');
      expect(profile.passes).toHaveLength(1);
      expect(profile.passes[0].name).toBe('a, b');
      expect(profile.passes[0].ms).toBeGreaterThan(0);
      expect(profile.totalMs).toBe(profile.passes[0].ms);
    } finally {
      profiler.destroy();
    }
  });

  test('descriptors keep base fields and label the pass; misuse is a RangeError', async () => {
    const ctx = await requireGpu();
    const profiler = new GpuProfiler(ctx, { maxPasses: 2 });
    try {
      const d = profiler.passDescriptor('x');
      expect(d.label).toBe('x');
      expect(d.timestampWrites !== undefined).toBe(profiler.source === 'timestamp');
      if (d.timestampWrites) {
        expect(d.timestampWrites.beginningOfPassWriteIndex).toBe(0);
        expect(d.timestampWrites.endOfPassWriteIndex).toBe(1);
        expect(profiler.passDescriptor('y').timestampWrites?.beginningOfPassWriteIndex).toBe(2);
      } else profiler.passDescriptor('y');
      expect(() => profiler.passDescriptor('z')).toThrow(/more than 2 passes/);
      await expect(profiler.read()).rejects.toThrow(/resolve/);
      // the two descriptors were never used in passes: the round still resolves and reads
      const encoder = ctx.device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.end();
      profiler.resolve(encoder);
      expect(() => profiler.resolve(encoder)).toThrow(/twice/);
      expect(() => profiler.passDescriptor('late')).toThrow(/read\(\)/);
      ctx.device.queue.submit([encoder.finish()]);
      const times = await profiler.read();
      expect(times.length).toBeGreaterThan(0);
      for (const t of times) expect(t.ms).toBeGreaterThanOrEqual(0);
    } finally {
      profiler.destroy();
    }
    expect(() => profiler.passDescriptor('after')).toThrow(/destroy/);
    expect(() => new GpuProfiler(ctx, { maxPasses: 0 })).toThrow(RangeError);
  });

  test('an empty round reads as no passes', async () => {
    const ctx = await requireGpu();
    for (const mode of ['auto', 'wall'] as const) {
      const profiler = new GpuProfiler(ctx, { mode });
      const encoder = ctx.device.createCommandEncoder();
      profiler.resolve(encoder);
      ctx.device.queue.submit([encoder.finish()]);
      expect(await profiler.profile()).toEqual({ passes: [], totalMs: 0, source: profiler.source });
      profiler.destroy();
    }
  });
});
