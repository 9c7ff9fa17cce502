import { GpuContext } from './gpu-context.js';

let shared: Promise<GpuContext> | undefined;

/**
 * One process-wide {@link GpuContext}, created on first call with default options and shared by
 * every later call (concurrent first calls share one creation). A failed creation is not kept, so a later call
 * tries again; after the shared device is lost or destroyed the next call creates a new context.
 *
 * @throws GpuUnavailableError as {@link GpuContext.create} does.
 */
export async function getGpuContext(): Promise<GpuContext> {
  shared ??= GpuContext.create();
  const current = shared;
  let ctx: GpuContext;
  try {
    ctx = await current;
  } catch (error) {
    if (shared === current) shared = undefined;
    throw error;
  }
  if (!ctx.isLost) return ctx;
  if (shared === current) shared = undefined;
  return getGpuContext();
}

/**
 * Destroys the shared context if one was created (for shutdown and tests); the next
 * {@link getGpuContext} creates a new one.
 */
export async function releaseGpuContext(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (!current) return;
  try {
    (await current).destroy();
  } catch {
    // creation failed: nothing to destroy
  }
}
