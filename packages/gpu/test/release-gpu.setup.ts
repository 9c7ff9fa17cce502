import { releaseGpuContext } from '@geoframe/gpu';
import { afterAll } from 'vitest';

// A GPU run through the public API gets a deadline below vitest's 60 s per-test timeout, so a run
// that hangs ends as a GPU_TIMEOUT (its device abandoned) rather than outliving its test.
process.env.GEOFRAME_GPU_TIMEOUT_MS ??= '55000';

// Let the shared device go before a test process exits (Dawn tearing down a live device at
// process exit can kill the worker before it reports back to vitest). Bounded: a device whose
// work is still running (a test that timed out) is abandoned, not destroyed, because Dawn's
// destroy() would block this thread, and with it vitest's hook timeout, until the work ends.
afterAll(async () => {
  await releaseGpuContext();
});
