import { readFileSync } from 'node:fs';
import { crsLabel, formatWkt, GeometryType } from '@geoframe/core';
import { DataType } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { readArrowIpc, readGeoParquet } from '../src/io/index.js';
import { geometryOf } from './io-support.js';

const dir = new URL('./fixtures/geopandas/', import.meta.url);
const expected: Record<string, { wkt: (string | null)[]; crs: string }> = JSON.parse(
  readFileSync(new URL('expected.json', dir), 'utf8'),
);
const TYPES: Record<string, GeometryType> = {
  point: GeometryType.Point,
  linestring: GeometryType.LineString,
  polygon: GeometryType.Polygon,
  multipoint: GeometryType.MultiPoint,
  multilinestring: GeometryType.MultiLineString,
  multipolygon: GeometryType.MultiPolygon,
};
const bytes = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));

describe.each(Object.keys(expected))('GeoPandas %s fixtures', (type) => {
  const want = expected[type];
  it.each(['wkb.parquet', 'geoarrow.parquet', 'interleaved.arrow', 'separated.arrow'])('%s', async (kind) => {
    const name = `${type}.${kind}`;
    const t = kind.endsWith('.parquet') ? await readGeoParquet(bytes(name)) : readArrowIpc(bytes(name));
    expect(t.primary).toBe('geometry');
    expect(t.table.schema.fields.map((f) => f.name)).toEqual(['id', 'label', 'geometry']);
    expect(t.table.numRows).toBe(want.wkt.length);
    const id = t.table.getChild('id')!;
    expect(DataType.isInt(id.type) && id.type.bitWidth === 64).toBe(true);
    expect([...id.toArray()].map(Number)).toEqual([0, 1, 2, 3]);
    const labels = Array.from({ length: 4 }, (_, i) => t.table.getChild('label')!.get(i));
    expect(labels.every((l) => typeof l === 'string')).toBe(true);

    const field = t.table.schema.fields[2];
    // GeoParquet columns come back native and interleaved; IPC columns as GeoPandas wrote them
    expect(field.metadata.get('ARROW:extension:name')).toBe(`geoarrow.${type}`);
    if (kind.endsWith('.parquet') || kind === 'interleaved.arrow') {
      const coords = type === 'point' ? field.type : innermost(field.type);
      expect(DataType.isFixedSizeList(coords)).toBe(true);
    }
    const array = geometryOf(t.table);
    expect(array.type).toBe(TYPES[type]);
    expect(crsLabel(array.crs)).toBe(want.crs);
    expect(array.isNull(1)).toBe(true);
    expect(array.nullCount()).toBe(1);
    const emptyRow = want.wkt.findIndex((w) => w?.endsWith('EMPTY'));
    expect(array.isEmpty(emptyRow)).toBe(true);
    expect(want.wkt.map((_, i) => formatWkt(array, i))).toEqual(want.wkt);
  });
});

function innermost(type: DataType): DataType {
  let t = type;
  while (DataType.isList(t)) t = t.children[0].type;
  return t;
}
