import { crsLabel, geometryArrayFromArrow, UnsupportedInputError } from '@geoframe/core';
import { Type } from 'apache-arrow';
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js';
import { magicbytes } from 'flatgeobuf/lib/mjs/constants.js';
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js';
import type { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js';
import { buildFeature, parseProperties } from 'flatgeobuf/lib/mjs/generic/feature.js';
import { buildHeader, deserialize } from 'flatgeobuf/lib/mjs/generic/featurecollection.js';
import { inferGeometryType } from 'flatgeobuf/lib/mjs/generic/header.js';
import { fromGeometry, parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import {
  type AttributeColumn,
  type AttributeKind,
  attributeTable,
  geometriesFromGeoJson,
} from './attribute-columns.js';
import type { GeoTable } from './geo-table.js';
import { writeGeoJson } from './geojson-write.js';

const KINDS: Partial<Record<ColumnType, AttributeKind>> = {
  [ColumnType.Byte]: 'int32',
  [ColumnType.UByte]: 'int32',
  [ColumnType.Short]: 'int32',
  [ColumnType.UShort]: 'int32',
  [ColumnType.Int]: 'int32',
  [ColumnType.UInt]: 'int64',
  [ColumnType.Long]: 'int64',
  [ColumnType.ULong]: 'int64',
  [ColumnType.Float]: 'float64',
  [ColumnType.Double]: 'float64',
  [ColumnType.Bool]: 'bool',
  [ColumnType.String]: 'utf8',
  [ColumnType.Json]: 'utf8',
  [ColumnType.DateTime]: 'timestamp',
  [ColumnType.Binary]: 'binary',
};

/**
 * Reads a FlatGeobuf file with the `flatgeobuf` library: one row per feature, the header's
 * columns typed from its column types (integers up to 32 bits → Int32, 64-bit → Int64, floats →
 * Float64, strings and JSON → Utf8, DateTime → Timestamp), the CRS from the header's
 * organisation and code ("EPSG:n"), or its WKT when it has no code, or none.
 */
export async function readFlatGeobuf(bytes: Uint8Array): Promise<GeoTable> {
  if (!magicbytes.slice(0, 3).every((b, i) => bytes[i] === b)) {
    throw new UnsupportedInputError('not a FlatGeobuf file (no "fgb" magic bytes)');
  }
  let header: HeaderMeta | null = null;
  const geometries: unknown[] = [];
  const properties: Record<string, unknown>[] = [];
  for await (const f of deserialize(bytes, {
    fromFeature,
    headerMetaFn: (h: HeaderMeta) => {
      header = h;
    },
  })) {
    const feature = f as unknown as { geometry: unknown; properties: Record<string, unknown> | null };
    geometries.push(feature.geometry ?? null);
    properties.push(feature.properties ?? {});
  }
  const h = header as HeaderMeta | null;
  const crs = h?.crs ? (h.crs.code > 0 ? `${h.crs.org ?? 'EPSG'}:${h.crs.code}` : (h.crs.wkt ?? null)) : null;
  const columns: AttributeColumn[] = (h?.columns ?? []).map((c: ColumnMeta) => ({
    name: c.name,
    kind: KINDS[c.type] ?? 'utf8',
    values: properties.map((p) => p[c.name] ?? null),
  }));
  return attributeTable(columns, geometriesFromGeoJson(geometries, crs));
}

/** A feature as GeoJSON, its geometry null where it has none (flatgeobuf's own reader fails there). */
function fromFeature(_id: number, feature: Feature, header: HeaderMeta) {
  const g = feature.geometry();
  return {
    geometry: g === null ? null : fromGeometry(g, header.geometryType),
    properties: parseProperties(feature, header.columns),
  } as never;
}

const COLUMN_TYPES: Partial<Record<Type, ColumnType>> = {
  [Type.Int]: ColumnType.Long,
  [Type.Float]: ColumnType.Double,
  [Type.Bool]: ColumnType.Bool,
  [Type.Utf8]: ColumnType.String,
  [Type.LargeUtf8]: ColumnType.String,
  [Type.Timestamp]: ColumnType.DateTime,
  [Type.Date]: ColumnType.DateTime,
};

/**
 * Writes the primary geometry and the attribute columns as FlatGeobuf (no spatial index): column
 * types from the Arrow types (integers as Long or Int, floats as Double, strings, booleans,
 * dates), the CRS as its EPSG code. A CRS without one, a null geometry or an attribute type
 * FlatGeobuf cannot hold is an error naming it (the file would not say what it holds).
 */
export function writeFlatGeobuf(t: GeoTable): Uint8Array {
  const table = t.table;
  const primary = t.primary ?? 'geometry';
  const field = table.schema.fields.find((f) => f.name === primary);
  if (!field) throw new UnsupportedInputError(`FlatGeobuf: no geometry column "${primary}"`);
  const geometry = geometryArrayFromArrow(table.getChild(primary)!, { field });
  const crsCode = epsgCode(geometry.crs);
  for (let i = 0; i < geometry.length; i++) {
    if (geometry.isNull(i))
      throw new UnsupportedInputError(`FlatGeobuf: row ${i} has no geometry, which FlatGeobuf cannot hold`);
  }
  const attributes = table.schema.fields.filter(
    (f) => f.name !== primary && !f.metadata.has('ARROW:extension:name'),
  );
  const columns = attributes.map((f) => {
    const type =
      f.type.typeId === Type.Int && f.type.bitWidth <= 32
        ? ColumnType.Int
        : COLUMN_TYPES[f.type.typeId as Type];
    if (type === undefined)
      throw new UnsupportedInputError(
        `FlatGeobuf: column "${f.name}" has type ${f.type}, which FlatGeobuf cannot hold`,
      );
    return {
      name: f.name,
      type,
      title: null,
      description: null,
      width: -1,
      precision: -1,
      scale: -1,
      nullable: true,
      unique: false,
      primary_key: false,
    };
  });
  const features = JSON.parse(writeGeoJson({ table: table.select([primary]), primary })).features as {
    geometry: never;
  }[];
  const header: HeaderMeta = {
    geometryType: inferGeometryType(features as never),
    columns,
    envelope: null,
    featuresCount: features.length,
    indexNodeSize: 0,
    crs: null,
    title: null,
    description: null,
    metadata: null,
  };
  const vectors = attributes.map((f) => table.getChild(f.name)!);
  const chunks = features.map((feature, i) => {
    const props: Record<string, unknown> = {};
    attributes.forEach((f, k) => {
      const v = vectors[k].get(i);
      if (v === null || v === undefined) {
        props[f.name] = null; // flatgeobuf skips null; undefined would be written as a value
        return;
      }
      props[f.name] =
        typeof v === 'bigint'
          ? Number(v)
          : v instanceof Date
            ? v.toISOString()
            : typeof v === 'number' && f.type.typeId === Type.Date
              ? new Date(v).toISOString()
              : v;
    });
    return buildFeature(parseGeometry(feature.geometry), props as never, header);
  });
  const head = buildHeader(header, crsCode);
  const total = magicbytes.length + head.length + chunks.reduce((a, c) => a + c.length, 0);
  const out = new Uint8Array(total);
  out.set(magicbytes);
  out.set(head, magicbytes.length);
  let at = magicbytes.length + head.length;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The EPSG code of a CRS FlatGeobuf's header can name (0 for none); other CRS are an error. */
function epsgCode(crs: unknown): number {
  if (crs === null || crs === undefined) return 0;
  const label = crsLabel(crs as never) ?? '';
  if (/^OGC:CRS84$/i.test(label)) return 4326;
  const match = /^EPSG:(\d+)$/i.exec(label);
  if (match) return Number(match[1]);
  throw new UnsupportedInputError(
    `FlatGeobuf: the CRS ${label || JSON.stringify(crs)} has no EPSG code, and the header holds only codes; transform with toCrs, or write GeoParquet`,
  );
}
