import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRaster, writeRaster } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Our GeoTIFFs against tifffile, a reader and writer independent of geotiff.js: files we write
 * read back there with the same values, georeference, no-data and EPSG code, and tiled,
 * zlib-compressed files written there (the layout GDAL produces) read here. Needs a Python with
 * tifffile (scikit-image brings it; CI installs it through .ci/run and sets CI=true, and then a
 * missing tifffile fails the test).
 */
function findPython(): string | null {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const candidates = [process.env.GEOFRAME_PYTHON, join(root, '.ci/venv/bin/python'), 'python3'];
  for (const python of candidates) {
    if (!python || (python.includes('/') && !existsSync(python))) continue;
    if (spawnSync(python, ['-c', 'import tifffile, numpy'], { encoding: 'utf8' }).status === 0) return python;
  }
  return null;
}

const python = findPython();
const script = fileURLToPath(new URL('./interop/geotiff_with_tifffile.py', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'geoframe-geotiff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Seen {
  width: number;
  height: number;
  dtype: string;
  values: (number | null)[];
  scale: number[];
  tiepoint: number[];
  nodata: string | null;
  epsg: number;
}

function values(count: number, seed: number): Float32Array {
  const rand = mulberry32(seed);
  return Float32Array.from({ length: count }, () => (rand() < 0.1 ? Number.NaN : Math.fround(100 * rand())));
}

describe.runIf(python !== null || process.env.CI === 'true')('GeoTIFF interop with tifffile', () => {
  it('tifffile is available (required in CI)', () => {
    expect(python, 'CI needs python with tifffile (.ci/run installs scikit-image)').not.toBeNull();
  });

  it('our f32 and i32 files read in tifffile with values, georeference, no-data and CRS', async () => {
    const v = values(41 * 27, 1);
    const path = join(dir, 'ours.tif');
    await writeRaster(path, {
      values: v,
      width: 41,
      height: 27,
      bounds: [350000, 4e6, 350000 + 41 * 30, 4e6 + 27 * 15],
      crs: 'EPSG:32632',
    });
    const seen: Seen = JSON.parse(
      execFileSync(python!, [script, 'read', path], { encoding: 'utf8', maxBuffer: 1 << 26 }),
    );
    expect([seen.width, seen.height, seen.dtype]).toEqual([41, 27, 'float32']);
    expect(seen.values).toEqual(Array.from(v, (x) => (Number.isNaN(x) ? -1 : x)));
    expect(seen.scale.slice(0, 2)).toEqual([30, 15]);
    expect(seen.tiepoint).toEqual([0, 0, 0, 350000, 4e6 + 27 * 15, 0]);
    expect(Number(seen.nodata)).toBe(-1);
    expect(seen.epsg).toBe(32632);

    const labels = Int32Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? -1 : i * 100_000));
    const ints = join(dir, 'labels.tif');
    await writeRaster(ints, { values: labels, width: 4, height: 3, bounds: [0, 0, 4, 3], crs: 'EPSG:4326' });
    const seenInts: Seen = JSON.parse(execFileSync(python!, [script, 'read', ints], { encoding: 'utf8' }));
    expect(seenInts.dtype).toBe('int32');
    expect(seenInts.values).toEqual([...labels]);
    expect(seenInts.epsg).toBe(4326);
  });

  it('tiled, zlib-compressed files from tifffile read here, no-data as NaN', async () => {
    const v = values(40 * 30, 2);
    const path = join(dir, 'theirs.tif');
    const spec = {
      width: 40,
      height: 30,
      values: Array.from(v, (x) => (Number.isNaN(x) ? null : x)),
      scale: [10, 20, 0],
      tiepoint: [0, 0, 0, 100, 900, 0],
      nodata: -9999,
      epsg: 32633,
    };
    execFileSync(python!, [script, 'write', path], { input: JSON.stringify(spec) });
    const back = await readRaster(path);
    expect([back.width, back.height]).toEqual([40, 30]);
    expect(back.bounds).toEqual([100, 900 - 30 * 20, 100 + 40 * 10, 900]);
    expect(back.crs).toBe('EPSG:32633');
    expect(back.values).toEqual(v);
  });
});
