import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A Python with shapely, geopandas and pyarrow for reference answers: GEOFRAME_PYTHON, else the
 * CI's virtualenv (.ci/venv), else python3; null when none has them. Tests that use it run when it
 * exists and, under CI=true, fail when it is missing (`describe.runIf(usePython)`).
 */
export function findPython(): string | null {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const candidates = [process.env.GEOFRAME_PYTHON, join(root, '.ci/venv/bin/python'), 'python3'];
  for (const python of candidates) {
    if (!python || (python.includes('/') && !existsSync(python))) continue;
    const probe = spawnSync(python, ['-c', 'import geopandas, pyarrow, shapely'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

export const python = findPython();
/** Whether the reference tests run: a Python was found, or CI requires one. */
export const usePython = python !== null || process.env.CI === 'true';

/** Runs `test/interop/<script>` with `args`, `input` on stdin, and parses its JSON answer. */
export function runPython<T>(script: string, input: unknown, args: string[] = []): T {
  if (python === null)
    throw new Error('CI needs python with geopandas, pyarrow, shapely (.ci/run installs them)');
  const path = fileURLToPath(new URL(`./interop/${script}`, import.meta.url));
  const out = execFileSync(python, [path, ...args], {
    encoding: 'utf8',
    input: JSON.stringify(input),
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out) as T;
}
