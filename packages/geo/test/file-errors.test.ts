import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileError, type GeoframeError, InvalidGeometryError } from '@geoframe/core';
import { GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { python, runPython, usePython } from './python-reference.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-file-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

async function failure(work: () => Promise<unknown>): Promise<Error> {
  try {
    await work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

const points = GeoSeries.fromXY([0, 4, 1, 3], [0, 1, 4, 3]);

describe('file errors name the file', () => {
  it('missing, a folder, unknown extension, bytes of another format, corrupt', async () => {
    const cases: [string, string, RegExp][] = [];
    cases.push([join(dir, 'missing.parquet'), 'FILE_NOT_FOUND', /no such file/]);
    const folder = join(dir, 'folder.geojson');
    mkdirSync(folder);
    cases.push([folder, 'FILE_READ_FAILED', /is a folder/]);
    cases.push([join(dir, 'data.csv'), 'UNKNOWN_FORMAT', /cannot tell the format/]);
    const geojsonAsParquet = join(dir, 'really-geojson.parquet');
    writeFileSync(geojsonAsParquet, '{"type": "FeatureCollection", "features": []}');
    cases.push([geojsonAsParquet, 'UNSUPPORTED_INPUT', /not a readable GeoParquet file/]);
    const good = join(dir, 'good.parquet');
    await writeFile(points, good);
    const truncated = join(dir, 'truncated.parquet');
    const bytes = readFileSync(good);
    writeFileSync(
      truncated,
      Buffer.concat([bytes.subarray(0, bytes.length >> 1), bytes.subarray(bytes.length - 8)]),
    );
    cases.push([truncated, 'UNSUPPORTED_INPUT', /not a readable GeoParquet file/]);
    const badJson = join(dir, 'bad.geojson');
    writeFileSync(badJson, '{"type": "FeatureCollection", "features": [');
    cases.push([badJson, 'UNSUPPORTED_INPUT', /not a readable GeoJSON file/]);
    const badArrow = join(dir, 'bad.arrow');
    writeFileSync(badArrow, 'ARROW1 but not really');
    cases.push([badArrow, '', /not a readable GeoArrow IPC file/]);
    for (const [path, code, problem] of cases) {
      const error = await failure(() => readFile(path));
      expect(error, path).toBeInstanceOf(FileError);
      if (code !== '') expect((error as FileError).code, path).toBe(code);
      expect((error as FileError).path).toBe(path);
      expect(error.message.startsWith(`${path}: `), error.message).toBe(true);
      expect(error.message).toMatch(problem);
      // the CLI prints it as a user error, never an "unexpected error"
      const run = await cli('convert', path, join(dir, 'out.geojson'));
      expect(run.code).toBe(1);
      expect(run.err).toContain(path);
      expect(run.err).not.toMatch(/unexpected/);
    }
  });

  it('writeFile checks the format before it writes; a missing folder names the path', async () => {
    const unknown = await failure(() => writeFile(points, join(dir, 'cells.kml')));
    expect(unknown).toBeInstanceOf(FileError);
    expect((unknown as FileError).code).toBe('UNKNOWN_FORMAT');
    const nowhere = join(dir, 'no-such-folder', 'cells.parquet');
    const missing = await failure(() => writeFile(points, nowhere));
    expect(missing).toBeInstanceOf(FileError);
    expect(missing.message).toBe(`${nowhere}: its folder does not exist`);
  });

  it('the CLI validates outputs before it reads or computes anything', async () => {
    // the input does not exist: an output error reported first proves nothing was read
    const absent = join(dir, 'absent.geojson');
    const badOut = await cli('voronoi', absent, '-o', join(dir, 'cells.txt'));
    expect(badOut.code).toBe(1);
    expect(badOut.err).toMatch(/cells\.txt: cannot tell the format/);
    const badPlot = await cli('voronoi', absent, '--plot', join(dir, 'cells.gif'));
    expect(badPlot.code).toBe(2);
    expect(badPlot.err).toMatch(/--plot must end in \.svg or \.png/);
    const noFolder = await cli('delaunay', absent, '-o', join(dir, 'none', 'tri.parquet'));
    expect(noFolder.err).toMatch(/tri\.parquet: its folder does not exist/);
    const badTolerance = await cli('voronoi', absent, '--tolerance', '-1');
    expect(badTolerance.code).toBe(2);
    expect((await cli('voronoi', absent)).err).toMatch(/absent\.geojson: no such file/);
  });

  it('a finite coordinate whose clip box overflows names its row', async () => {
    const huge = GeoSeries.fromXY([0, 1, 1e308, 2], [0, 1, 5, 3]);
    const error = await failure(() => huge.voronoiPolygons({ device: 'cpu' }));
    expect(error).toBeInstanceOf(InvalidGeometryError);
    expect((error as InvalidGeometryError).row).toBe(2);
    expect(error.message).toMatch(/^row 2: coordinate 1e\+308 is finite, but the Voronoi clip box/);
    expect(() => huge.explain('voronoiPolygons')).toThrow(InvalidGeometryError);
    // the same data in the CLI: a user error naming the row
    const path = join(dir, 'huge.geojson');
    await writeFile(huge, path);
    const run = await cli('voronoi', path, '-o', join(dir, 'huge-cells.parquet'));
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/row 2: coordinate 1e\+308/);
    expect(run.err).not.toMatch(/unexpected/);
    const wide = await cli('voronoi', path, '--extend-to=-1e308,0,1e308,1');
    expect(wide.code).toBe(2);
    expect(wide.err).toMatch(/--extend-to spans more than the largest double/);
    // an extendTo whose span overflows is refused too; a large one runs while the cells stay exact
    // (a box up to 2^380 times the sites' magnitude, adr/0021), beyond that a named range error
    await expect(points.voronoiPolygons({ extendTo: [-1e308, 0, 1e308, 1] })).rejects.toThrow(RangeError);
    expect((await points.voronoiPolygons({ extendTo: [-1e100, 0, 1e100, 1] })).length).toBe(4);
    await expect(points.voronoiPolygons({ extendTo: [-1e307, 0, 1e307, 1] })).rejects.toThrow(
      /cannot be computed exactly/,
    );
  });
});

describe.runIf(usePython)('GeoParquet as GeoPandas writes and reads it', () => {
  it('GeoPandas is available (required in CI)', () => {
    expect(python, 'CI needs python with geopandas (.ci/run installs it)').not.toBeNull();
  });

  it('a Parquet file without geo metadata is a user error here, as in GeoPandas', async () => {
    const path = join(dir, 'plain.parquet');
    const { geopandas } = runPython<{ geopandas: string | null }>('geoparquet_semantics.py', null, [
      'write-plain',
      path,
    ]);
    expect(geopandas).toMatch(/geo metadata/i);
    const error = await failure(() => readFile(path));
    expect(error).toBeInstanceOf(FileError);
    expect((error as GeoframeError).code).toBe('NO_GEOMETRY');
    expect(error.message).toBe(
      `${path}: no geometry column: the file has no GeoParquet "geo" metadata and no GeoArrow column (columns: id, geometry)`,
    );
    const run = await cli('info', path);
    expect(run.err).not.toMatch(/unexpected/);
  });

  it('mixed Polygon/MultiPolygon rows keep their types; our file carries geo in the Arrow schema, no stale pandas', async () => {
    const theirs = join(dir, 'mixed-geopandas.parquet');
    const { types } = runPython<{ types: (string | null)[] }>('geoparquet_semantics.py', null, [
      'write-mixed',
      theirs,
    ]);
    const frame = await readFile(theirs);
    expect(frame.geometry.geomType).toEqual(types);
    expect(frame.table.schema.metadata.has('pandas')).toBe(true); // GeoPandas wrote its index there
    for (const encoding of ['wkb', 'geoarrow'] as const) {
      const ours = join(dir, `mixed-ours-${encoding}.parquet`);
      await writeFile(frame, ours, { encoding });
      const seen = runPython<{
        schema_keys: string[];
        kv_keys: string[];
        schema_geo: { primary_column: string } | null;
        types: (string | null)[];
      }>('geoparquet_semantics.py', null, ['inspect', ours]);
      expect(seen.schema_keys, encoding).toContain('geo');
      expect(seen.schema_keys, encoding).not.toContain('pandas');
      expect(seen.kv_keys, encoding).toContain('geo');
      expect(seen.schema_geo?.primary_column).toBe('geometry');
      // WKB keeps every row's type; a native encoding holds Polygon rows as MultiPolygons (as GeoPandas writes them)
      const expected = encoding === 'wkb' ? types : types.map((t) => (t === 'Polygon' ? 'MultiPolygon' : t));
      expect(seen.types, encoding).toEqual(expected);
      expect((await readFile(ours)).geometry.geomType, encoding).toEqual(expected);
    }
  });
});
