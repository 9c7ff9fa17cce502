// GeoPandas as the reference for the ops tests: tasks go to ops/reference.py as JSON, answers
// come back as JSON. The Python is GEOFRAME_PYTHON, else the CI's virtualenv, else python3; with
// CI=true a missing GeoPandas fails the tests that need it (describeWithGeoPandas).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeometryArray } from '@geoframe/core';
import { GeoSeries } from '@geoframe/geo';
import { describe, expect, it } from 'vitest';

function findPython(): string | null {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const candidates = [process.env.GEOFRAME_PYTHON, join(root, '.ci/venv/bin/python'), 'python3'];
  for (const python of candidates) {
    if (!python || (python.includes('/') && !existsSync(python))) continue;
    const probe = spawnSync(python, ['-c', 'import geopandas, pyproj, shapely'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

export const python = findPython();
const script = fileURLToPath(new URL('./reference.py', import.meta.url));

/** A describe block that runs where GeoPandas is found, and always under CI (where it must be). */
export function describeWithGeoPandas(name: string, body: () => void): void {
  describe.runIf(python !== null || process.env.CI === 'true')(name, () => {
    it('GeoPandas is available (required in CI)', () => {
      expect(python, 'CI needs python with geopandas (.ci/run installs it)').not.toBeNull();
    });
    body();
  });
}

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON from Python, checked by the tests
export type Answer = any;

/** Runs the tasks in one Python process; one answer per task ({error} where GeoPandas raised). */
export function reference(tasks: object[]): Answer[] {
  const out = execFileSync(python!, [script], {
    input: JSON.stringify(tasks),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return JSON.parse(out);
}

/** Hex WKB per row (null rows null), the way reference.py reads geometries. */
export function hexWkb(series: GeoSeries | GeometryArray): (string | null)[] {
  const s = series instanceof GeoSeries ? series : new GeoSeries(series);
  return s.toWKB().map((b) => (b === null ? null : Buffer.from(b).toString('hex')));
}

/** A series from reference.py's hex WKB. */
export function fromHex(values: (string | null)[], crs: string | null = null): GeoSeries {
  return GeoSeries.fromWKB(
    values.map((h) => (h === null ? null : Uint8Array.from(Buffer.from(h, 'hex')))),
    { crs, validate: false },
  );
}

/** Every x, y of the series in buffer order, null and empty rows skipped (shapely.get_coordinates). */
export function flatCoords(series: GeoSeries): number[] {
  const a = series.array;
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a.isNull(i) || a.isEmpty(i)) continue;
    const [lo, hi] = a.coordRange(i);
    for (let k = lo; k < hi; k++) out.push(a.x(k), a.y(k));
  }
  return out;
}
