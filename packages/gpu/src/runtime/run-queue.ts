import type { GpuContext } from './gpu-context.js';

/** Per context: the promise the next run waits for (the end of the last one queued). */
const tails = new WeakMap<GpuContext, Promise<void>>();

/**
 * Runs `work` alone on `ctx`: runs queued on one context start in call order, each after the
 * previous one has settled (resolved or thrown). The pipelines keep their device temporaries
 * (`scratchBuffer`) and staging buffers per context and name, so two runs in flight at once
 * would overwrite each other's; every public entry point that returns host results runs through
 * here, and copies its results out before it returns. Not reentrant: code inside `work` calls
 * the unqueued stages, never another queued entry point on the same context.
 *
 * Runs on different contexts (devices) are independent.
 */
export async function runExclusive<T>(ctx: GpuContext, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(ctx) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => done);
  tails.set(ctx, tail);
  await previous;
  try {
    return await work();
  } finally {
    release();
    // the last run leaves no chain behind
    if (tails.get(ctx) === tail) tails.delete(ctx);
  }
}
