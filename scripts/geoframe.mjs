#!/usr/bin/env node
// `pnpm geoframe …`: the CLI from its built files, rebuilt first only when a source is newer than
// its package's build (a walk over the sources' timestamps: milliseconds). A fresh clone builds
// on the first call, so the README's first command works without a separate build step.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The packages the CLI runs from, in build order. */
const PACKAGES = ['core', 'cpu', 'gpu', 'geo'];

/** The newest modification time under `path` (a file or a folder, walked). */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let time = info.mtimeMs; // a deleted or renamed file changes its folder's time
  for (const name of readdirSync(path)) time = Math.max(time, newest(join(path, name)));
  return time;
}

function stale() {
  for (const name of PACKAGES) {
    const dir = join(ROOT, 'packages', name);
    const built = statSync(join(dir, 'dist/.tsbuildinfo'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const inputs = ['src', 'tsconfig.json', 'package.json'].map((p) => newest(join(dir, p)));
    if (Math.max(newest(join(ROOT, 'tsconfig.base.json')), ...inputs) > built) return true;
  }
  return false;
}

if (stale()) {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'packages/geo')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('../packages/geo/dist/cli.js');
