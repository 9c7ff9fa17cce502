import { isGeoArrowField } from '@geoframe/core';
import { type Data, type Field, Table, type Vector } from 'apache-arrow';
import { makeTable } from './make-table.js';
import { takeColumn } from './take-column.js';

/** The Arrow pieces of a frame's active geometry: the series' column and its name. */
interface GeometryColumn {
  readonly name: string | null;
  readonly length: number;
  toArrow(): { field: Field; data: Data };
}

/** "geometry" if that column is GeoArrow, else the first GeoArrow column, else null. */
export function defaultGeometryName(table: Table): string | null {
  const geo = table.schema.fields.filter((f) => isGeoArrowField(f));
  return (geo.find((f) => f.name === 'geometry') ?? geo[0])?.name ?? null;
}

/** The encoding a geometry column is written back in: WKB and WKT stay so, native stays native. */
export function encodingOf(field: Field): 'native' | 'wkb' | 'wkt' {
  const name = field.metadata.get('ARROW:extension:name');
  if (name === 'geoarrow.wkb' || name === 'ogc.wkb') return 'wkb';
  if (name === 'geoarrow.wkt' || name === 'ogc.wkt') return 'wkt';
  return 'native';
}

/** A vector's data as one chunk (gathered when it has several). */
export function singleChunk(vector: Vector): Data {
  if (vector.data.length === 1) return vector.data[0];
  return takeColumn(
    vector,
    Array.from({ length: vector.length }, (_, i) => i),
  );
}

/**
 * The table of `GeoDataFrame.fromSeries`: the attribute columns (Arrow vectors of the series'
 * length) then the geometry, named after the series ("geometry" when it has no name).
 */
export function seriesTable(
  geometry: GeometryColumn,
  columns: Record<string, Vector>,
): { table: Table; name: string } {
  const name = geometry.name ?? 'geometry';
  const { field, data } = geometry.toArrow();
  const fields: Field[] = [];
  const datas: Data[] = [];
  for (const [key, vector] of Object.entries(columns)) {
    if (vector.length !== geometry.length) {
      throw new RangeError(
        `fromSeries: column ${key} has ${vector.length} rows, the geometry ${geometry.length}`,
      );
    }
    const table = new Table({ [key]: vector });
    fields.push(table.schema.fields[0]);
    datas.push(singleChunk(vector));
  }
  fields.push(field.name === name ? field : field.clone({ name }));
  datas.push(data);
  return { table: makeTable(fields, datas), name };
}
