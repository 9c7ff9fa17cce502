import { readFileSync } from 'node:fs';
import { GeometryType, geometryArrayToArrow, UnsupportedInputError } from '@geoframe/core';
import { Field } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { tableFromColumns } from '../src/io/geo-table.js';
import { readArrowIpc, writeArrowIpc } from '../src/io/index.js';
import { expectSameGeometries, geometryOf, geoTableOf, randomColumn } from './io-support.js';

const ARROW1 = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31];

describe('Arrow IPC', () => {
  it('writes the file format by default and the stream format on request; reads both', () => {
    const array = randomColumn(GeometryType.MultiLineString, 'xyz', 7, 11, 'OGC:CRS84');
    const t = geoTableOf(array);
    const file = writeArrowIpc(t);
    const stream = writeArrowIpc(t, { format: 'stream' });
    expect(Array.from(file.subarray(0, 6))).toEqual(ARROW1);
    expect(Array.from(stream.subarray(0, 6))).not.toEqual(ARROW1);
    for (const bytes of [file, stream]) {
      const back = readArrowIpc(bytes);
      expect(back.primary).toBe('geometry');
      expectSameGeometries(geometryOf(back.table), array);
      expect(back.table.schema.fields[2].metadata.get('ARROW:extension:name')).toBe(
        'geoarrow.multilinestring',
      );
    }
  });

  it('leaves separated and WKB columns as they are', () => {
    const separated = readArrowIpc(
      new Uint8Array(readFileSync(new URL('./fixtures/geopandas/polygon.separated.arrow', import.meta.url))),
    );
    expect(String(separated.table.schema.fields[2].type)).toBe('List<List<Struct<{x:Float64, y:Float64}>>>');
    const wkb = geometryArrayToArrow(randomColumn(GeometryType.Point, 'xy', 3, 1, null), { encoding: 'wkb' });
    const back = readArrowIpc(
      writeArrowIpc({ table: tableFromColumns([wkb.field], [wkb.data], 3), primary: 'geometry' }),
    );
    expect(back.table.schema.fields[0].metadata.get('ARROW:extension:name')).toBe('geoarrow.wkb');
    expect(back.primary).toBe('geometry');
  });

  it('takes "geometry" as primary, else the first geometry column, else none', () => {
    const a = geometryArrayToArrow(randomColumn(GeometryType.Point, 'xy', 2, 1, null), { name: 'a' });
    const b = geometryArrayToArrow(randomColumn(GeometryType.Point, 'xy', 2, 2, null), { name: 'geometry' });
    const c = geometryArrayToArrow(randomColumn(GeometryType.Point, 'xy', 2, 3, null), { name: 'c' });
    const primaryOf = (fields: Field[], data: (typeof a.data)[]) =>
      readArrowIpc(writeArrowIpc({ table: tableFromColumns(fields, data, 2), primary: null })).primary;
    expect(primaryOf([a.field, b.field, c.field], [a.data, b.data, c.data])).toBe('geometry');
    expect(primaryOf([c.field, a.field], [c.data, a.data])).toBe('c');
    const plain = new Field('x', a.data.type, true);
    expect(primaryOf([plain], [a.data])).toBeNull();
  });

  it('refuses bytes that are not Arrow IPC and GeoArrow types it cannot read', () => {
    expect(() => readArrowIpc(new Uint8Array([1, 2, 3]))).toThrow(UnsupportedInputError);
    expect(() => readArrowIpc(new TextEncoder().encode('PAR1 definitely not arrow'))).toThrow(
      /not an Arrow IPC/,
    );
    const a = geometryArrayToArrow(randomColumn(GeometryType.Point, 'xy', 2, 1, null), { name: 'box' });
    const box = new Field('box', a.data.type, true, new Map([['ARROW:extension:name', 'geoarrow.box']]));
    const bytes = writeArrowIpc({ table: tableFromColumns([box], [a.data], 2), primary: null });
    expect(() => readArrowIpc(bytes)).toThrow(
      /column "box": the GeoArrow type geoarrow.box is not supported/,
    );
  });
});
