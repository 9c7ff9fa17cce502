// Files GeoPandas writes (Feather uncompressed/LZ4/Zstandard, Shapefile files and zip, FlatGeobuf
// with and without index, GeoPackage) read through readFile equal what GeoPandas reads back from
// them: columns, types, values, nulls, geometry, CRS. And what we write (.fgb, .arrow) opens in
// GeoPandas with the same content. Fixtures are written by GeoPandas at test time, seeded.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GeoDataFrame, GeoSeries, readFile, writeFile } from '@geoframe/geo';
import { Type } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { python, usePython } from './python-reference.js';

const script = fileURLToPath(new URL('./interop/vector_formats.py', import.meta.url));
const run = (args: string[], input = '') =>
  JSON.parse(execFileSync(python!, [script, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 }));

interface Described {
  columns: string[];
  geometry: string;
  dtypes: Record<string, string>;
  data: Record<string, unknown[]>;
  wkb: (string | null)[];
  epsg: number | null;
  error?: string;
}

const DTYPES: Partial<Record<Type, string>> = {
  [Type.Float]: 'float64',
  [Type.Bool]: 'bool',
  [Type.Utf8]: 'str',
  [Type.LargeUtf8]: 'str',
};

function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && Number.isNaN(v)) return null;
  return v ?? null;
}

/** Our frame described as vector_formats.py describes GeoPandas' (the CRS as a string, resolved later). */
function describe_(
  f: GeoDataFrame,
): Omit<Described, 'epsg' | 'wkb'> & { wkt: (string | null)[]; crs: unknown } {
  const data: Record<string, unknown[]> = {};
  const dtypes: Record<string, string> = {};
  for (const field of f.table.schema.fields) {
    if (field.name === f.geometryName) continue;
    data[field.name] = [...(f.get(field.name) as Iterable<unknown>)].map(plain);
    const t = field.type as { typeId: Type; bitWidth?: number };
    dtypes[field.name] =
      t.typeId === Type.Int ? `int${t.bitWidth}` : (DTYPES[t.typeId] ?? String(field.type));
  }
  // WKT through our reader on both sides: the same coordinates give the same text
  return { columns: f.columns, geometry: f.geometryName, dtypes, data, wkt: f.geometry.toWKT(), crs: f.crs };
}

/** GeoPandas' WKB as WKT written by us (full precision on both sides). */
function wktOf(wkb: (string | null)[]): (string | null)[] {
  const bytes = wkb.map((h) => (h === null ? null : Uint8Array.from(Buffer.from(h, 'hex'))));
  return GeoSeries.fromWKB(bytes, { validate: false }).toWKT();
}

let dir: string;
let answers: Record<string, Described>;
const ours = new Map<string, GeoDataFrame>();

describe.runIf(usePython)('vector formats GeoPandas writes, read by readFile', () => {
  beforeAll(async () => {
    expect(python, 'CI needs python with geopandas (.ci/run installs it)').not.toBeNull();
    dir = mkdtempSync(join(tmpdir(), 'geoframe-formats-'));
    answers = run(['write', dir]);
    for (const path of Object.keys(answers)) ours.set(path, await readFile(path));
  }, 60_000); // GeoPandas writes 32 files
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every file: same columns, types, values, nulls, geometry and CRS as GeoPandas reads', () => {
    const paths = Object.keys(answers);
    expect(paths.length).toBe(2 * 2 * 8);
    const described = paths.map((p) => describe_(ours.get(p)!));
    const epsg: (number | null)[] = run(['epsg'], JSON.stringify(described.map((d) => d.crs)));
    paths.forEach((path, i) => {
      const theirs = answers[path];
      const mine = described[i];
      const label = path.slice(dir.length + 1);
      expect(mine.columns, label).toEqual(theirs.columns);
      expect(mine.geometry, label).toBe(theirs.geometry);
      expect(mine.dtypes, label).toEqual(theirs.dtypes);
      expect(mine.data, label).toEqual(theirs.data);
      expect(mine.wkt, label).toEqual(wktOf(theirs.wkb));
      expect(epsg[i], label).toBe(theirs.epsg);
    });
  });

  it('what we write as .fgb and .arrow opens in GeoPandas with the same content', {
    timeout: 30_000,
  }, async () => {
    const written: string[] = [];
    const sources: string[] = [];
    for (const [path, frame] of ours) {
      if (!path.endsWith('.gpkg')) continue;
      for (const ext of ['.fgb', '.arrow']) {
        const out = `${path}.ours${ext}`;
        // FlatGeobuf holds no null geometry: those rows are left out, as GDAL requires
        const data =
          ext === '.fgb'
            ? frame.filter(Array.from({ length: frame.length }, (_, i) => !frame.geometry.array.isNull(i)))
            : frame;
        await writeFile(data, out);
        written.push(out);
        sources.push(path);
      }
    }
    const back: Record<string, Described> = run(['check', ...written]);
    written.forEach((out, k) => {
      const theirs = back[out];
      expect(theirs.error, out).toBeUndefined();
      const original = answers[sources[k]];
      const keep = original.wkb.map((w) => w !== null || !out.endsWith('.fgb'));
      expect(theirs.columns, out).toEqual(original.columns);
      expect(theirs.dtypes, out).toEqual(original.dtypes);
      for (const c of Object.keys(original.data)) {
        expect(theirs.data[c], `${out} ${c}`).toEqual(original.data[c].filter((_, i) => keep[i]));
      }
      expect(wktOf(theirs.wkb), out).toEqual(wktOf(original.wkb.filter((_, i) => keep[i])));
      expect(theirs.epsg, out).toBe(original.epsg);
    });
  });
});

describe('vector formats: bad input gets a clear error', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'geoframe-bad-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  it.each([
    ['bad.fgb', /not a FlatGeobuf file/],
    ['bad.gpkg', /not a GeoPackage/],
    ['bad.zip', /not a readable zip|holds no \.shp/],
    ['bad.feather', /not an Arrow IPC/],
  ])('%s', async (name, message) => {
    const path = join(tmp, name);
    writeFileSync(path, 'definitely not that format');
    await expect(readFile(path)).rejects.toThrow(message);
  });
  it('refuses to write formats it only reads, and a CRS FlatGeobuf cannot name', async () => {
    const s = GeoSeries.fromWKT(['POINT (1 2)'], { crs: 'EPSG:3857' });
    await expect(writeFile(s, join(tmp, 'a.shp'))).rejects.toThrow(/reads Shapefile but does not write it/);
    await expect(writeFile(s, join(tmp, 'a.gpkg'))).rejects.toThrow(/does not write it/);
    const custom = GeoSeries.fromWKT(['POINT (1 2)'], {
      crs: '+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9996 +x_0=500000 +y_0=0 +ellps=GRS80 +units=m',
    });
    await expect(writeFile(custom, join(tmp, 'a.fgb'))).rejects.toThrow(/has no EPSG code/);
    const nulls = GeoSeries.fromWKT(['POINT (1 2)', null], { crs: 'EPSG:3857' });
    await expect(writeFile(nulls, join(tmp, 'b.fgb'))).rejects.toThrow(/row 1 has no geometry/);
  });
});
