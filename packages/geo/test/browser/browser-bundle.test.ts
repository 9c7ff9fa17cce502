import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script of the demo (no declarations)
import { bundleLibrary } from '../../../../examples/browser/build.mjs';

// The browser build of @geoframe/geo, from the built packages (`tsc -b` runs before the tests): it
// bundles for the browser platform, where a Node builtin (node:fs, worker_threads…) anywhere on
// the import path is an error, and it must hold only the web builds of the #platform modules.

const dir = mkdtempSync(join(tmpdir(), 'geoframe-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the browser bundle of @geoframe/geo', () => {
  it('bundles with no Node builtin, no Node-only package and only the web platform modules', async () => {
    const bundle = await bundleLibrary({ outdir: dir, minify: false });
    const inputs: string[] = bundle.inputs;
    const platform = inputs.filter((p) => p.includes('/platform/') && !p.endsWith('contract.js'));
    expect(platform.length).toBeGreaterThanOrEqual(5); // files, deflate, rasterize-svg, threads, gpu-entry
    expect(platform.every((p) => p.includes('/platform/web/'))).toBe(true);
    for (const nodeOnly of ['/webgpu/', '@resvg', 'resvg-js', '/platform/node/', 'parquet-wasm/node/']) {
      expect(inputs.filter((p) => p.includes(nodeOnly))).toEqual([]);
    }
    expect(inputs.some((p) => p.includes('parquet-wasm/esm/'))).toBe(true);
    const code = readFileSync(bundle.file, 'utf8');
    expect(
      code.match(/\b(import|require)\s*\(?\s*['"](node:[\w/]+|fs|path|os|worker_threads)['"]/g),
    ).toBeNull();
    expect(bundle.gzip).toBeGreaterThan(100_000);
  }, 60_000);

  it('the check fails on a Node builtin: an entry importing node:fs does not bundle', async () => {
    const entry = join(dir, 'node-only.js');
    writeFileSync(entry, "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n");
    const failure = build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    await expect(failure).rejects.toThrow(/Could not resolve "node:fs"/);
  });
});
