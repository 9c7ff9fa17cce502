import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crsLabel } from '@geoframe/core';
import { type GeoDataFrame, GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath, TYPES } from './fixtures.js';

/**
 * Files geoframe writes must open in GeoPandas with the same geometries, CRS, nulls and columns.
 * This needs a Python with geopandas and pyarrow: GEOFRAME_PYTHON, else the CI's virtualenv, else
 * python3. CI installs it (.ci/run) and sets CI=true, and then a missing GeoPandas fails the test.
 */
function findPython(): string | null {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const candidates = [process.env.GEOFRAME_PYTHON, join(root, '.ci/venv/bin/python'), 'python3'];
  for (const python of candidates) {
    if (!python || (python.includes('/') && !existsSync(python))) continue;
    const probe = spawnSync(python, ['-c', 'import geopandas, pyarrow'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

const python = findPython();
const script = fileURLToPath(new URL('./interop/read_with_geopandas.py', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'geoframe-interop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  crs: string | null;
  columns: string[];
  geometry: string;
  wkt: (string | null)[];
  area: (number | null)[];
  length: (number | null)[];
  attributes: Record<string, unknown[]>;
}

function readWithGeoPandas(paths: string[]): Record<string, Seen> {
  const out = execFileSync(python!, [script, ...paths], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(out);
}

/**
 * Geometries equal coordinate for coordinate: GeoPandas' full-precision WKT parsed back here.
 * GeoJSON has no portable empty point: GDAL reads some `"coordinates": []` as null, so for GeoJSON
 * files an empty row of ours may be a null of GeoPandas.
 */
function expectSameGeometry(ours: GeoDataFrame, theirs: Seen, where: string) {
  const parsed = GeoSeries.fromWKT(theirs.wkt, { validate: false });
  const emptyAsNull = where.endsWith('.geojson');
  const wanted = ours.geometry
    .toWKT()
    .map((w, i) => (emptyAsNull && w?.endsWith('EMPTY') && theirs.wkt[i] === null ? null : w));
  expect(parsed.toWKT(), where).toEqual(wanted);
  const a = ours.geometry.array;
  const b = parsed.array;
  for (let i = 0; i < a.length; i++) {
    if (b.isNull(i)) continue;
    const [s0, s1] = a.coordRange(i);
    const [t0, t1] = b.coordRange(i);
    expect(t1 - t0, `${where} row ${i}`).toBe(s1 - s0);
    for (let k = 0; k < s1 - s0; k++) {
      expect(b.x(t0 + k), where).toBe(a.x(s0 + k));
      expect(b.y(t0 + k), where).toBe(a.y(s0 + k));
    }
  }
}

describe.runIf(python !== null || process.env.CI === 'true')('files we write open in GeoPandas', () => {
  it('GeoPandas is available (required in CI)', () => {
    expect(python, 'CI needs python with geopandas and pyarrow (.ci/run installs them)').not.toBeNull();
  });

  it('fixture tables of all six types, in every format we write', async () => {
    const written: { path: string; frame: GeoDataFrame }[] = [];
    for (const type of TYPES) {
      const frame = await readFile(fixturePath(`geopandas/${type}.wkb.parquet`));
      for (const [name, options] of [
        ['wkb.parquet', { encoding: 'wkb' as const }],
        ['geoarrow.parquet', { encoding: 'geoarrow' as const }],
        ['zstd.parquet', { compression: 'zstd' as const }],
        ['arrow', {}],
        ['geojson', {}],
      ] as const) {
        const path = join(dir, `${type}.${name}`);
        await writeFile(frame, path, options);
        written.push({ path, frame });
      }
    }
    const seen = readWithGeoPandas(written.map((w) => w.path));
    for (const { path, frame } of written) {
      const theirs = seen[path];
      expectSameGeometry(frame, theirs, path);
      expect(theirs.crs, path).toBe(crsLabel(frame.crs));
      expect(theirs.geometry, path).toBe('geometry');
      expect(theirs.columns, path).toEqual(expect.arrayContaining(['id', 'label', 'geometry']));
      expect(theirs.attributes.label, path).toEqual([...(frame.get('label') as Iterable<string>)]);
      const area = frame.area();
      // nulls were compared through the WKT; areas of the rows GeoPandas has
      theirs.area.forEach((v, i) => {
        if (v !== null) expect(area[i], path).toBeCloseTo(v, 12);
      });
    }
  });

  it('random polygons with holes, multipolygons and 3D points at UTM-like offsets', async () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const wkt: (string | null)[] = [];
    for (let i = 0; i < 40; i++) {
      const x = 500000 + random() * 1000;
      const y = 4649776 + random() * 1000;
      const r = 1 + random() * 10;
      if (i % 7 === 3) wkt.push(null);
      else if (i % 2 === 0) {
        wkt.push(
          `POLYGON ((${x} ${y}, ${x + r} ${y}, ${x + r} ${y + r}, ${x} ${y + r}, ${x} ${y}), (${x + r / 4} ${y + r / 4}, ${x + r / 4} ${y + r / 2}, ${x + r / 2} ${y + r / 2}, ${x + r / 4} ${y + r / 4}))`,
        );
      } else {
        wkt.push(
          `MULTIPOLYGON (((${x} ${y}, ${x + r} ${y}, ${x} ${y + r}, ${x} ${y})), ((${x + 2 * r} ${y}, ${x + 3 * r} ${y}, ${x + 2 * r} ${y + r}, ${x + 2 * r} ${y})))`,
        );
      }
    }
    const series = GeoSeries.fromWKT(wkt, { crs: 'EPSG:32633' });
    const paths = ['utm.parquet', 'utm-native.parquet', 'utm.arrow'].map((p) => join(dir, p));
    await writeFile(series, paths[0]);
    await writeFile(series, paths[1], { encoding: 'geoarrow' });
    await writeFile(series, paths[2]);
    const seen = readWithGeoPandas(paths);
    for (const path of paths) {
      const frame = await readFile(path);
      expectSameGeometry(frame, seen[path], path);
      expect(seen[path].crs, path).toBe('EPSG:32633');
    }
  });
});
