import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type GpuContext, GpuUnavailableError, getGpuContext } from '@geoframe/gpu';
import { test } from 'vitest';

const INSTALL_HINT = [
  'GPU tests need a WebGPU adapter. Without a GPU, install Mesa lavapipe (software Vulkan);',
  'on Debian bookworm take it from bookworm-backports (bookworm’s own Mesa is too old for Dawn):',
  "  echo 'deb http://deb.debian.org/debian bookworm-backports main' > /etc/apt/sources.list.d/backports.list",
  '  apt-get update && apt-get install -y -t bookworm-backports mesa-vulkan-drivers',
  'and set XDG_RUNTIME_DIR if it is unset (e.g. XDG_RUNTIME_DIR=/tmp). `bash .ci/run` does all this.',
].join('\n');

process.env.XDG_RUNTIME_DIR ??= '/tmp';
const inCi = process.env.CI === 'true';

/**
 * Why this machine has no WebGPU adapter, or null when it has one. The probe runs in a child
 * process, so no Dawn instance or device state of it lingers in the test process.
 */
function probe(): string | null {
  const script =
    "import('webgpu').then(async ({ create }) => process.exit((await create([]).requestAdapter()) ? 0 : 3))";
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)), // where the webgpu package resolves
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status === 0) return null;
  if (result.status === 3) return 'requestAdapter() returned null';
  return `the adapter probe failed: ${(result.stderr || String(result.error ?? result.signal)).trim()}`;
}
const missing = probe();
if (missing !== null && !inCi) {
  console.warn(`GPU tests are not run here: no WebGPU adapter (${missing}).\n${INSTALL_HINT}`);
}

/**
 * `test` for tests that need a GPU. In CI (`CI=true`) it always runs, so a CI without an adapter
 * fails; on a developer machine without any WebGPU adapter it is reported as skipped, with a
 * warning saying how to install lavapipe, so the README's test command works on a bare machine.
 */
export const gpuTest = missing === null || inCi ? test : test.skip;

/** The shared GPU context for a test; fails the test when there is no adapter. */
export async function requireGpu(): Promise<GpuContext> {
  try {
    return await getGpuContext();
  } catch (error) {
    if (!(error instanceof GpuUnavailableError)) throw error;
    const where = inCi
      ? 'CI found no WebGPU adapter: the workflow must install lavapipe before the tests.'
      : 'No WebGPU adapter on this machine.';
    throw new Error(`${where}\n${error.message}\n${INSTALL_HINT}`, { cause: error });
  }
}
