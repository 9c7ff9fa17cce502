import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  crsLabel,
  GeometryType,
  geoArrowEncodingOf,
  geometryArrayFromArrow,
  geometryArrayToArrow,
  isGeoArrowField,
  readGeoArrowMetadata,
  validateGeometryArray,
} from '@geoframe/core';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { EXTENSION_METADATA_KEY } from '../src/arrow/extension-metadata.js';
import { geometryRows, parseSimpleWkt } from './arrow-test-support.js';

// Arrow IPC files written by GeoPandas (to_arrow, interleaved and separated) with the expected WKT.
const dir = new URL('../../geo/test/fixtures/geopandas/', import.meta.url);
const expected = JSON.parse(readFileSync(fileURLToPath(new URL('expected.json', dir)), 'utf8')) as Record<
  string,
  { wkt: (string | null)[]; crs: string }
>;
const TYPES: Record<string, GeometryType> = {
  point: GeometryType.Point,
  linestring: GeometryType.LineString,
  polygon: GeometryType.Polygon,
  multipoint: GeometryType.MultiPoint,
  multilinestring: GeometryType.MultiLineString,
  multipolygon: GeometryType.MultiPolygon,
};

describe.each(
  Object.keys(TYPES).flatMap((name) => [
    [name, 'interleaved'],
    [name, 'separated'],
  ]),
)('%s (%s)', (name, layout) => {
  const table = tableFromIPC(readFileSync(fileURLToPath(new URL(`${name}.${layout}.arrow`, dir))));
  const field = table.schema.fields.find((f) => f.name === 'geometry')!;
  const column = table.getChild('geometry')!;

  test('is recognised as a GeoArrow column; the others are not', () => {
    expect(isGeoArrowField(field)).toBe(true);
    expect(geoArrowEncodingOf(field)).toBe(TYPES[name]);
    for (const other of table.schema.fields.filter((f) => f.name !== 'geometry')) {
      expect(isGeoArrowField(other)).toBe(false);
    }
  });

  test('coordinates, nulls and empties match the WKT GeoPandas wrote', () => {
    const a = geometryArrayFromArrow(column, { field });
    expect(a.type).toBe(TYPES[name]);
    expect(a.dimension).toBe('xy');
    expect(a.length).toBe(expected[name].wkt.length);
    expect(geometryRows(a)).toEqual(expected[name].wkt.map(parseSimpleWkt));
    expect(a.nullCount()).toBe(expected[name].wkt.filter((w) => w === null).length);
    validateGeometryArray(a);
    // interleaved coordinates are read in place; separated ones are copied
    if (layout === 'interleaved') expect(a.coords.buffer).toBe(findValues(column.data[0]));
    else expect(a.coords.buffer).not.toBe(findValues(column.data[0]));
  });

  test('the CRS is EPSG:4326 PROJJSON and survives writing back', () => {
    const a = geometryArrayFromArrow(column, { field });
    expect(crsLabel(a.crs)).toBe(expected[name].crs);
    expect(typeof a.crs).toBe('object');
    expect(readGeoArrowMetadata(field).crs).toEqual(a.crs);
    const out = geometryArrayToArrow(a);
    const json = JSON.parse(out.field.metadata.get(EXTENSION_METADATA_KEY)!);
    expect(json.crs).toEqual(JSON.parse(field.metadata.get(EXTENSION_METADATA_KEY)!).crs);
    expect(json.crs_type).toBe('projjson');
    expect(geometryRows(geometryArrayFromArrow(out.data, { field: out.field }))).toEqual(geometryRows(a));
  });
});

/** The Float64 buffer at the bottom of a nested native column. */
function findValues(data: {
  children: readonly unknown[];
  values?: { buffer: ArrayBufferLike };
}): ArrayBufferLike {
  let d = data;
  while (d.children.length > 0) d = d.children[0] as typeof d;
  return d.values!.buffer;
}
