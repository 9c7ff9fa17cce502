import { geoArrowEncodingOf, geometryArrayFromArrow, readGeoArrowMetadata } from '@geoframe/core';
import type { Table } from 'apache-arrow';
import { defaultPrimary, type GeoTable } from './geo-table.js';
import { GeometryStats } from './geometry-stats.js';
import { crsToGeoParquet } from './geoparquet-crs.js';
import { GEOPARQUET_VERSION, type GeoParquetColumn, type GeoParquetMetadata } from './geoparquet-metadata.js';

const NATIVE = new Set(['point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon']);

/**
 * The `geo` schema metadata GeoPandas' `read_feather` requires ("Missing geo metadata" without
 * it): GeoParquet's layout, one entry per geometry column GeoPandas can decode — WKB columns as
 * "WKB", native GeoArrow columns by their type name (interleaved or separated, both read by
 * GeoPandas 1.x). WKT columns are left out (GeoPandas has no WKT encoding; it reads them as
 * strings). Null when the table has no such column or its primary is not one.
 */
export function featherGeoMetadata(t: GeoTable): string | null {
  const columns: Record<string, GeoParquetColumn> = {};
  for (const field of t.table.schema.fields) {
    const encoding = geoArrowEncodingOf(field); // null for types GeoPandas cannot read either
    if (encoding === null) continue;
    const name = field.metadata.get('ARROW:extension:name') ?? '';
    const type = name.replace(/^geoarrow\./, '');
    const geoEncoding = encoding === 'wkb' ? 'WKB' : NATIVE.has(type) ? type : null;
    if (geoEncoding === null) continue;
    const stats = new GeometryStats();
    stats.add(geometryArrayFromArrow(columnOf(t.table, field.name), { field }));
    const entry: GeoParquetColumn = { encoding: geoEncoding, geometry_types: stats.geometryTypes() };
    const crs = crsToGeoParquet(readGeoArrowMetadata(field).crs);
    if (crs !== undefined) entry.crs = crs;
    const bbox = stats.bbox();
    if (bbox) entry.bbox = bbox;
    columns[field.name] = entry;
  }
  const primary = t.primary ?? defaultPrimary(Object.keys(columns));
  if (primary === null || !(primary in columns)) return null;
  const geo: GeoParquetMetadata = { version: GEOPARQUET_VERSION, primary_column: primary, columns };
  return JSON.stringify(geo);
}

function columnOf(table: Table, name: string) {
  return table.getChild(name)!;
}
