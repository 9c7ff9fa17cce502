import { readFileSync } from 'node:fs';
import { crsLabel, GeometryType, geometryArrayToArrow, UnsupportedInputError } from '@geoframe/core';
import { DataType, Field, Table, tableToIPC } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { tableFromColumns } from '../src/io/geo-table.js';
import { readParquetTable } from '../src/io/geoparquet-read.js';
import {
  type GeoParquetMetadata,
  type GeoTable,
  geoMetadataProblems,
  readArrowIpc,
  readGeoJson,
  readGeoParquet,
  writeArrowIpc,
  writeGeoJson,
  writeGeoParquet,
} from '../src/io/index.js';
import { ALL_TYPES, expectSameGeometries, geometryOf, geoTableOf, randomColumn } from './io-support.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/geopandas/${name}`, import.meta.url)));

async function geoOf(bytes: Uint8Array): Promise<GeoParquetMetadata> {
  return JSON.parse((await readParquetTable(bytes)).schema.metadata.get('geo')!);
}

function expectSameAttributes(actual: Table, expected: Table): void {
  for (const name of ['id', 'label']) {
    const a = actual.getChild(name)!;
    const e = expected.getChild(name)!;
    expect(
      Array.from({ length: a.length }, (_, i) => a.get(i)),
      name,
    ).toEqual(Array.from({ length: e.length }, (_, i) => e.get(i)));
  }
}

/** A plain Parquet file (no `geo` key) of an Arrow table. */
function plainParquet(table: Table, keyValue?: Map<string, string>): Uint8Array {
  const builder = new parquet.WriterPropertiesBuilder();
  const props = keyValue ? builder.setKeyValueMetadata(keyValue).build() : builder.build();
  return parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(table, 'stream')), props);
}

describe('GeoParquet ↔ GeoParquet ↔ IPC ↔ GeoJSON round trips', () => {
  it.each(ALL_TYPES)(
    'type %i keeps geometry bit-exact, CRS, nulls and attributes (xy, xyz)',
    async (type) => {
      for (const dimension of ['xy', 'xyz'] as const) {
        const array = randomColumn(type, dimension, 12, 100 + type * 7 + dimension.length, 'EPSG:4326');
        const t0 = geoTableOf(array);
        const check = (t: GeoTable, step: string) => {
          expect(t.primary, step).toBe('geometry');
          const g = geometryOf(t.table);
          expectSameGeometries(g, array);
          expect(crsLabel(g.crs), step).toBe('EPSG:4326');
          expectSameAttributes(t.table, t0.table);
        };
        const wkbBytes = await writeGeoParquet(t0, { encoding: 'wkb' });
        const t1 = await readGeoParquet(wkbBytes);
        check(t1, 'wkb parquet');
        const nativeBytes = await writeGeoParquet(t1, { encoding: 'geoarrow', compression: 'zstd' });
        const t2 = await readGeoParquet(nativeBytes);
        check(t2, 'native parquet');
        const t3 = readArrowIpc(writeArrowIpc(t2));
        check(t3, 'ipc file');
        const t4 = readArrowIpc(writeArrowIpc(t3, { format: 'stream' }));
        check(t4, 'ipc stream');
        const t5 = readGeoJson(writeGeoJson(t4));
        check(t5, 'geojson');
        const t6 = await readGeoParquet(await writeGeoParquet(t5, { compression: 'uncompressed' }));
        check(t6, 'back to parquet');
        for (const bytes of [wkbBytes, nativeBytes])
          expect(geoMetadataProblems(await geoOf(bytes))).toEqual([]);
      }
    },
  );

  it('reads GeoPandas files and writes them back with the same rows and CRS', async () => {
    for (const name of ['multipolygon.wkb.parquet', 'point.geoarrow.parquet', 'polygon.geoarrow.parquet']) {
      const t = await readGeoParquet(fixture(name));
      const back = await readGeoParquet(await writeGeoParquet(t, { encoding: 'geoarrow' }));
      expectSameGeometries(geometryOf(back.table), geometryOf(t.table));
      expect(geometryOf(back.table).crs).toEqual(geometryOf(t.table).crs);
      expect(crsLabel(geometryOf(back.table).crs)).toBe('EPSG:4326');
      expectSameAttributes(back.table, t.table);
    }
  });
});

describe('the geo metadata written', () => {
  it('is valid GeoParquet 1.1 with encoding, geometry_types and bbox from the data', async () => {
    const t = readGeoJson([
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 3],
            [0, 0],
          ],
        ],
      },
      null,
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [-1, 5],
              [2, 5],
              [2, 7],
              [-1, 5],
            ],
          ],
        ],
      },
      { type: 'MultiPolygon', coordinates: [] },
    ]);
    for (const encoding of ['wkb', 'geoarrow'] as const) {
      const geo = await geoOf(await writeGeoParquet(t, { encoding }));
      expect(geoMetadataProblems(geo)).toEqual([]);
      expect(geo.version).toBe('1.1.0');
      expect(geo.primary_column).toBe('geometry');
      const column = geo.columns.geometry;
      expect(column.encoding).toBe(encoding === 'wkb' ? 'WKB' : 'multipolygon');
      // the rows' own types (a native column holds the Polygon row as a one-part MultiPolygon)
      expect(column.geometry_types).toEqual(['Polygon', 'MultiPolygon']);
      expect(column.bbox).toEqual([-1, 0, 4, 7]);
      // GeoJSON reads as EPSG:4326, written as its PROJJSON
      expect((column.crs as { id: unknown }).id).toEqual({ authority: 'EPSG', code: 4326 });
    }
  });

  it('lists several types and Z, and writes mixed columns as WKB even when asked for native', async () => {
    const mixed = readGeoJson([
      {
        type: 'LineString',
        coordinates: [
          [0, 0, 1],
          [1, 1, 2],
        ],
      },
      { type: 'Point', coordinates: [5, -2, 3] },
    ]);
    const bytes = await writeGeoParquet(mixed, { encoding: 'geoarrow' });
    const column = (await geoOf(bytes)).columns.geometry;
    expect(column.encoding).toBe('WKB');
    expect(column.geometry_types).toEqual(['Point Z', 'LineString Z']);
    expect(column.bbox).toEqual([0, -2, 5, 1]);
    const back = geometryOf((await readGeoParquet(bytes)).table);
    expect(back.type).toBe('mixed');
    expect(back.dimension).toBe('xyz');
    expect(Array.from(back.coords)).toEqual([0, 0, 1, 1, 1, 2, 5, -2, 3]);
  });

  it('writes the CRS: PROJJSON as is, EPSG:4326 as PROJJSON, null explicitly, other codes as strings', async () => {
    const gp = await readGeoParquet(fixture('point.wkb.parquet'));
    const projjson = geometryOf(gp.table).crs;
    const cases: [unknown, (crs: unknown) => void, (crs: unknown) => void][] = [
      [projjson, (c) => expect(c).toEqual(projjson), (c) => expect(c).toEqual(projjson)],
      [
        'EPSG:4326',
        (c) => {
          expect(c).toMatchObject({
            type: 'GeographicCRS',
            name: 'WGS 84',
            id: { authority: 'EPSG', code: 4326 },
          });
        },
        (c) => expect(crsLabel(c as never)).toBe('EPSG:4326'),
      ],
      [null, (c) => expect(c).toBeNull(), (c) => expect(c).toBeNull()],
      ['EPSG:3857', (c) => expect(c).toBe('EPSG:3857'), (c) => expect(c).toBe('EPSG:3857')],
    ];
    for (const [crs, written, read] of cases) {
      const array = randomColumn(GeometryType.Point, 'xy', 4, 1, crs as never);
      const bytes = await writeGeoParquet(geoTableOf(array));
      const column = (await geoOf(bytes)).columns.geometry;
      expect('crs' in column).toBe(true);
      written(column.crs);
      read(geometryOf((await readGeoParquet(bytes)).table).crs);
    }
  });

  it('keeps spherical edges', async () => {
    const t = geoTableOf(randomColumn(GeometryType.LineString, 'xy', 4, 2, 'OGC:CRS84'));
    const fields = t.table.schema.fields.map((f) => {
      if (f.name !== 'geometry') return f;
      const meta = new Map(f.metadata).set(
        'ARROW:extension:metadata',
        '{"crs":"OGC:CRS84","edges":"spherical"}',
      );
      return new Field(f.name, f.type, true, meta);
    });
    const table = tableFromColumns(fields, t.table.batches[0].data.children.slice(), t.table.numRows);
    const bytes = await writeGeoParquet({ table, primary: 'geometry' });
    expect((await geoOf(bytes)).columns.geometry.edges).toBe('spherical');
    const back = (await readGeoParquet(bytes)).table.schema.fields.find((f) => f.name === 'geometry')!;
    expect(JSON.parse(back.metadata.get('ARROW:extension:metadata')!).edges).toBe('spherical');
  });
});

describe('GeoParquet layouts and edge cases', () => {
  it('writes native columns with separated coordinates and WKB as Binary, extension names kept', async () => {
    const t = geoTableOf(randomColumn(GeometryType.MultiPolygon, 'xyz', 5, 3, 'OGC:CRS84'));
    const native = (await readParquetTable(await writeGeoParquet(t, { encoding: 'geoarrow' }))).schema
      .fields[2];
    expect(String(native.type)).toBe('List<List<List<Struct<{x:Float64, y:Float64, z:Float64}>>>>');
    expect(native.metadata.get('ARROW:extension:name')).toBe('geoarrow.multipolygon');
    const wkb = (await readParquetTable(await writeGeoParquet(t))).schema.fields[2];
    expect(DataType.isBinary(wkb.type)).toBe(true);
    expect(wkb.metadata.get('ARROW:extension:name')).toBe('geoarrow.wkb');
  });

  it('writes sliced tables, zero rows and small row groups', async () => {
    const array = randomColumn(GeometryType.Polygon, 'xy', 20, 4, 'OGC:CRS84');
    const t = geoTableOf(array);
    for (const encoding of ['wkb', 'geoarrow'] as const) {
      const sliced: GeoTable = { table: t.table.slice(3, 17), primary: 'geometry' };
      const back = await readGeoParquet(await writeGeoParquet(sliced, { encoding, rowGroupSize: 4 }));
      expectSameGeometries(geometryOf(back.table), array.slice(3, 17));
      expectSameAttributes(back.table, sliced.table);
      const empty = await readGeoParquet(
        await writeGeoParquet({ table: t.table.slice(0, 0), primary: 'geometry' }, { encoding }),
      );
      expect(empty.table.numRows).toBe(0);
      expect(empty.primary).toBe('geometry');
    }
    await expect(writeGeoParquet(t, { rowGroupSize: 0 })).rejects.toThrow(RangeError);
  });

  it('makes batches of different decoded types agree', async () => {
    const polygons = readGeoJson([
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 1],
            [0, 0],
          ],
        ],
      },
    ]);
    const multis = readGeoJson([
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [5, 5],
              [6, 5],
              [5, 6],
              [5, 5],
            ],
          ],
        ],
      },
    ]);
    const asWkb = (g: GeoTable) => {
      const { field, data } = geometryArrayToArrow(geometryOf(g.table), { encoding: 'wkb' });
      return tableFromColumns([field], [data], g.table.numRows);
    };
    const a = asWkb(polygons);
    const table = new Table([...a.batches, ...asWkb(multis).batches]);
    expect(table.batches.length).toBe(2);
    const bytes = await writeGeoParquet({ table, primary: 'geometry' }, { encoding: 'geoarrow' });
    expect((await geoOf(bytes)).columns.geometry.encoding).toBe('multipolygon');
    const back = geometryOf((await readGeoParquet(bytes)).table);
    expect(back.type).toBe(GeometryType.MultiPolygon);
    expect(back.length).toBe(2);
    expect(Array.from(back.coords)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 5, 5, 6, 5, 5, 6, 5, 5]);
  });
});

describe('GeoParquet errors and files without geo metadata', () => {
  it('refuses bytes that are not Parquet', async () => {
    await expect(readGeoParquet(new Uint8Array([1, 2, 3]))).rejects.toThrow(UnsupportedInputError);
    await expect(readGeoParquet(fixture('point.interleaved.arrow'))).rejects.toThrow(/not a Parquet file/);
    const corrupt = fixture('point.wkb.parquet').slice();
    corrupt.fill(7, 4, corrupt.length - 8);
    await expect(readGeoParquet(corrupt)).rejects.toThrow(UnsupportedInputError);
  });

  it('opens Parquet without geo metadata: GeoArrow-annotated columns are geometry, plain binary is not', async () => {
    const t = geoTableOf(randomColumn(GeometryType.Point, 'xy', 4, 9, 'OGC:CRS84'));
    const plain = await readGeoParquet(plainParquet(t.table.select(['id', 'label'])));
    expect(plain.primary).toBeNull();
    expect(plain.table.schema.fields.map((f) => f.name)).toEqual(['id', 'label']);
    const annotated = await readGeoParquet(plainParquet(t.table));
    expect(annotated.primary).toBe('geometry');
    expectSameGeometries(geometryOf(annotated.table), geometryOf(t.table));
    const wkb = geometryArrayToArrow(geometryOf(t.table), { encoding: 'wkb' });
    const bare = tableFromColumns([new Field('geometry', wkb.data.type, true)], [wkb.data], 4);
    const unannotated = await readGeoParquet(plainParquet(bare));
    expect(unannotated.primary).toBeNull();
    expect(DataType.isBinary(unannotated.table.schema.fields[0].type)).toBe(true);
  });

  it('refuses an unknown encoding, a missing column and a table without geometry', async () => {
    const t = geoTableOf(randomColumn(GeometryType.Point, 'xy', 4, 9, 'OGC:CRS84'));
    const bad = (columns: object) =>
      plainParquet(
        t.table,
        new Map([['geo', JSON.stringify({ version: '1.1.0', primary_column: 'geometry', columns })]]),
      );
    await expect(
      readGeoParquet(bad({ geometry: { encoding: 'geoarrow.box', geometry_types: [] } })),
    ).rejects.toThrow(/column "geometry": unsupported encoding "geoarrow.box"/);
    await expect(readGeoParquet(bad({ nowhere: { encoding: 'WKB', geometry_types: [] } }))).rejects.toThrow(
      /lists column "nowhere"/,
    );
    await expect(writeGeoParquet({ table: t.table.select(['id']), primary: null })).rejects.toThrow(
      /needs a geometry column/,
    );
  });

  it('validates geo metadata', () => {
    expect(geoMetadataProblems({ version: '1.1.0', primary_column: 'g', columns: {} })).toEqual([
      'columns is empty',
      'primary_column g is not in columns',
    ]);
    const problems = geoMetadataProblems({
      version: 1,
      primary_column: 'g',
      columns: { g: { encoding: 'wkb', geometry_types: ['Pointy'], crs: 'EPSG:4326', bbox: [0, 1] } },
    });
    expect(problems).toEqual([
      'version is not a string',
      'columns.g.encoding wkb is not WKB or a native encoding',
      'columns.g.geometry_types has "Pointy"',
      'columns.g.crs is not a PROJJSON object or null',
      'columns.g.bbox is not 4 or 6 numbers',
    ]);
  });
});
