import { releaseGpuContext } from '@geoframe/gpu';
import { afterAll } from 'vitest';

// GPU runs keep the watchdog's default deadlines (a software adapter's are generous: compiling the
// star kernels on a loaded 2-core machine takes minutes); a test that outlives vitest's timeout
// fails there, and the release below never waits for its device.

// Let the shared device go before a test process exits (Dawn tearing down a live device at
// process exit can kill the worker before it reports back to vitest). Bounded: a device whose
// work is still running (a test that timed out) is abandoned, not destroyed, because Dawn's
// destroy() would block this thread, and with it vitest's hook timeout, until the work ends.
afterAll(async () => {
  await releaseGpuContext();
});
