// The `geoframe cvt` verb: files in, final points and cells out, a density raster, usage errors.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeoDataFrame, GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { writeRaster } from '../src/raster/geotiff-io.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-cvt-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('geoframe cvt', () => {
  it('writes the final points with their attributes, the cells and a picture', async () => {
    const xs = [0.1, 0.2, 0.25, 0.3, 0.7, 0.8];
    const ys = [0.1, 0.15, 0.3, 0.2, 0.6, 0.9];
    const sites = GeoDataFrame.fromSeries(GeoSeries.fromXY(xs, ys), {
      id: vectorFromArray([1, 2, 3, 4, 5, 6]),
    });
    await writeFile(sites, join(dir, 'sites.geojson'));
    await writeFile(GeoSeries.fromWKT(['POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))']), join(dir, 'region.geojson'));
    // more mass on the right half
    const values = new Float32Array(16).map((_, p) => (p % 4 >= 2 ? 5 : 1));
    await writeRaster(join(dir, 'density.tif'), { values, width: 4, height: 4, bounds: [0, 0, 1, 1] });
    const run = await cli(
      'cvt',
      join(dir, 'sites.geojson'),
      '--region',
      join(dir, 'region.geojson'),
      '--density',
      join(dir, 'density.tif'),
      '--method',
      'lbfgs',
      '--iterations',
      '30',
      '--device',
      'cpu',
      '-o',
      join(dir, 'out.geojson'),
      '--cells',
      join(dir, 'cells.geojson'),
      '--plot',
      join(dir, 'cvt.png'),
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/lbfgs \(exact\)/);
    const out = await readFile(join(dir, 'out.geojson'));
    expect(out.length).toBe(6);
    expect(out.columns).toContain('id');
    const moved = out.geometry.array.coords;
    const right = Array.from({ length: 6 }, (_, i) => moved[2 * i]).filter((x) => x > 0.5).length;
    expect(right).toBeGreaterThanOrEqual(4);
    expect((await readFile(join(dir, 'cells.geojson'))).length).toBe(6);
    expect(existsSync(join(dir, 'cvt.png'))).toBe(true);
    const box = await cli(
      'cvt',
      join(dir, 'sites.geojson'),
      '--region=0,0,1,1',
      '--mode',
      'raster',
      '--resolution',
      '32',
      '-o',
      join(dir, 'raster.parquet'),
    );
    expect(box.code).toBe(0);
    expect(box.out).toMatch(/centroidalVoronoi on CPU/);
  });

  it('answers bad usage with exit code 2 and bad input with 1', async () => {
    expect((await cli('cvt')).code).toBe(2);
    expect((await cli('cvt', join(dir, 'sites.geojson'), '--method', 'newton')).code).toBe(2);
    expect((await cli('cvt', join(dir, 'sites.geojson'), '--iterations', '0')).code).toBe(2);
    const outside = await cli(
      'cvt',
      join(dir, 'sites.geojson'),
      '--region=0,0,0.5,0.5',
      '-o',
      join(dir, 'x.parquet'),
    );
    expect(outside.code).toBe(1);
    expect(outside.err).toMatch(/row 4: site .* outside/);
    expect((await cli('cvt', '--help')).out).toContain('Usage: geoframe cvt');
  });
});
