import type { GpuContext } from '@geoframe/gpu';
import { runExclusive } from '@geoframe/gpu';
import { describe, expect, it } from 'vitest';

// runExclusive only keys its queue by the context object: plain objects stand in for devices here
const fakeContext = () => ({}) as GpuContext;
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runExclusive', () => {
  it('runs one at a time per context, in call order, whatever each run takes', async () => {
    const ctx = fakeContext();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const durations = [7, 0, 3, 5, 1, 0, 4, 2];
    const runs = durations.map((ms, k) =>
      runExclusive(ctx, async () => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${k}`);
        await later(ms);
        log.push(`end ${k}`);
        running--;
        return k;
      }),
    );
    expect(await Promise.all(runs)).toEqual(durations.map((_, k) => k));
    expect(most).toBe(1);
    expect(log).toEqual(durations.flatMap((_, k) => [`start ${k}`, `end ${k}`]));
  });

  it('a run that throws passes its error on and releases the queue', async () => {
    const ctx = fakeContext();
    const failing = runExclusive(ctx, async () => {
      await later(2);
      throw new Error('device went away');
    });
    const next = runExclusive(ctx, async () => 'next ran');
    await expect(failing).rejects.toThrow('device went away');
    expect(await next).toBe('next ran');
    // and a synchronous throw inside the async work as well
    await expect(
      runExclusive(ctx, () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(await runExclusive(ctx, async () => 'still usable')).toBe('still usable');
  });

  it('runs on different contexts overlap', async () => {
    const [a, b] = [fakeContext(), fakeContext()];
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await later(5);
      running--;
    };
    await Promise.all([runExclusive(a, work), runExclusive(b, work)]);
    expect(most).toBe(2);
  });
});
