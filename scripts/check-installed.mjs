#!/usr/bin/env node
// Installed, not only cloned: packs @geoframe/core, cpu, gpu and geo as npm would publish them
// (`pnpm pack`: workspace versions made real), installs the tarballs into an empty temporary
// project (third-party packages from the pnpm store where it has them), and runs the main job
// there from the installed binary: `geoframe voronoi us-zips`, whose data ships in the package.
// It checks the exit code, the files written and their rows. CI runs it after the tests
// (.ci/run); by hand: `pnpm build && node scripts/check-installed.mjs`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['core', 'cpu', 'gpu', 'geo'];
const pnpm = ['-y', 'pnpm@10'];

function run(command, args, cwd) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  console.log(`ok ${seconds} s: ${command} ${args.join(' ')}`);
  return result.stdout;
}

const dir = mkdtempSync(join(tmpdir(), 'geoframe-installed-'));
try {
  const filters = PACKAGES.flatMap((p) => ['--filter', `@geoframe/${p}`]);
  run('npx', [...pnpm, '-r', ...filters, 'pack', '--pack-destination', dir], ROOT);
  const tarball = (p) => `file:${join(dir, `geoframe-${p}-0.1.0.tgz`)}`;
  const app = join(dir, 'app');
  mkdirSync(app);
  const overrides = Object.fromEntries(PACKAGES.map((p) => [`@geoframe/${p}`, tarball(p)]));
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'installed-check',
      private: true,
      type: 'module',
      dependencies: { '@geoframe/geo': tarball('geo') },
      // the unpublished workspace packages geo depends on come from their tarballs too
      pnpm: { overrides },
    }),
  );
  run('npx', [...pnpm, 'install', '--prefer-offline'], app);
  const out = run(join(app, 'node_modules/.bin/geoframe'), ['voronoi', 'us-zips', '--device', 'cpu'], app);
  if (!/33300 input rows → 33300 cells, clipped/.test(out)) throw new Error(`unexpected output:\n${out}`);
  for (const file of ['us-zips-voronoi.parquet', 'us-zips-voronoi.png']) {
    if (!existsSync(join(app, file))) throw new Error(`${file} was not written`);
  }
  // the result reads back through the installed package, one cell per ZIP code
  const check = `import { readFile } from '@geoframe/geo';
const cells = await readFile('us-zips-voronoi.parquet');
if (cells.length !== 33300 || !cells.columns.includes('zip')) throw new Error('bad result: ' + cells.length);`;
  run(process.execPath, ['--input-type=module', '-e', check], app);
  console.log('the installed package runs the main job');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
