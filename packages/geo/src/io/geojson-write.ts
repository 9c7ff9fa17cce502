import { geometryArrayFromArrow, readGeoArrowMetadata } from '@geoframe/core';
import { type Data, DataType, type Field, makeVector, type Vector } from 'apache-arrow';
import { type GeoTable, geometryEncodingOfField } from './geo-table.js';
import { geoJsonCrsMember } from './geojson-crs.js';
import { GeoJsonGeometryWriter, numberFormat } from './geojson-format.js';
import { FEATURE_ID_KEY, JSON_COLUMN_KEY } from './geojson-properties.js';

/** Options of {@link writeGeoJson}. */
export interface WriteGeoJsonOptions {
  /** Digits after the decimal point for coordinates; default: exact (shortest round-trip text). */
  precision?: number;
}

function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

/** JSON text of one property value as Arrow's `get` returns it. */
function formatValue(value: unknown, field: Field): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'bigint':
      // the exact decimal digits, even beyond 2^53
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) return 'null';
      if (DataType.isTimestamp(field.type) || DataType.isDate(field.type)) {
        return JSON.stringify(new Date(value).toISOString());
      }
      return String(value);
    case 'boolean':
      return String(value);
    case 'string':
      return JSON.stringify(value);
    default:
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      return JSON.stringify(value, jsonReplacer) ?? 'null';
  }
}

/** JSON text of row `i` of a non-geometry column. */
function propertyWriter(field: Field, data: Data): (i: number) => string {
  const vector: Vector = makeVector(data);
  if (field.metadata.get(JSON_COLUMN_KEY) === 'true' && DataType.isUtf8(field.type)) {
    // JSON text columns (see readGeoJson): re-serialized to be sure the output stays valid JSON
    return (i) => {
      const text = vector.get(i) as string | null;
      return text === null ? 'null' : JSON.stringify(JSON.parse(text));
    };
  }
  return (i) => formatValue(vector.get(i), field);
}

/**
 * Writes a {@link GeoTable} as a GeoJSON FeatureCollection (RFC 7946) text.
 *
 * Each row is a Feature: `geometry` from the primary column (null rows → `null`, empty
 * geometries → `"coordinates": []`, Z as a third number, M dropped), `properties` from every
 * non-geometry column, and `id` from the column marked `geoframe:feature_id` (as
 * {@link readGeoJson} makes it), if any. Other geometry columns are written as GeoJSON geometry
 * objects inside `properties`. Numbers: doubles exactly (shortest round-trip text; `precision`
 * rounds coordinates only), Int64 as exact integer literals, NaN and infinities as null; dates
 * and timestamps as ISO 8601 strings; `geoframe:json` text columns as the JSON they hold; other
 * nested values through their JSON form.
 *
 * Coordinates are never transformed. For WGS 84 (EPSG:4326, OGC:CRS84) or an unknown CRS no `crs`
 * member is written (RFC 7946); for another authority code the legacy `crs` member names it as an
 * OGC URN, as GDAL (and so GeoPandas' `to_file`) writes it, and {@link readGeoJson} reads it back.
 */
export function writeGeoJson(t: GeoTable, options: WriteGeoJsonOptions = {}): string {
  const num = numberFormat(options.precision);
  const fields = t.table.schema.fields;
  const primary = t.primary === null ? -1 : fields.findIndex((f) => f.name === t.primary);
  if (t.primary !== null && primary < 0) {
    throw new RangeError(`writeGeoJson: the primary geometry column "${t.primary}" is not in the table`);
  }
  const isGeometry = fields.map((f) => geometryEncodingOfField(f) !== null);
  if (primary >= 0 && !isGeometry[primary]) {
    throw new RangeError(`writeGeoJson: column "${t.primary}" is not a GeoArrow geometry column`);
  }
  const idColumn = fields.findIndex((f, c) => f.metadata.get(FEATURE_ID_KEY) === 'true' && !isGeometry[c]);
  const keys = fields.map((f) => `${JSON.stringify(f.name)}:`);
  const features: string[] = [];
  for (const batch of t.table.batches) {
    const columns = batch.data.children;
    const writers = fields.map((field, c) => {
      if (!isGeometry[c]) return propertyWriter(field, columns[c]);
      const g = new GeoJsonGeometryWriter(geometryArrayFromArrow(columns[c], { field }), num);
      return (i: number) => g.geometry(i);
    });
    for (let i = 0; i < batch.numRows; i++) {
      const props: string[] = [];
      for (let c = 0; c < fields.length; c++) {
        if (c !== primary && c !== idColumn) props.push(keys[c] + writers[c](i));
      }
      const id = idColumn >= 0 ? writers[idColumn](i) : 'null';
      const head = idColumn >= 0 && id !== 'null' ? `{"type":"Feature","id":${id},` : '{"type":"Feature",';
      const geometry = primary >= 0 ? writers[primary](i) : 'null';
      features.push(`${head}"properties":{${props.join(',')}},"geometry":${geometry}}`);
    }
  }
  const crs = primary >= 0 ? geoJsonCrsMember(readGeoArrowMetadata(fields[primary]).crs ?? null) : null;
  const crsMember = crs === null ? '' : `"crs":${crs},`;
  return `{"type":"FeatureCollection",${crsMember}"features":[${features.join(',\n')}]}`;
}
