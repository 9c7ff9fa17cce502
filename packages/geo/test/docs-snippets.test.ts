import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block of docs/api.md and README.md runs against the built packages, so the
 * documentation cannot drift from the API. Blocks are transpiled to JavaScript, `@geoframe/*`
 * imports are pointed at dist/, and each block runs as its own module (in a scratch working
 * directory, for snippets that write files); a block that throws fails its test. In docs/api.md
 * the first block holds the imports every later block shares.
 */
const root = new URL('../../../', import.meta.url);
const blocksOf = (file: string) =>
  [...readFileSync(new URL(file, root), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
const blocks = blocksOf('docs/api.md');
const header = blocks[0];
const readme = blocksOf('README.md');
const scratch = fileURLToPath(new URL('packages/geo/test/.snippets/', root));
mkdirSync(scratch, { recursive: true });
const cwd = process.cwd();
process.chdir(scratch);
afterAll(() => {
  process.chdir(cwd);
  rmSync(scratch, { recursive: true, force: true });
});

function toModule(source: string): string {
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return js.replace(/from '@geoframe\/([a-z-]+)'/g, (_, name) => {
    const dist = new URL(`packages/${name}/dist/index.js`, root);
    return `from '${pathToFileURL(fileURLToPath(dist)).href}'`;
  });
}

async function run(name: string, source: string) {
  const file = `${scratch}${name}.mjs`;
  writeFileSync(file, toModule(source));
  await import(pathToFileURL(file).href);
}

describe('README.md snippets run', () => {
  it('has one', () => {
    expect(readme.length).toBe(1);
  });
  readme.forEach((block, k) => {
    it(`snippet ${k + 1}`, async () => {
      await run(`readme-${k + 1}`, block);
    });
  });
});

describe('docs/api.md snippets run', () => {
  it('has snippets', () => {
    expect(blocks.length).toBeGreaterThan(1);
  });
  blocks.slice(1).forEach((block, k) => {
    it(`snippet ${k + 1}: ${block.split('\n')[0]}`, async () => {
      await run(`api-${k + 1}`, `${header}\n${block}`);
    });
  });
});
