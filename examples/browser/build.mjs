// Builds the demo page into examples/browser/dist/: geoframe.js (the browser bundle of
// @geoframe/geo with everything it imports, ESM), main.js (the page, importing ./geoframe.js),
// parquet-wasm's .wasm beside them, index.html and the demo data. Needs `tsc -b` first (it
// bundles the built packages). Usage: node examples/browser/build.mjs  (pnpm demo:build)
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const GEO = join(HERE, '../../packages/geo');

/**
 * Bundles @geoframe/geo for browsers into `outdir/geoframe.js` (platform 'browser': the
 * `browser` export conditions pick the web builds of the #platform modules; a Node builtin
 * anywhere on the path fails the build). Returns the output's size, raw and gzip, and the
 * packages in it.
 */
export async function bundleLibrary({ outdir, minify = true }) {
  const out = join(outdir, 'geoframe.js');
  const result = await build({
    entryPoints: [join(GEO, 'dist/index.js')],
    absWorkingDir: GEO,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    sourcemap: true,
    metafile: true,
    outfile: out,
    logLevel: 'silent',
  });
  // parquet-wasm's browser build fetches its module from beside the importing script
  const wasm = createRequire(join(GEO, 'package.json')).resolve('parquet-wasm/esm/parquet_wasm_bg.wasm');
  await copyFile(wasm, join(outdir, 'parquet_wasm_bg.wasm'));
  const bytes = await readFile(out);
  const wasmBytes = await readFile(wasm);
  return {
    file: out,
    bytes: bytes.length,
    gzip: gzipSync(bytes).length,
    wasmBytes: wasmBytes.length,
    wasmGzip: gzipSync(wasmBytes).length,
    inputs: Object.keys(result.metafile.inputs),
    warnings: result.warnings,
  };
}

/** The whole demo: the library bundle, the page's script, the page, the data. */
export async function buildDemo({ outdir = join(HERE, 'dist/site'), minify = true } = {}) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(join(outdir, 'data'), { recursive: true });
  const library = await bundleLibrary({ outdir, minify });
  await build({
    entryPoints: [join(HERE, 'src/main.ts')],
    absWorkingDir: HERE,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    sourcemap: true,
    outfile: join(outdir, 'main.js'),
    logLevel: 'silent',
    // the page shares the library bundle instead of bundling a second copy
    plugins: [
      {
        name: 'geoframe-bundle',
        setup(b) {
          b.onResolve({ filter: /^@geoframe\/geo$/ }, () => ({ path: './geoframe.js', external: true }));
        },
      },
    ],
  });
  await copyFile(join(HERE, 'index.html'), join(outdir, 'index.html'));
  for (const name of ['us-zips.parquet', 'us-outline.parquet']) {
    await copyFile(join(GEO, 'data', name), join(outdir, 'data', name));
  }
  return { outdir, library };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { outdir, library } = await buildDemo();
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`built ${outdir}`);
  console.log(
    `geoframe.js ${kb(library.bytes)} (gzip ${kb(library.gzip)}), parquet_wasm_bg.wasm ${kb(library.wasmBytes)} (gzip ${kb(library.wasmGzip)})`,
  );
}
