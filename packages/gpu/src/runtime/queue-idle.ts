import { BufferUsage, MapMode } from './usage.js';

/**
 * Whether the work submitted to `device`'s queue finishes within `waitMs`: a 4-byte probe is
 * cleared by a new submission and mapped, and the mapping (which waits for every submission
 * before it) is raced against a timer. Never blocks the thread.
 *
 * Not `queue.onSubmittedWorkDone()`: in Dawn's Node binding that promise keeps the event loop
 * alive until the work ends even after nobody awaits it, so a shader that never ends would keep
 * the process from exiting; a pending mapping does not.
 */
export async function queueIdleWithin(device: GPUDevice, waitMs: number): Promise<boolean> {
  let probe: GPUBuffer;
  try {
    probe = device.createBuffer({
      label: 'queue-idle probe',
      size: 4,
      usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
    });
    const encoder = device.createCommandEncoder({ label: 'queue-idle probe' });
    encoder.clearBuffer(probe);
    device.queue.submit([encoder.finish()]);
  } catch {
    return false;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, waitMs));
  });
  const mapped = probe.mapAsync(MapMode.READ).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([mapped, late]);
  } finally {
    clearTimeout(timer);
    // destroying a probe whose mapping is pending only aborts that mapping
    probe.destroy();
  }
}
