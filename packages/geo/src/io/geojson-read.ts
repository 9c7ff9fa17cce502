import { geometryArrayToArrow, UnsupportedInputError } from '@geoframe/core';
import type { Data, Field } from 'apache-arrow';
import type { GeoTable } from './geo-table.js';
import { tableFromColumns } from './geo-table.js';
import { crsOfGeoJson } from './geojson-crs.js';
import { buildGeometries, scanGeometries } from './geojson-geometry.js';
import { buildPropertyColumn, FEATURE_ID_KEY } from './geojson-properties.js';

interface FeatureRecord {
  geometry: unknown;
  properties: Record<string, unknown> | null;
  id: unknown;
}

const GEOMETRY_TYPES = new Set([
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
]);

function asRecord(item: unknown, index: number): FeatureRecord {
  if (item === null || item === undefined) return { geometry: null, properties: null, id: undefined };
  if (typeof item !== 'object' || Array.isArray(item)) {
    throw new UnsupportedInputError(`GeoJSON feature ${index}: not a Feature or Geometry object`);
  }
  const o = item as Record<string, unknown>;
  if (o.type === 'Feature') {
    const p = o.properties;
    if (p !== null && p !== undefined && (typeof p !== 'object' || Array.isArray(p))) {
      throw new UnsupportedInputError(`GeoJSON feature ${index}: properties is not an object`);
    }
    return { geometry: o.geometry ?? null, properties: (p as Record<string, unknown>) ?? null, id: o.id };
  }
  if (typeof o.type === 'string' && GEOMETRY_TYPES.has(o.type)) {
    return { geometry: o, properties: null, id: undefined };
  }
  throw new UnsupportedInputError(`GeoJSON feature ${index}: unknown type ${JSON.stringify(o.type)}`);
}

function featuresOf(input: unknown): FeatureRecord[] {
  if (Array.isArray(input)) return input.map(asRecord);
  if (input === null || typeof input !== 'object') {
    throw new UnsupportedInputError('GeoJSON input is not an object or an array');
  }
  const o = input as Record<string, unknown>;
  if (o.type === 'FeatureCollection') {
    if (!Array.isArray(o.features))
      throw new UnsupportedInputError('GeoJSON FeatureCollection has no features array');
    return o.features.map(asRecord);
  }
  return [asRecord(o, 0)];
}

function uniqueName(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  let k = 1;
  while (taken.has(`${base}_${k}`)) k++;
  return `${base}_${k}`;
}

/**
 * Reads GeoJSON (RFC 7946) into a {@link GeoTable}: a FeatureCollection, a single Feature, a bare
 * Geometry, or an array of Features/Geometries (null items are null geometries), as text or as an
 * already parsed object.
 *
 * Columns, in order: `id` when any feature has an `id` (named `feature_id` if a property is
 * called `id`; its field carries `geoframe:feature_id` so {@link writeGeoJson} writes it back as
 * the feature id), then the properties in order of first appearance, then `geometry` (renamed
 * `geometry_1`, … if a property has that name). Property columns are typed from their values:
 * integers within ±(2^53 − 1) → Int64 (as GeoPandas does), other numbers → Float64 (a JSON `1.0`
 * parses as the integer 1), strings → Utf8, booleans → Bool, a property absent or null in some
 * features → null there, no value in any feature → Null type; objects, arrays and mixes of JSON
 * types → Utf8 JSON text marked `geoframe:json`.
 *
 * The geometry column is native GeoArrow: one type → that type, a type and its Multi type → the
 * Multi type, otherwise (several types, or no geometry at all) geoarrow.wkb. A third coordinate
 * anywhere makes it xyz (2D positions get z = NaN); further values are ignored. `null` geometry →
 * null row; `"coordinates": []` → empty geometry. CRS: the legacy `crs` member if the file has one
 * (GDAL writes it for data not in WGS 84), else EPSG:4326 — what GeoPandas reports for GeoJSON
 * (RFC 7946's OGC:CRS84 is the same datum, longitude first, as GeoJSON is always read).
 *
 * Throws UnsupportedInputError naming the feature index for a GeometryCollection, an unknown
 * type, malformed coordinates or invalid JSON.
 */
export function readGeoJson(input: string | object): GeoTable {
  let parsed: unknown = input;
  if (typeof input === 'string') {
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      throw new UnsupportedInputError(`GeoJSON input is not valid JSON: ${(error as Error).message}`);
    }
  }
  const features = featuresOf(parsed);
  const n = features.length;
  const geometries = features.map((f) => f.geometry);
  const scan = scanGeometries(geometries);

  const keys: string[] = [];
  const seenKeys = new Set<string>();
  for (const f of features) {
    if (!f.properties) continue;
    for (const k of Object.keys(f.properties)) {
      if (!seenKeys.has(k)) {
        seenKeys.add(k);
        keys.push(k);
      }
    }
  }
  const fields: Field[] = [];
  const columns: Data[] = [];
  const taken = new Set(keys);
  if (features.some((f) => f.id !== undefined && f.id !== null)) {
    const name = uniqueName(taken.has('id') ? 'feature_id' : 'id', taken);
    taken.add(name);
    const { field, data } = buildPropertyColumn(
      name,
      features.map((f) => f.id),
      new Map([[FEATURE_ID_KEY, 'true']]),
    );
    fields.push(field);
    columns.push(data);
  }
  for (const key of keys) {
    const { field, data } = buildPropertyColumn(
      key,
      features.map((f) => (f.properties ? f.properties[key] : undefined)),
    );
    fields.push(field);
    columns.push(data);
  }
  const geometryName = uniqueName('geometry', taken);
  const array = buildGeometries(geometries, scan, crsOfGeoJson(parsed));
  const geometry = geometryArrayToArrow(array, { name: geometryName, encoding: 'native' });
  fields.push(geometry.field);
  columns.push(geometry.data);
  return { table: tableFromColumns(fields, columns, n), primary: geometryName };
}
