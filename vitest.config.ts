import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources: each @geoframe package resolves to its src/index.ts.
const src = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// `#platform/<m>` (package.json `imports`, adr/0030) resolves to the Node build's source in the
// importing package, as the node condition picks its built file: tests need no build first.
const platformSources = {
  name: 'geoframe-platform-sources',
  enforce: 'pre' as const,
  resolveId(id: string, importer?: string) {
    const match = /^#platform\/([\w-]+)$/.exec(id);
    const owner = importer && /^(.*\/packages\/[\w-]+)\/src\//.exec(importer.replaceAll('\\', '/'));
    return match && owner ? `${owner[1]}/src/platform/node/${match[1]}.ts` : null;
  },
};

export default defineConfig({
  plugins: [platformSources],
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
