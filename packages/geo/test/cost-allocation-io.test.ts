import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeoDataFrame, readFile, readRaster, writeFile, writeRaster } from '@geoframe/geo';
import { mulberry32 } from '@geoframe/testing';
import { writeArrayBuffer } from 'geotiff';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'geoframe-cost-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** A 30 × 20 cost surface over [500000, 4100000] + 30 m pixels: a river of barriers with two bridges. */
function surface() {
  const width = 30;
  const height = 20;
  const rand = mulberry32(21);
  const values = new Float32Array(width * height);
  for (let i = 0; i < values.length; i++) {
    const col = i % width;
    const row = Math.floor(i / width);
    values[i] = col === 15 && row !== 4 && row !== 15 ? Number.NaN : 1 + 3 * rand();
  }
  const bounds = [500000, 4100000, 500000 + 30 * width, 4100000 + 30 * height] as const;
  return { values, width, height, bounds, crs: 'EPSG:32633' };
}

describe('GeoTIFF', () => {
  it('round trip: values, NaN barriers through no-data, bounds and CRS', async () => {
    const r = surface();
    const path = join(dir, 'cost.tif');
    await writeRaster(path, r);
    const back = await readRaster(path);
    expect([back.width, back.height]).toEqual([30, 20]);
    expect(back.bounds).toEqual([...r.bounds]);
    expect(back.crs).toBe('EPSG:32633');
    expect(back.values).toEqual(r.values); // NaN equals NaN here
  });

  it('Int32 labels keep −1 as no-data (read back as NaN)', async () => {
    const path = join(dir, 'labels.tif');
    const values = Int32Array.from({ length: 12 }, (_, i) => (i % 5 === 0 ? -1 : i));
    await writeRaster(path, { values, width: 4, height: 3, bounds: [0, 0, 4, 3] });
    const back = await readRaster(path);
    expect(Array.from(back.values, (v) => (Number.isNaN(v) ? -1 : v))).toEqual([...values]);
    expect(back.crs).toBeNull();
  });

  it('reads an unrotated ModelTransformation and shifts pixel-is-point files half a pixel', async () => {
    const affine = join(dir, 'affine.tif');
    writeFileSync(
      affine,
      new Uint8Array(
        writeArrayBuffer(Float32Array.from([1, 2, 3, 4, 5, 6]), {
          width: 3,
          height: 2,
          ModelTransformation: [2, 0, 0, 10, 0, -4, 0, 20, 0, 0, 0, 0, 0, 0, 0, 1],
          ProjectedCSTypeGeoKey: 32633,
        }),
      ),
    );
    const a = await readRaster(affine);
    expect(a.bounds).toEqual([10, 12, 16, 20]);
    expect([...a.values]).toEqual([1, 2, 3, 4, 5, 6]);
    const point = join(dir, 'point.tif');
    writeFileSync(
      point,
      new Uint8Array(
        writeArrayBuffer(Float32Array.from([1, 2, 3, 4, 5, 6]), {
          width: 3,
          height: 2,
          ModelPixelScale: [2, 4, 0],
          ModelTiepoint: [0, 0, 0, 11, 18, 0],
          GTRasterTypeGeoKey: 2,
          ProjectedCSTypeGeoKey: 32633,
        }),
      ),
    );
    expect((await readRaster(point)).bounds).toEqual([10, 12, 16, 20]);
  });

  it('rejects a rotated transform and a multi-band file, naming the file', async () => {
    const rotated = join(dir, 'rotated.tif');
    const tiff = writeArrayBuffer(new Float32Array(6).fill(1), {
      width: 3,
      height: 2,
      ModelTransformation: [1, 0.2, 0, 10, 0.1, -1, 0, 20, 0, 0, 0, 0, 0, 0, 0, 1],
      ProjectedCSTypeGeoKey: 32633,
    });
    writeFileSync(rotated, new Uint8Array(tiff));
    await expect(readRaster(rotated)).rejects.toThrow(/rotated\.tif: has a rotated or sheared transform/);
    const rgb = join(dir, 'rgb.tif');
    writeFileSync(
      rgb,
      new Uint8Array(
        writeArrayBuffer(new Uint8Array(18), {
          width: 3,
          height: 2,
          BitsPerSample: [8, 8, 8],
          ModelPixelScale: [1, 1, 0],
          ModelTiepoint: [0, 0, 0, 0, 2, 0],
          ProjectedCSTypeGeoKey: 32633,
        }),
      ),
    );
    await expect(readRaster(rgb)).rejects.toThrow(/rgb\.tif: has 3 bands/);
  });
});

describe('geoframe cost-allocation', () => {
  it('end to end: polygons with attributes, labels and cost GeoTIFFs, a PNG', async () => {
    const r = surface();
    await writeRaster(join(dir, 'surface.tif'), r);
    const sites = GeoDataFrame.fromGeoJSON({
      type: 'FeatureCollection',
      features: [
        [500100, 4100500, 'west'],
        [500800, 4100100, 'east'],
        [500700, 4100550, 'north-east'],
      ].map(([x, y, name]) => ({
        type: 'Feature',
        properties: { name },
        geometry: { type: 'Point', coordinates: [x, y] },
      })),
    });
    await writeFile(sites, join(dir, 'sites.parquet'));
    const out = join(dir, 'areas.parquet');
    const {
      code,
      out: text,
      err,
    } = await cli([
      'cost-allocation',
      join(dir, 'sites.parquet'),
      '--cost',
      join(dir, 'surface.tif'),
      '-o',
      out,
      '--png',
      join(dir, 'areas.png'),
      '--labels',
      join(dir, 'labels.tif'),
      '--cost-out',
      join(dir, 'cost-out.tif'),
      '--device',
      'cpu',
    ]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(text).toMatch(/ran costAllocation on CPU for 600 cells/);
    const areas = await readFile(out);
    expect(areas.length).toBe(3);
    expect(JSON.stringify(areas.table.getChild('name')?.toArray())).toBe('["west","east","north-east"]');
    const direct = await sites.costAllocation({
      cost: await readRaster(join(dir, 'surface.tif')),
      device: 'cpu',
    });
    const labels = await readRaster(join(dir, 'labels.tif'));
    expect(Array.from(labels.values, (v) => (Number.isNaN(v) ? -1 : v))).toEqual([...direct.labels]);
    const cost = await readRaster(join(dir, 'cost-out.tif'));
    expect(Array.from(cost.values, (v) => (Number.isNaN(v) ? Infinity : v))).toEqual([...direct.cost]);
    const total = areas.area().reduce((a, b) => a + b, 0);
    const open = r.values.filter((v) => !Number.isNaN(v)).length;
    expect(total).toBeCloseTo(open * 900, 6);
    expect(existsSync(join(dir, 'areas.png'))).toBe(true);
  });

  it('--metric compliance, --connectivity 16 and --max-cost reach the operation', async () => {
    const r = surface();
    await writeRaster(join(dir, 'surface3.tif'), r);
    const sites = GeoDataFrame.fromGeoJSON({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [500100, 4100300] } },
      ],
    });
    await writeFile(sites, join(dir, 'one.parquet'));
    const labelsPath = join(dir, 'labels3.tif');
    const run = await cli([
      'cost-allocation',
      join(dir, 'one.parquet'),
      '--cost',
      join(dir, 'surface3.tif'),
      '-o',
      join(dir, 'one-out.geojson'),
      '--labels',
      labelsPath,
      '--metric',
      'compliance',
      '--connectivity',
      '16',
      '--max-cost',
      '200',
    ]);
    expect(run.err).toBe('');
    const direct = await sites.costAllocation({
      cost: await readRaster(join(dir, 'surface3.tif')),
      metric: 'compliance',
      connectivity: 16,
      maxCost: 200,
    });
    expect(direct.labels.includes(-1)).toBe(true);
    const labels = await readRaster(labelsPath);
    expect(Array.from(labels.values, (v) => (Number.isNaN(v) ? -1 : v))).toEqual([...direct.labels]);
  });

  it('answers --help and names the file in errors', async () => {
    const help = await cli(['cost-allocation', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--cost <file\.tif>/);
    expect((await cli(['cost-allocation', 'x.parquet'])).err).toMatch(/needs --cost/);
    const r = surface();
    await writeRaster(join(dir, 'surface2.tif'), r);
    const far = GeoDataFrame.fromGeoJSON({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [0, 0] } }],
    });
    await writeFile(far, join(dir, 'far.parquet'));
    const bad = await cli(['cost-allocation', join(dir, 'far.parquet'), '--cost', join(dir, 'surface2.tif')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/far\.parquet: row 0: point \(0, 0\) lies outside the cost raster/);
    const missing = await cli(['cost-allocation', join(dir, 'far.parquet'), '--cost', join(dir, 'nope.tif')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.tif/);
    expect(
      (await cli(['cost-allocation', 'a.parquet', '--cost', 'c.tif', '--connectivity', '6'])).err,
    ).toMatch(/--connectivity must be 4, 8 or 16/);
  });
});
