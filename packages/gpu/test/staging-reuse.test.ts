import { describe, expect } from 'vitest';
import { readback, uploadStorage } from '../src/runtime/buffers.js';
import { remapUploads, submitAndRead, submitForRead, uploadParts } from '../src/runtime/staging.js';
import { BufferUsage } from '../src/runtime/usage.js';
import { requireGpu, gpuTest as test } from './gpu-test-context.js';
import { randomWords } from './scan-reference.js';

/** A storage buffer holding `words` (copy source and target). */
async function storage(words: Uint32Array, label: string): Promise<GPUBuffer> {
  const ctx = await requireGpu();
  return uploadStorage(ctx, words, label, BufferUsage.COPY_SRC | BufferUsage.COPY_DST);
}

describe('reused staging buffers after failed or abandoned transfers', () => {
  test('a read left pending (its run gave up) does not poison the next read of that name', async () => {
    const ctx = await requireGpu();
    const a = randomWords(1000, 1);
    const b = randomWords(1000, 2);
    const [ga, gb] = [await storage(a, 'stage a'), await storage(b, 'stage b')];
    const errors: GPUError[] = [];
    const stop = ctx.onUncapturedError((e) => errors.push(e));
    // the first run submits its copy and starts mapping, then is abandoned: never unmapped
    const abandoned = await submitForRead(ctx, ctx.device.createCommandEncoder(), 'test/reuse', [
      { source: ga, bytes: a.byteLength },
    ]);
    const pendingMap = abandoned
      .read(() => new Promise<never>(() => undefined) as never)
      .catch(() => undefined);
    // the next run through the same name, while that mapping is pending or mapped
    const out = new Uint32Array(b.length);
    await submitAndRead(ctx, ctx.device.createCommandEncoder(), 'test/reuse', [{ source: gb, target: out }]);
    expect(out).toEqual(b);
    // and the one after it, reusing the cached buffer
    const again = new Uint32Array(a.length);
    await submitAndRead(ctx, ctx.device.createCommandEncoder(), 'test/reuse', [
      { source: ga, target: again },
    ]);
    expect(again).toEqual(a);
    // the abandoned read never ends (its consumer never settles), so it keeps its buffer, which
    // is never handed out again: the two reads above took another
    expect(await Promise.race([pendingMap.then(() => 'settled'), Promise.resolve('pending')])).toBe(
      'pending',
    );
    stop();
    expect(errors.map((e) => e.message)).toEqual([]);
    ga.destroy();
    gb.destroy();
  });

  test('a read whose consumer throws leaves the buffer unmapped and reusable', async () => {
    const ctx = await requireGpu();
    const a = randomWords(300, 3);
    const ga = await storage(a, 'stage throw');
    const pending = await submitForRead(ctx, ctx.device.createCommandEncoder(), 'test/throw', [
      { source: ga, bytes: a.byteLength },
    ]);
    await expect(
      pending.read(() => {
        throw new Error('consumer failed');
      }),
    ).rejects.toThrow('consumer failed');
    const out = new Uint32Array(a.length);
    await submitAndRead(ctx, ctx.device.createCommandEncoder(), 'test/throw', [{ source: ga, target: out }]);
    expect(out).toEqual(a);
    ga.destroy();
  });

  test('an upload held by an encoder not yet submitted is not overwritten by another upload', async () => {
    const ctx = await requireGpu();
    const a = randomWords(500, 4);
    const b = randomWords(500, 5);
    const [ta, tb] = [
      await storage(new Uint32Array(500), 'upload target a'),
      await storage(new Uint32Array(500), 'upload target b'),
    ];
    const ea = ctx.device.createCommandEncoder();
    await uploadParts(ctx, ea, 'test/up', [{ data: a, target: ta }]);
    // a second upload through the same name before the first encoder is submitted (a concurrent
    // run, or a run that failed before submitting and never called remapUploads)
    const eb = ctx.device.createCommandEncoder();
    await uploadParts(ctx, eb, 'test/up', [{ data: b, target: tb }]);
    ctx.device.queue.submit([eb.finish()]);
    ctx.device.queue.submit([ea.finish()]);
    remapUploads(ctx, 'test/up');
    expect(await readback(ctx, ta, new Uint32Array(500))).toEqual(a);
    expect(await readback(ctx, tb, new Uint32Array(500))).toEqual(b);
    // later uploads through the name still work
    const e3 = ctx.device.createCommandEncoder();
    await uploadParts(ctx, e3, 'test/up', [{ data: b, target: ta }]);
    ctx.device.queue.submit([e3.finish()]);
    remapUploads(ctx, 'test/up');
    expect(await readback(ctx, ta, new Uint32Array(500))).toEqual(b);
    ta.destroy();
    tb.destroy();
  });
});
