import { awaitWarmUp, GpuCompilingError, GpuContext, warmUp } from '@geoframe/gpu';
import { describe, expect, test } from 'vitest';

/** A device that only needs to exist: the warm-ups below do host work under the watchdog. */
function idleDevice(): GPUDevice {
  return {
    limits: {},
    features: new Set<string>(),
    lost: new Promise(() => undefined),
    addEventListener: () => undefined,
    destroy: () => undefined,
  } as unknown as GPUDevice;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("an 'auto' run's wait for its first compilation", () => {
  test('a warm-up still running past the wait is GPU_COMPILING (recoverable); once done, no wait', async () => {
    const ctx = await GpuContext.create({ device: idleDevice() });
    let runs = 0;
    const run = async () => {
      runs++;
      await sleep(300);
    };
    const started = performance.now();
    const error = await awaitWarmUp(ctx, 'test', run, 40).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(250);
    expect(error).toBeInstanceOf(GpuCompilingError);
    expect((error as GpuCompilingError).code).toBe('GPU_COMPILING');
    expect((error as GpuCompilingError).message).toMatch(/test .*still compiling .* after 40 ms/);
    // the warm-up went on in the background: the same one, started once, then no wait at all
    await warmUp(ctx, 'test', run);
    const again = performance.now();
    await awaitWarmUp(ctx, 'test', run, 0);
    expect(performance.now() - again).toBeLessThan(50);
    expect(runs).toBe(1);
    // another context warms up on its own
    await awaitWarmUp(await GpuContext.create({ device: idleDevice() }), 'test', run, 1000);
    expect(runs).toBe(2);
  });

  test('a failed warm-up rejects with its own error and is forgotten: the next call tries again', async () => {
    const ctx = await GpuContext.create({ device: idleDevice() });
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new RangeError('no such kernel');
    };
    await expect(awaitWarmUp(ctx, 'broken', failing, 1000)).rejects.toThrow('no such kernel');
    await sleep(0);
    await expect(awaitWarmUp(ctx, 'broken', failing, 1000)).rejects.toThrow('no such kernel');
    expect(runs).toBe(2);
  });
});
