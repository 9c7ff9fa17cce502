import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block of docs/api.md runs against the built packages, so the documentation cannot
 * drift from the API. Blocks are transpiled to JavaScript, `@geoframe/*` imports are pointed at
 * dist/, and each block runs as its own module; a block that throws fails its test.
 */
const root = new URL('../../../', import.meta.url);
const doc = readFileSync(new URL('docs/api.md', root), 'utf8');
const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const header = blocks[0];
const scratch = fileURLToPath(new URL('packages/geo/test/.snippets/', root));
mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function toModule(source: string): string {
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return js.replace(/from '@geoframe\/([a-z-]+)'/g, (_, name) => {
    const dist = new URL(`packages/${name}/dist/index.js`, root);
    return `from '${pathToFileURL(fileURLToPath(dist)).href}'`;
  });
}

describe('docs/api.md snippets run', () => {
  it('has snippets', () => {
    expect(blocks.length).toBeGreaterThan(1);
  });
  blocks.slice(1).forEach((block, k) => {
    it(`snippet ${k + 1}: ${block.split('\n')[0]}`, async () => {
      const file = `${scratch}snippet-${k + 1}.mjs`;
      writeFileSync(file, toModule(`${header}\n${block}`));
      await import(pathToFileURL(file).href);
    });
  });
});
