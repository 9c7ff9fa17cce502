/**
 * Devices given up while their GPU work may still run (a run past its deadline, a release that
 * did not see the queue go idle). Dawn's `device.destroy()` blocks the calling thread until the
 * running shader ends (measured on lavapipe: 26 s for a 27 s shader), and a device left to the
 * garbage collector is destroyed the same way, so an abandoned device is neither destroyed nor
 * dropped: it is kept here, referenced, for the rest of the process (or until the driver reports
 * it lost, when nothing runs on it any more). Its memory is leaked on purpose.
 *
 * At a natural exit Node tears Dawn down, and that teardown also waits for a running shader;
 * `process.exit()` does not. So once a device has been abandoned, a one-time `beforeExit`
 * listener ends the process with `process.exit()` while any abandoned device is still held.
 */
const abandoned = new Set<GPUDevice>();
let exitHookInstalled = false;

/** Keeps `device` referenced and never destroys it; see the module comment. */
export function abandonDevice(device: GPUDevice): void {
  if (abandoned.has(device)) return;
  abandoned.add(device);
  // lost (driver reset): its work is gone, so it can be let go without waiting
  device.lost.then(
    () => abandoned.delete(device),
    () => undefined,
  );
  installExitHook();
}

/** How many abandoned devices are held (for tests and diagnostics). */
export function abandonedDeviceCount(): number {
  return abandoned.size;
}

function installExitHook(): void {
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  if (exitHookInstalled || typeof proc?.once !== 'function' || typeof proc.exit !== 'function') return;
  exitHookInstalled = true;
  proc.once('beforeExit', (code) => {
    // exit now rather than wait in Dawn's teardown for a shader that may never end
    if (abandoned.size > 0) proc.exit(proc.exitCode ?? code);
  });
}
