import {
  GeometryType,
  geoArrowEncodingOf,
  isGeoArrowField,
  readGeoArrowMetadata,
  UnsupportedInputError,
} from '@geoframe/core';
import { Binary, Field, Utf8 } from 'apache-arrow';
import { expect, test } from 'vitest';
import {
  crsTypeOf,
  EXTENSION_METADATA_KEY,
  EXTENSION_NAME_KEY,
  encodingOfExtensionName,
  geoArrowMetadataJson,
  parseGeoArrowMetadata,
} from '../src/arrow/extension-metadata.js';

const field = (name?: string, metadata?: string) => {
  const m = new Map<string, string>();
  if (name !== undefined) m.set(EXTENSION_NAME_KEY, name);
  if (metadata !== undefined) m.set(EXTENSION_METADATA_KEY, metadata);
  return new Field('g', new Binary(), true, m);
};

test('metadata keys are the Arrow extension keys', () => {
  expect(EXTENSION_NAME_KEY).toBe('ARROW:extension:name');
  expect(EXTENSION_METADATA_KEY).toBe('ARROW:extension:metadata');
});

test('extension names map to encodings', () => {
  expect(encodingOfExtensionName('geoarrow.point')).toBe(GeometryType.Point);
  expect(encodingOfExtensionName('geoarrow.multipolygon')).toBe(GeometryType.MultiPolygon);
  expect(encodingOfExtensionName('geoarrow.wkb')).toBe('wkb');
  expect(encodingOfExtensionName('ogc.wkb')).toBe('wkb');
  expect(encodingOfExtensionName('geoarrow.wkt')).toBe('wkt');
  expect(encodingOfExtensionName('ogc.wkt')).toBe('wkt');
  expect(encodingOfExtensionName('geoarrow.box')).toBeUndefined();
  expect(encodingOfExtensionName('arrow.uuid')).toBeUndefined();
  expect(encodingOfExtensionName(undefined)).toBeUndefined();
  expect(geoArrowEncodingOf(field('geoarrow.linestring'))).toBe(GeometryType.LineString);
  expect(geoArrowEncodingOf(field())).toBeNull();
  expect(isGeoArrowField(field('geoarrow.wkt'))).toBe(true);
  expect(isGeoArrowField(field('geoarrow.geometry'))).toBe(false);
  expect(isGeoArrowField(new Field('name', new Utf8(), true))).toBe(false);
});

test('reading metadata: absent, empty, PROJJSON, strings, crs_type and edges', () => {
  expect(readGeoArrowMetadata(field('geoarrow.wkb'))).toEqual({ crs: null });
  expect(readGeoArrowMetadata(field('geoarrow.wkb', ''))).toEqual({ crs: null });
  expect(readGeoArrowMetadata(field('geoarrow.wkb', '{}'))).toEqual({ crs: null });
  expect(readGeoArrowMetadata(field('geoarrow.wkb', '{"crs": null}'))).toEqual({ crs: null });
  const projjson = {
    type: 'ProjectedCRS',
    name: 'WGS 84 / UTM zone 33N',
    id: { authority: 'EPSG', code: 32633 },
  };
  expect(readGeoArrowMetadata(field('geoarrow.wkb', JSON.stringify({ crs: projjson })))).toEqual({
    crs: projjson,
  });
  expect(
    readGeoArrowMetadata(
      field(
        'geoarrow.wkb',
        JSON.stringify({ crs: 'OGC:CRS84', crs_type: 'authority_code', edges: 'spherical' }),
      ),
    ),
  ).toEqual({ crs: 'OGC:CRS84', crsType: 'authority_code', edges: 'spherical' });
  // PROJJSON sent as a string with crs_type projjson is parsed
  expect(
    parseGeoArrowMetadata(JSON.stringify({ crs: JSON.stringify(projjson), crs_type: 'projjson' })),
  ).toEqual({
    crs: projjson,
    crsType: 'projjson',
  });
  // a numeric SRID becomes its string
  expect(parseGeoArrowMetadata('{"crs": 4326, "crs_type": "srid"}')).toEqual({
    crs: '4326',
    crsType: 'srid',
  });
});

test('malformed metadata is refused', () => {
  expect(() => parseGeoArrowMetadata('not json')).toThrow(UnsupportedInputError);
  expect(() => parseGeoArrowMetadata('[1, 2]')).toThrow(UnsupportedInputError);
  expect(() => parseGeoArrowMetadata('{"crs": [1]}')).toThrow(UnsupportedInputError);
  expect(() => parseGeoArrowMetadata('{"crs": true}')).toThrow(UnsupportedInputError);
});

test('writing metadata JSON', () => {
  expect(geoArrowMetadataJson(null)).toBe('{}');
  expect(JSON.parse(geoArrowMetadataJson({ name: 'x' }))).toEqual({
    crs: { name: 'x' },
    crs_type: 'projjson',
  });
  expect(JSON.parse(geoArrowMetadataJson('EPSG:4326'))).toEqual({
    crs: 'EPSG:4326',
    crs_type: 'authority_code',
  });
  expect(JSON.parse(geoArrowMetadataJson('EPSG:4326', undefined, 'spherical'))).toEqual({
    crs: 'EPSG:4326',
    crs_type: 'authority_code',
    edges: 'spherical',
  });
  expect(crsTypeOf('4326')).toBe('srid');
  expect(crsTypeOf('PROJCRS["x", BASEGEOGCRS["y"]]')).toBe('wkt2:2019');
  expect(crsTypeOf('+proj=longlat')).toBeUndefined();
  expect(crsTypeOf(null)).toBeUndefined();
});
