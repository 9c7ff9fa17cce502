import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile } from '@geoframe/geo';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { fixturePath } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('geoframe CLI', () => {
  it('lists its commands, and every command answers --help', async () => {
    const overview = await cli('--help');
    expect(overview.code).toBe(0);
    expect(overview.out).toMatch(/convert/);
    expect(overview.out).toMatch(/info/);
    for (const verb of ['convert', 'info']) {
      const help = await cli(verb, '--help');
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: geoframe ${verb}`);
    }
    expect((await cli()).code).toBe(2);
  });

  it('info describes a GeoParquet file, as text and as JSON', async () => {
    const path = fixturePath('geopandas/polygon.wkb.parquet');
    const text = await cli('info', path);
    expect(text.code).toBe(0);
    expect(text.out).toContain('rows:      4');
    expect(text.out).toContain('Polygon');
    expect(text.out).toContain('crs:       EPSG:4326');
    expect(text.out).toContain('bounds:    0 0 12 13');
    const json = JSON.parse((await cli('info', path, '--json')).out);
    expect(json.rows).toBe(4);
    expect(json.geometry).toMatchObject({
      column: 'geometry',
      types: ['Polygon'],
      nulls: 1,
      crs: 'EPSG:4326',
    });
    expect(json.geometry.bounds).toEqual([0, 0, 12, 13]);
    expect(json.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'label', 'geometry']);
  });

  it('convert writes every format and the result reads back', async () => {
    const input = fixturePath('geopandas/multipolygon.geoarrow.parquet');
    const source = await readFile(input);
    for (const name of ['out.geojson', 'out.arrow', 'out.parquet', 'native.parquet']) {
      const output = join(dir, name);
      const args = name === 'native.parquet' ? ['--encoding', 'geoarrow'] : [];
      const result = await cli('convert', input, output, ...args);
      expect(result.code, result.err).toBe(0);
      expect(result.out).toContain('4 rows');
      expect((await readFile(output)).geometry.toWKT()).toEqual(source.geometry.toWKT());
    }
  });

  it('errors print one line and exit non-zero', async () => {
    const missing = await cli('info', join(dir, 'missing.parquet'));
    expect(missing.code).toBe(1);
    expect(missing.err.trim().split('\n')).toHaveLength(1);
    expect(missing.err).toContain('missing.parquet');

    const unknown = await cli('convert', fixturePath('geopandas/point.wkb.parquet'), join(dir, 'x.shp'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/cannot tell the format of .*x\.shp/);

    const garbage = join(dir, 'garbage.parquet');
    writeFileSync(garbage, 'not a parquet file');
    const bad = await cli('info', garbage);
    expect(bad.code).toBe(1);
    expect(bad.err.trim().split('\n')).toHaveLength(1);

    const usage = await cli('convert', 'only-one-arg.geojson');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('--help');
    expect((await cli('info', '--bogus')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('the built binary runs', () => {
    const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    expect(existsSync(bin), 'run `pnpm build` first (the test script does)').toBe(true);
    const out = execFileSync(
      process.execPath,
      [bin, 'info', fixturePath('geopandas/point.interleaved.arrow')],
      {
        encoding: 'utf8',
      },
    );
    expect(out).toContain('rows:      4');
    const failed = spawnSync(process.execPath, [bin, 'info', join(dir, 'nope.arrow')], { encoding: 'utf8' });
    expect(failed.status).toBe(1);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
  });
});
