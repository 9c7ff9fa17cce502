import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage } from '../runtime/usage.js';

/** Usage of every scratch buffer: storage, copy source (for readback and tests) and copy target (clears). */
const SCRATCH_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

const caches = new WeakMap<GpuContext, Map<string, GPUBuffer>>();

/**
 * A storage buffer of at least `bytes` bytes (rounded up to a multiple of 256, at least 256),
 * reused by every later call with the same `name` on the same context: temporaries of GPU
 * primitives (block sums, carries, counters) that live only within one recorded command sequence.
 * Usage is `STORAGE | COPY_SRC | COPY_DST`, plus `extraUsage` (e.g. `INDIRECT` for dispatch
 * arguments written by kernels; a name has one buffer per usage). Contents are unspecified;
 * callers clear what they need (e.g. `encoder.clearBuffer`) in the same encoder.
 *
 * Sharing rules: two uses of one name must not overlap in time on the GPU, which holds for work
 * recorded one after another into encoders submitted to the one queue. When a larger size is
 * asked for, a new buffer replaces the cached one; the old one is not destroyed (an encoder
 * recorded earlier but not yet submitted may still use it) and is freed when garbage collected.
 *
 * Synchronous (`device.createBuffer` outside error scopes), so an allocation failure surfaces as
 * the device's uncaptured error or at submit.
 */
export function scratchBuffer(ctx: GpuContext, name: string, bytes: number, extraUsage = 0): GPUBuffer {
  ctx.assertUsable();
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
  }
  const key = extraUsage === 0 ? name : `${name} (usage ${extraUsage})`;
  const existing = cache.get(key);
  if (existing && existing.size >= bytes) return existing;
  // grow geometrically so a slowly growing caller does not allocate every time
  const wanted = Math.max(bytes, Math.min(existing ? existing.size * 2 : 0, ctx.limits.maxBufferSize));
  const size = Math.min(
    Math.max(256, Math.ceil(wanted / 256) * 256),
    Math.max(bytes, ctx.limits.maxBufferSize),
  );
  const buffer = ctx.device.createBuffer({
    label: `scratch ${name}`,
    size,
    usage: SCRATCH_USAGE | extraUsage,
  });
  cache.set(key, buffer);
  return buffer;
}
