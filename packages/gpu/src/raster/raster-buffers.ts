import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage } from '../runtime/usage.js';

const caches = new WeakMap<GpuContext, Map<string, GPUBuffer>>();

/**
 * An indirect-arguments buffer (`STORAGE | INDIRECT | COPY_DST`) of at least `bytes` bytes, kept
 * per context and name like `scratchBuffer` (which has no INDIRECT usage): Facet-JFA's dispatch
 * arguments, written by its own kernels within one run, so a raster run creates no buffer.
 * Sharing rules as `scratchBuffer`'s: runs on one context are one at a time (`runExclusive`).
 */
export function indirectBuffer(ctx: GpuContext, name: string, bytes: number): GPUBuffer {
  ctx.assertUsable();
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
  }
  const existing = cache.get(name);
  if (existing && existing.size >= bytes) return existing;
  const buffer = ctx.device.createBuffer({
    label: `raster ${name}`,
    size: Math.max(256, Math.ceil(bytes / 256) * 256),
    usage: BufferUsage.STORAGE | BufferUsage.INDIRECT | BufferUsage.COPY_DST,
  });
  cache.set(name, buffer);
  return buffer;
}
