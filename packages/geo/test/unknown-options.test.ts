import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOptions } from '@geoframe/core';
import { GeoDataFrame, GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const points = GeoSeries.fromXY([0, 4, 1, 3], [0, 1, 4, 3]);
const frame = GeoDataFrame.fromSeries(points);
beforeAll(() => writeFile(points, join(dir, 'in.geojson')));

/** Every public call with an options object, given one unknown key (`bad`) beside known ones. */
const calls: [string, (bad: Record<string, unknown>) => unknown][] = [
  ['voronoiPolygons', (bad) => points.voronoiPolygons({ device: 'cpu', ...bad })],
  ['voronoiPolygons', (bad) => frame.voronoiPolygons({ ordered: true, ...bad })],
  ['delaunayTriangles', (bad) => points.delaunayTriangles({ onlyEdges: true, ...bad })],
  ['delaunayTriangles', (bad) => frame.delaunayTriangles({ ...bad })],
  ['voronoiRaster', (bad) => points.voronoiRaster({ width: 8, height: 8, ...bad })],
  ['voronoiVolume', (bad) => points.voronoiVolume({ dims: [4, 4, 4], z: 0, ...bad })],
  ['voronoiPolygons', (bad) => points.explain('voronoiPolygons', { ...bad })],
  ['delaunayTriangles', (bad) => frame.explain('delaunayTriangles', { ...bad })],
  ['voronoiRaster', (bad) => points.explain('voronoiRaster', { width: 2, height: 2, ...bad })],
  ['plot', (bad) => points.plot({ width: 100, ...bad })],
  ['plot', (bad) => frame.plotPng({ ...bad })],
  ['writeFile', (bad) => writeFile(points, join(dir, 'out.parquet'), { compression: 'zstd', ...bad })],
  ['fromXY', (bad) => GeoSeries.fromXY([1], [2], { crs: 'EPSG:4326', ...bad })],
  ['fromWKT', (bad) => GeoSeries.fromWKT(['POINT (1 2)'], { ...bad })],
  ['fromArrow', (bad) => GeoDataFrame.fromArrow(frame.table, { validate: true, ...bad })],
  ['toWKT', (bad) => points.toWKT({ precision: 3, ...bad })],
  ['toArrow', (bad) => points.toArrow({ ...bad })],
  ['readFile', async (bad) => readFile(join(dir, 'in.geojson'), { ...bad } as Record<string, never>)],
  [
    'toPNG',
    async (bad) => (await points.voronoiRaster({ width: 8, height: 8 })).toPNG({ siteRadius: 1, ...bad }),
  ],
];

async function thrown(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('unknown options are an error', () => {
  for (const [where, call] of calls) {
    it(`${where}: a snake_case key names itself, its camelCase and the known keys`, async () => {
      const error = await thrown(() => call({ extend_to: [0, 0, 1, 1], only_edges: true, site_radius: 1 }));
      expect(error).toBeInstanceOf(TypeError);
      const message = (error as Error).message;
      expect(message).toMatch(new RegExp(`^${where}: unknown option "(extend_to|only_edges|site_radius)"`));
      expect(message).toContain('known options: ');
      // the same call without the unknown key runs
      expect(await thrown(() => call({}))).toBeUndefined();
    });
  }

  it('did you mean: camelCase of snake_case and case-folded spellings; none for a stranger', () => {
    const known = ['extendTo', 'onlyEdges', 'device'];
    expect(() => checkOptions({ extend_to: 1 }, known, 'op')).toThrow(
      'op: unknown option "extend_to" (did you mean extendTo?); known options: extendTo, onlyEdges, device',
    );
    expect(() => checkOptions({ ONLYEDGES: true }, known, 'op')).toThrow('(did you mean onlyEdges?)');
    expect(() => checkOptions({ colour: 'red' }, known, 'op')).toThrow(/unknown option "colour"; known/);
    // a misspelt key is refused even with an undefined value
    expect(() => checkOptions({ devise: undefined }, known, 'op')).toThrow(TypeError);
    expect(() => checkOptions('cpu', known, 'op')).toThrow('op: options must be an object, got string');
    expect(() => checkOptions(null, known, 'op')).toThrow(TypeError);
    expect(() => checkOptions(undefined, known, 'op')).not.toThrow();
    expect(() => checkOptions({ device: 'cpu', extendTo: undefined }, known, 'op')).not.toThrow();
  });

  it('voronoiPolygons names the GeoPandas spelling the user reached for', async () => {
    await expect(points.voronoiPolygons({ extend_to: [0, 0, 9, 9] } as never)).rejects.toThrow(
      /unknown option "extend_to" \(did you mean extendTo\?\); known options: tolerance, extendTo, onlyEdges, ordered, clipTo, device/,
    );
  });
});
