import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crsLabel } from '@geoframe/core';
import { readFile, writeFile } from '@geoframe/geo';
import { afterAll, describe, expect, it } from 'vitest';
import { expected, FILE_KINDS, fixturePath, TYPES } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Same value, or both missing (GeoPandas' None is our NaN for measures of null rows). */
function expectMeasure(actual: Float64Array, wanted: (number | null)[]) {
  expect(actual.length).toBe(wanted.length);
  wanted.forEach((w, i) => {
    if (w === null) expect(actual[i]).toBeNaN();
    else expect(actual[i]).toBeCloseTo(w, 12);
  });
}

describe('files written by GeoPandas open as GeoDataFrames', () => {
  for (const type of TYPES) {
    for (const kind of FILE_KINDS) {
      it(`${type}.${kind}`, async () => {
        const gdf = await readFile(fixturePath(`geopandas/${type}.${kind}`));
        const want = expected[type];
        expect(gdf.length).toBe(4);
        expect(gdf.columns).toEqual(expect.arrayContaining(['id', 'label', 'geometry']));
        expect(gdf.geometryName).toBe('geometry');
        expect(crsLabel(gdf.crs)).toBe('EPSG:4326');
        expect(gdf.geometry.toWKT()).toEqual(want.wkt);
        expect([...gdf.geometry.isNull]).toEqual(want.wkt.map((w) => (w === null ? 1 : 0)));
        expect([...gdf.geometry.isEmpty]).toEqual(want.wkt.map((w) => (w?.endsWith('EMPTY') ? 1 : 0)));
        expectMeasure(gdf.area(), want.area);
        expectMeasure(gdf.lengthOf(), want.length);
        const labels = gdf.get('label') as { toArray(): unknown };
        expect([...(labels.toArray() as string[])]).toEqual([0, 1, 2, 3].map((i) => `${type}-${i}`));
        const ids = gdf.get('id') as { toArray(): ArrayLike<bigint | number> };
        expect([...ids.toArray()].map(Number)).toEqual([0, 1, 2, 3]);
        expect(String(gdf)).toContain('crs: EPSG:4326');
      });
    }
  }
});

describe('round trips through every format keep geometry, CRS, nulls and columns', () => {
  for (const type of TYPES) {
    it(type, async () => {
      const source = await readFile(fixturePath(`geopandas/${type}.wkb.parquet`));
      const paths = ['a.parquet', 'b.arrow', 'c.geojson', 'd.parquet', 'e.arrows', 'f.feather'].map((p) =>
        join(dir, `${type}-${p}`),
      );
      let current = source;
      for (const [k, path] of paths.entries()) {
        await writeFile(current, path, { encoding: k === 3 ? 'geoarrow' : 'wkb' });
        current = await readFile(path);
        expect(current.geometry.toWKT(), path).toEqual(source.geometry.toWKT());
        const a = source.geometry.array;
        const b = current.geometry.array;
        // bit-exact coordinates of every non-null row
        for (let i = 0; i < a.length; i++) {
          if (a.isNull(i)) continue;
          const [s0, s1] = a.coordRange(i);
          const [t0, t1] = b.coordRange(i);
          expect(b.coords.subarray(t0 * b.stride, t1 * b.stride)).toEqual(
            a.coords.subarray(s0 * a.stride, s1 * a.stride),
          );
        }
        expect(crsLabel(current.crs), path).toBe('EPSG:4326');
        const labels = current.get('label') as { toArray(): unknown };
        expect([...(labels.toArray() as string[])]).toEqual([0, 1, 2, 3].map((i) => `${type}-${i}`));
      }
    });
  }
});
