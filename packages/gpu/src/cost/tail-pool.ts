import { createBufferChecked } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage } from '../runtime/usage.js';
import { TAIL_WORDS } from './cost-wgsl.js';

/** Tail staging buffers a context keeps between runs (each run takes its own eight). */
const keptTails = new WeakMap<GpuContext, GPUBuffer[]>();

/**
 * The eight small `MAP_READ` buffers of a run's batch tails: kept ones where the context has
 * them (with `keep`), else new. A buffer mapped for the first time costs a round trip of several
 * milliseconds on some drivers (measured: adr/0018), so runs reuse them.
 */
export async function takeTails(ctx: GpuContext, keep: boolean): Promise<GPUBuffer[]> {
  const pool = keptTails.get(ctx) ?? [];
  const out: GPUBuffer[] = [];
  while (keep && out.length < 8 && pool.length > 0) out.push(pool.pop()!);
  const fresh = Array.from({ length: 8 - out.length }, (_, k) =>
    createBufferChecked(ctx, {
      label: `cost changed readback ${k}`,
      size: TAIL_WORDS * 4,
      usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
    }),
  );
  return [...out, ...(await Promise.all(fresh))];
}

/**
 * Gives a run's tail buffers back to the context (a mapping still pending — the batch after a
 * phase's fixed point, never read — is aborted), or destroys them.
 */
export function releaseTails(ctx: GpuContext, tails: readonly GPUBuffer[], keep: boolean): void {
  if (!keep) {
    for (const b of tails) b.destroy();
    return;
  }
  let pool = keptTails.get(ctx);
  if (!pool) {
    pool = [];
    keptTails.set(ctx, pool);
  }
  for (const b of tails) {
    if (b.mapState !== 'unmapped') b.unmap();
    if (pool.length < 16) pool.push(b);
    else b.destroy();
  }
}
