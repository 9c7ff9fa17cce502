import { type Crs, type GeometryArray, geometryArrayFromArrow, geometryArrayToArrow } from '@geoframe/core';
import {
  Binary,
  Bool,
  type Data,
  type DataType,
  Field,
  Float64,
  Int32,
  Int64,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { type GeoTable, tableFromColumns } from './geo-table.js';
import { readGeoJson } from './geojson-read.js';

/** The attribute types the vector formats' readers produce (each format's types map onto these). */
export type AttributeKind = 'int32' | 'int64' | 'float64' | 'bool' | 'utf8' | 'timestamp' | 'binary';

/** One attribute column being read: its name, kind, and one value (or null) per row. */
export interface AttributeColumn {
  name: string;
  kind: AttributeKind;
  values: unknown[];
}

const TYPES: Record<AttributeKind, () => DataType> = {
  int32: () => new Int32(),
  int64: () => new Int64(),
  float64: () => new Float64(),
  bool: () => new Bool(),
  utf8: () => new Utf8(),
  timestamp: () => new TimestampMillisecond(),
  binary: () => new Binary(),
};

/** A column's values as Arrow data of its kind (NaN and undefined are null; int64 as bigint). */
function attributeData(column: AttributeColumn): Data {
  const values = column.values.map((v) => {
    if (v === undefined || (typeof v === 'number' && Number.isNaN(v))) return null;
    if (column.kind === 'int64' && typeof v === 'number') return BigInt(v);
    if (column.kind === 'timestamp' && v !== null && !(v instanceof Date)) return new Date(v as string);
    return v;
  });
  return vectorFromArray(values, TYPES[column.kind]()).data[0];
}

/** GeoJSON geometry objects (null for none) as a GeometryArray in `crs`. */
export function geometriesFromGeoJson(geometries: unknown[], crs: Crs | null): GeometryArray {
  const { table } = readGeoJson({
    type: 'FeatureCollection',
    features: geometries.map((geometry) => ({ type: 'Feature', geometry, properties: {} })),
  });
  const field = table.schema.fields.find((f) => f.name === 'geometry')!;
  return geometryArrayFromArrow(table.getChild('geometry')!, { field }).withCrs(crs);
}

/** A GeoTable of the attribute columns, in order, then the geometry column `geometryName`. */
export function attributeTable(
  columns: AttributeColumn[],
  geometry: GeometryArray,
  geometryName = 'geometry',
): GeoTable {
  const fields: Field[] = [];
  const datas: Data[] = [];
  for (const c of columns) {
    const data = attributeData(c);
    fields.push(new Field(c.name, data.type, true));
    datas.push(data);
  }
  const g = geometryArrayToArrow(geometry, { name: geometryName });
  fields.push(g.field);
  datas.push(g.data);
  return { table: tableFromColumns(fields, datas, geometry.length), primary: geometryName };
}
