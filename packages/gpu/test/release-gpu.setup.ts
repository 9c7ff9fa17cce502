import { releaseGpuContext } from '@geoframe/gpu';
import { afterAll } from 'vitest';

// Destroy the shared device before a test process exits: Dawn tearing down a live device at
// process exit can kill the worker before it reports back to vitest.
afterAll(async () => {
  await releaseGpuContext();
});
