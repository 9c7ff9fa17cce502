import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources: each @geoframe package resolves to its src/index.ts.
const src = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@geoframe/core': src('core'),
      '@geoframe/geo': src('geo'),
      '@geoframe/gpu': src('gpu'),
      '@geoframe/cpu': src('cpu'),
      '@geoframe/testing': src('testing'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['packages/gpu/test/release-gpu.setup.ts'],
  },
});
