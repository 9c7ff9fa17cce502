import { DEFAULT_RELEASE_WAIT_MS, GpuContext } from './gpu-context.js';

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
 * Lets the shared context go if one was created (for shutdown and tests); the next
 * {@link getGpuContext} creates a new one. Bounded: waits at most `waitMs` for submitted work to
 * finish, then destroys the device, or abandons it when its work is still running (a timed-out
 * run), since Dawn's `destroy()` would block the thread until that work ends (see
 * {@link GpuContext.release}).
 */
export async function releaseGpuContext(waitMs = DEFAULT_RELEASE_WAIT_MS): Promise<void> {
  const current = shared;
  shared = undefined;
  if (!current) return;
  let ctx: GpuContext;
  try {
    ctx = await current;
  } catch {
    return; // creation failed: nothing to release
  }
  await ctx.release(waitMs);
}
