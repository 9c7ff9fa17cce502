import { type DispatchEvent, onDispatch, runDispatched } from '@geoframe/core';
import {
  abandonedDeviceCount,
  GPU_TIMEOUT_ENV,
  GpuContext,
  GpuDeviceLostError,
  GpuLoopLimitError,
  GpuTimeoutError,
  getGpuContext,
  gpuDeadlineMs,
  runOnGpu,
  scanU32,
} from '@geoframe/gpu';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { gpuTest, requireGpu } from './gpu-test-context.js';
import { cpuScan, randomWords } from './scan-reference.js';
import { SPIN_THREADS, spin, spinReference, submitSpin } from './spin-kernel.js';

const HARDWARE = { vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H100 80GB HBM3' };
const SOFTWARE = { vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' };

describe('deadlines', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env[GPU_TIMEOUT_ENV];
    delete process.env[GPU_TIMEOUT_ENV];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[GPU_TIMEOUT_ENV];
    else process.env[GPU_TIMEOUT_ENV] = saved;
  });

  test('grow with the size, and software adapters get far longer than hardware ones', () => {
    for (const size of [0, 1000, 1e6, 1e7]) {
      const hw = gpuDeadlineMs(size, HARDWARE);
      const sw = gpuDeadlineMs(size, SOFTWARE);
      expect(hw).toBeGreaterThan(0);
      expect(sw).toBeGreaterThan(hw * 5);
      expect(gpuDeadlineMs(size * 2 + 1, HARDWARE)).toBeGreaterThan(hw);
    }
    // 1M sites take ~0.4 s on the H100: the default leaves a margin of more than 50×
    expect(gpuDeadlineMs(1e6, HARDWARE)).toBeGreaterThan(50 * 400);
  });

  test('the option beats the environment, which beats the default; bad values are RangeErrors', () => {
    process.env[GPU_TIMEOUT_ENV] = '1234';
    expect(gpuDeadlineMs(1e6, HARDWARE)).toBe(1234);
    expect(gpuDeadlineMs(1e6, SOFTWARE, 77)).toBe(77);
    for (const bad of ['0', '-5', 'soon', 'Infinity']) {
      process.env[GPU_TIMEOUT_ENV] = bad;
      expect(() => gpuDeadlineMs(10, HARDWARE)).toThrow(RangeError);
    }
    delete process.env[GPU_TIMEOUT_ENV];
    expect(() => gpuDeadlineMs(10, HARDWARE, 0)).toThrow(/timeoutMs/);
    expect(() => gpuDeadlineMs(10, HARDWARE, Number.NaN)).toThrow(RangeError);
  });
});

describe('a timed-out or loop-limited GPU run falls back under auto and is an error under gpu', () => {
  const decision: DispatchEvent = {
    type: 'dispatch',
    kernel: 'voronoiPolygons',
    rows: 9,
    path: 'gpu',
    reason: 'test',
  };
  test.each([
    ['GPU_TIMEOUT', () => new GpuTimeoutError('voronoiPolygons', 5)],
    ['GPU_LOOP_LIMIT', () => new GpuLoopLimitError('voronoi/plan-cells', 1)],
  ])('%s', async (code, make) => {
    const events: DispatchEvent[] = [];
    const stop = onDispatch((e) => events.push(e));
    try {
      const paths = { gpu: () => Promise.reject(make()), cpu: () => 'cpu result' };
      const ran = await runDispatched(decision, 'auto', paths);
      expect(ran.value).toBe('cpu result');
      expect(ran.decision).toMatchObject({ type: 'fallback', path: 'cpu' });
      const fallback = events.find((e) => e.type === 'fallback');
      expect(fallback?.path).toBe('cpu');
      expect(fallback?.reason).toContain(code);
      await expect(runDispatched(decision, 'gpu', paths)).rejects.toMatchObject({ code });
    } finally {
      stop();
    }
  });
});

/**
 * A device whose pipeline compilations never finish (as a large kernel under lavapipe's LLVM on a
 * loaded machine), and which counts its destroy() calls: Dawn's destroy() would wait for them.
 */
function compilingDevice(compileMs = Number.POSITIVE_INFINITY): {
  device: GPUDevice;
  destroyed: () => number;
} {
  let destroyed = 0;
  const device = {
    limits: {},
    features: new Set<string>(),
    lost: new Promise(() => undefined),
    addEventListener: () => undefined,
    pushErrorScope: () => undefined,
    popErrorScope: async () => null,
    createShaderModule: () => ({ getCompilationInfo: async () => ({ messages: [] }) }),
    createComputePipelineAsync: () =>
      new Promise((resolve) => {
        if (Number.isFinite(compileMs)) setTimeout(() => resolve({ label: 'compiled' }), compileMs);
      }),
    destroy: () => {
      destroyed++;
    },
  };
  return { device: device as unknown as GPUDevice, destroyed: () => destroyed };
}

describe('release never waits on a compilation in flight', () => {
  test('a context compiling a pipeline is abandoned, not destroyed, within the wait', async () => {
    const { device, destroyed } = compilingDevice();
    const ctx = await GpuContext.create({ device });
    const before = abandonedDeviceCount();
    void ctx.pipelines.get({ name: 'test/slow', source: () => '' }, {});
    expect(ctx.pipelines.compiling).toBe(1);
    const started = performance.now();
    expect(await ctx.release(50)).toBe('abandoned');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(destroyed()).toBe(0);
    expect(abandonedDeviceCount()).toBe(before + 1);
    expect(ctx.isLost).toBe(true);
  });
});

describe('the deadline does not count pipeline creation (a driver compiling a kernel for the first time)', () => {
  const slowKernel = { name: 'test/compiles-slowly', source: () => '' };

  test('a run that waits 400 ms on a compilation meets a 150 ms deadline; the compile is logged', async () => {
    const ctx = await GpuContext.create({ device: compilingDevice(400).device });
    const result = await runOnGpu(
      'compile then run',
      1,
      async (c) => {
        await c.pipelines.get(slowKernel, {});
        await new Promise((resolve) => setTimeout(resolve, 50)); // the run's own work
        return 'done';
      },
      { timeoutMs: 150, context: ctx },
    );
    expect(result).toBe('done');
    expect(ctx.isLost).toBe(false);
    expect(ctx.pipelines.busyMs()).toBeGreaterThanOrEqual(390);
    expect(ctx.pipelines.compileLog).toHaveLength(1);
    expect(ctx.pipelines.compileLog[0]?.kernel).toBe('test/compiles-slowly|');
    expect(ctx.pipelines.compileLog[0]?.ms).toBeGreaterThanOrEqual(390);
  });

  test("the run's own time still counts: compiled, then 400 ms of work past a 150 ms deadline", async () => {
    const ctx = await GpuContext.create({ device: compilingDevice(200).device });
    const error = await runOnGpu(
      'compile then stall',
      1,
      async (c) => {
        await c.pipelines.get(slowKernel, {});
        await new Promise((resolve) => setTimeout(resolve, 400));
        return 'late';
      },
      { timeoutMs: 150, context: ctx },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GpuTimeoutError);
    expect((error as GpuTimeoutError).compileMs).toBeGreaterThanOrEqual(190);
    expect((error as GpuTimeoutError).message).toMatch(/within 150 ms \(plus \d+ ms compiling pipelines\)/);
    expect(ctx.isLost).toBe(true);
  });
});

describe('the watchdog abandons a run past its deadline and the next run works', () => {
  gpuTest('release() of a device still running a shader abandons it at once, without blocking', async () => {
    await requireGpu();
    const ctx = await GpuContext.create();
    const before = abandonedDeviceCount();
    // about two seconds of work on lavapipe; destroy() would block this thread until it ends
    await submitSpin(ctx, 1_000_000);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const started = performance.now();
    const outcome = await ctx.release(100);
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    expect(outcome).toBe('abandoned');
    expect(elapsed).toBeLessThan(2500);
    expect(ticks).toBeGreaterThan(0);
    expect(ctx.isLost).toBe(true);
    expect(abandonedDeviceCount()).toBe(before + 1);
    expect(() => ctx.assertUsable()).toThrow(GpuDeviceLostError);
    expect(() => ctx.assertUsable()).toThrow(/abandoned/);
  });

  gpuTest('release() of an idle device destroys it', async () => {
    await requireGpu();
    const ctx = await GpuContext.create();
    expect(await spin(ctx, 10)).toEqual(
      Uint32Array.from({ length: SPIN_THREADS }, (_, t) => spinReference(t, 10)),
    );
    const before = abandonedDeviceCount();
    expect(await ctx.release(30_000)).toBe('destroyed');
    expect(abandonedDeviceCount()).toBe(before);
    expect((await ctx.lost).reason).toBe('destroyed');
  });

  gpuTest(
    'a run past a tiny deadline is a GPU_TIMEOUT; the shared context is replaced and correct',
    async () => {
      const first = await requireGpu();
      const started = performance.now();
      const error = await runOnGpu('spin', SPIN_THREADS, (ctx) => spin(ctx, 300_000), {
        timeoutMs: 50,
      }).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(error).toBeInstanceOf(GpuTimeoutError);
      expect((error as GpuTimeoutError).code).toBe('GPU_TIMEOUT');
      expect((error as GpuTimeoutError).ms).toBe(50);
      expect(first.isLost).toBe(true);
      const next = await getGpuContext();
      expect(next).not.toBe(first);
      // the next runs, through the watchdog and without, give exact results
      const words = randomWords(20_011, 3);
      expect(await runOnGpu('scan', words.length, (ctx) => scanU32(ctx, words))).toEqual(
        cpuScan(words, false),
      );
      expect(await spin(next, 1000)).toEqual(
        Uint32Array.from({ length: SPIN_THREADS }, (_, t) => spinReference(t, 1000)),
      );
    },
  );
});
