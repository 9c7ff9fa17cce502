// geoframe sjoin / to-crs / dissolve: what they write equals GeoPandas' sjoin, to_crs and
// dissolve on the same files; bad usage and mismatched CRS are clear errors with exit codes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crsLabel } from '@geoframe/core';
import { GeoDataFrame, GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { python, usePython } from './python-reference.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-verbs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const rand = mulberry32(5);
const n = 300;
// points in a UTM zone over a 4 × 3 grid of squares (edges shared: points on them touch two)
const x0 = 400_000;
const y0 = 5_000_000;
const wkt = Array.from({ length: n }, (_, i) =>
  i === 7
    ? null
    : i === 11
      ? `POINT (${x0 + 1000} ${y0 + 500})`
      : `POINT (${x0 + rand() * 4000} ${y0 + rand() * 3000})`,
);
const points = GeoDataFrame.fromSeries(GeoSeries.fromWKT(wkt, { crs: 'EPSG:32633' }), {
  pid: vectorFromArray(Int32Array.from({ length: n }, (_, i) => i)),
});
const squares: string[] = [];
for (let j = 0; j < 3; j++) {
  for (let i = 0; i < 4; i++) {
    const [a, b] = [x0 + 1000 * i, y0 + 1000 * j];
    squares.push(
      `POLYGON ((${a} ${b}, ${a + 1000} ${b}, ${a + 1000} ${b + 1000}, ${a} ${b + 1000}, ${a} ${b}))`,
    );
  }
}
const polygons = GeoDataFrame.fromSeries(GeoSeries.fromWKT(squares, { crs: 'EPSG:32633' }), {
  g: vectorFromArray(
    squares.map((_, k) => ['west', 'east'][Math.floor((k % 4) / 2)]),
    new Utf8(),
  ),
  gid: vectorFromArray(Int32Array.from(squares, (_, k) => k)),
});
const pointsPath = join(dir, 'points.parquet');
const polygonsPath = join(dir, 'polygons.parquet');

describe('geoframe sjoin, to-crs, dissolve', () => {
  beforeAll(async () => {
    await writeFile(points, pointsPath);
    await writeFile(polygons, polygonsPath);
  });

  it('answer --help and refuse bad usage with exit code 2', async () => {
    for (const verb of ['sjoin', 'to-crs', 'dissolve']) {
      const help = await cli(verb, '--help');
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: geoframe ${verb}`);
    }
    const noOutput = await cli('sjoin', pointsPath, polygonsPath);
    expect([noOutput.code, noOutput.err]).toEqual([2, expect.stringMatching(/needs -o <out>/)]);
    const how = await cli('sjoin', pointsPath, polygonsPath, '--how', 'outer', '-o', join(dir, 'x.parquet'));
    expect([how.code, how.err]).toEqual([
      2,
      expect.stringMatching(/--how must be inner, left, right, got "outer"/),
    ]);
    const predicate = await cli(
      'sjoin',
      pointsPath,
      polygonsPath,
      '--predicate',
      'near',
      '-o',
      join(dir, 'x.parquet'),
    );
    expect(predicate.err).toMatch(/--predicate must be intersects, .*got "near"/);
    const crs = await cli('to-crs', pointsPath, '-o', join(dir, 'x.parquet'));
    expect([crs.code, crs.err]).toEqual([2, expect.stringMatching(/needs --crs/)]);
    const agg = await cli('dissolve', polygonsPath, '--aggfunc', 'median', '-o', join(dir, 'x.parquet'));
    expect([agg.code, agg.err]).toEqual([2, expect.stringMatching(/--aggfunc must be first, last, sum/)]);
    const by = await cli('dissolve', polygonsPath, '--by', 'nope', '-o', join(dir, 'x.parquet'));
    expect([by.code, by.err]).toEqual([2, expect.stringMatching(/no column "nope"/)]);
  });

  it('refuse inputs in different CRS (exit 1, naming both) and an unknown CRS', async () => {
    const wgs = join(dir, 'points-4326.parquet');
    expect((await cli('to-crs', pointsPath, '--crs', 'EPSG:4326', '-o', wgs)).code).toBe(0);
    const mixed = await cli('sjoin', wgs, polygonsPath, '-o', join(dir, 'x.parquet'));
    expect(mixed.code).toBe(1);
    expect(mixed.err).toMatch(/different CRS \(EPSG:4326 and EPSG:32633\)/);
    const unknown = await cli('to-crs', pointsPath, '--crs', 'EPSG:999999', '-o', join(dir, 'x.parquet'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/999999/);
  });

  describe.runIf(usePython)('against GeoPandas on the same files', () => {
    // biome-ignore lint/suspicious/noExplicitAny: JSON from Python, checked below
    let theirs: any;
    beforeAll(() => {
      expect(python, 'CI needs python with geopandas (.ci/run installs it)').not.toBeNull();
      const script = fileURLToPath(new URL('./interop/cli_verbs.py', import.meta.url));
      theirs = JSON.parse(execFileSync(python!, [script, pointsPath, polygonsPath], { encoding: 'utf8' }));
    }, 60_000); // importing GeoPandas takes seconds on a loaded machine

    it('sjoin --predicate within, inner and left', async () => {
      for (const how of ['inner', 'left']) {
        const out = join(dir, `sjoin-${how}.arrow`);
        const run = await cli(
          'sjoin',
          pointsPath,
          polygonsPath,
          '--predicate',
          'within',
          '--how',
          how,
          '-o',
          out,
        );
        expect(run.code, run.err).toBe(0);
        expect(run.out).toMatch(/EPSG:32633/);
        const joined = await readFile(out);
        const pid = [...(joined.get('pid') as Iterable<number>)];
        const right = [...(joined.get('index_right') as Iterable<number | null>)];
        const pairs = pid
          .map((p, k) => [p, right[k]])
          .sort((a, b) => a[0]! - b[0]! || (a[1] ?? -1) - (b[1] ?? -1));
        expect(pairs).toEqual(theirs[`sjoin_${how}`]);
      }
    });

    it('to-crs EPSG:4326 agrees with pyproj to 1e-9 degrees', async () => {
      const out = join(dir, 'wgs.parquet');
      expect((await cli('to-crs', pointsPath, '--crs', 'EPSG:4326', '-o', out)).code).toBe(0);
      const moved = await readFile(out);
      expect(crsLabel(moved.crs)).toMatch(/4326|WGS 84/);
      const a = moved.geometry.array;
      theirs.to_crs.forEach((p: [number, number] | null, i: number) => {
        if (p === null) {
          expect(a.isNull(i)).toBe(true);
          return;
        }
        const [lo] = a.coordRange(i);
        expect(Math.abs(a.x(lo) - p[0])).toBeLessThan(1e-9);
        expect(Math.abs(a.y(lo) - p[1])).toBeLessThan(1e-9);
      });
    });

    it('dissolve --by g --aggfunc sum', async () => {
      const out = join(dir, 'dissolved.geojson');
      expect((await cli('dissolve', polygonsPath, '--by', 'g', '--aggfunc', 'sum', '-o', out)).code).toBe(0);
      const d = await readFile(out);
      expect([...(d.get('g') as Iterable<string>)]).toEqual(theirs.dissolve.g);
      expect([...(d.get('gid') as Iterable<bigint>)].map(Number)).toEqual(theirs.dissolve.gid);
      const area = d.area();
      theirs.dissolve.area.forEach((v: number, k: number) => {
        expect(area[k]).toBeCloseTo(v, 3);
      });
    });
  });
});
