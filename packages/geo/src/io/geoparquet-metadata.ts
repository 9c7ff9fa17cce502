import { GeometryType, UnsupportedInputError } from '@geoframe/core';

/** The GeoParquet version geoframe writes. */
export const GEOPARQUET_VERSION = '1.1.0';

/** Per-column entry of the `geo` metadata (GeoParquet 1.1). */
export interface GeoParquetColumn {
  /** 'WKB' or a native encoding: 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon'. */
  encoding: string;
  /** E.g. ["Polygon", "MultiPolygon"] or ["Point Z"]; empty when unknown. */
  geometry_types: string[];
  /** PROJJSON; absent = OGC:CRS84; null = unknown. */
  crs?: unknown;
  edges?: 'planar' | 'spherical';
  orientation?: 'counterclockwise';
  /** [xmin, ymin, xmax, ymax] or with z: [xmin, ymin, zmin, xmax, ymax, zmax]. */
  bbox?: number[];
  epoch?: number;
  covering?: unknown;
}

/** The `geo` file metadata of GeoParquet. */
export interface GeoParquetMetadata {
  version: string;
  primary_column: string;
  columns: Record<string, GeoParquetColumn>;
}

/** The native encodings of GeoParquet 1.1 → geometry types. */
export const NATIVE_ENCODINGS: Record<string, GeometryType> = {
  point: GeometryType.Point,
  linestring: GeometryType.LineString,
  polygon: GeometryType.Polygon,
  multipoint: GeometryType.MultiPoint,
  multilinestring: GeometryType.MultiLineString,
  multipolygon: GeometryType.MultiPolygon,
};

const GEOMETRY_TYPE_PATTERN = /^(GeometryCollection|(Multi)?(Point|LineString|Polygon))( Z)?$/;

/**
 * Problems of a `geo` metadata object against GeoParquet 1.1 (required keys and their types,
 * allowed values); an empty list when it conforms. `covering` is only checked to be an object.
 */
export function geoMetadataProblems(geo: unknown): string[] {
  const problems: string[] = [];
  if (geo === null || typeof geo !== 'object' || Array.isArray(geo))
    return ['geo metadata is not a JSON object'];
  const g = geo as Record<string, unknown>;
  if (typeof g.version !== 'string') problems.push('version is not a string');
  else if (!/^1\.\d+\.\d+(-[\w.]+)?$/.test(g.version)) problems.push(`version ${g.version} is not 1.x.y`);
  if (typeof g.primary_column !== 'string') problems.push('primary_column is not a string');
  const columns = g.columns;
  if (columns === null || typeof columns !== 'object' || Array.isArray(columns)) {
    problems.push('columns is not an object');
    return problems;
  }
  const entries = Object.entries(columns as Record<string, unknown>);
  if (entries.length === 0) problems.push('columns is empty');
  if (typeof g.primary_column === 'string' && !(g.primary_column in columns)) {
    problems.push(`primary_column ${g.primary_column} is not in columns`);
  }
  for (const [name, value] of entries) {
    const at = `columns.${name}`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`${at} is not an object`);
      continue;
    }
    const c = value as Record<string, unknown>;
    if (typeof c.encoding !== 'string') problems.push(`${at}.encoding is not a string`);
    else if (c.encoding !== 'WKB' && !(c.encoding in NATIVE_ENCODINGS)) {
      problems.push(`${at}.encoding ${c.encoding} is not WKB or a native encoding`);
    }
    if (!Array.isArray(c.geometry_types)) problems.push(`${at}.geometry_types is not an array`);
    else {
      for (const t of c.geometry_types) {
        if (typeof t !== 'string' || !GEOMETRY_TYPE_PATTERN.test(t)) {
          problems.push(`${at}.geometry_types has ${JSON.stringify(t)}`);
        }
      }
      if (new Set(c.geometry_types).size !== c.geometry_types.length) {
        problems.push(`${at}.geometry_types has duplicates`);
      }
    }
    if ('crs' in c && c.crs !== null && (typeof c.crs !== 'object' || Array.isArray(c.crs))) {
      problems.push(`${at}.crs is not a PROJJSON object or null`);
    }
    if ('edges' in c && c.edges !== 'planar' && c.edges !== 'spherical') {
      problems.push(`${at}.edges is not planar or spherical`);
    }
    if ('orientation' in c && c.orientation !== 'counterclockwise') {
      problems.push(`${at}.orientation is not counterclockwise`);
    }
    if ('bbox' in c) {
      const b = c.bbox;
      if (!Array.isArray(b) || (b.length !== 4 && b.length !== 6) || b.some((v) => typeof v !== 'number')) {
        problems.push(`${at}.bbox is not 4 or 6 numbers`);
      }
    }
    if ('epoch' in c && typeof c.epoch !== 'number') problems.push(`${at}.epoch is not a number`);
    if ('covering' in c && (c.covering === null || typeof c.covering !== 'object')) {
      problems.push(`${at}.covering is not an object`);
    }
  }
  return problems;
}

/**
 * Parses the `geo` metadata text for reading. Lenient where files in the wild are (a missing
 * `geometry_types` or `version`), strict where reading would go wrong: not JSON, no `columns`
 * object, a column without an `encoding` string, or an encoding other than WKB and the six native
 * ones → UnsupportedInputError naming the column and encoding.
 */
export function parseGeoMetadata(text: string): GeoParquetMetadata {
  let geo: unknown;
  try {
    geo = JSON.parse(text);
  } catch {
    throw new UnsupportedInputError(`GeoParquet: the geo metadata is not valid JSON: ${text.slice(0, 80)}`);
  }
  if (geo === null || typeof geo !== 'object' || Array.isArray(geo)) {
    throw new UnsupportedInputError('GeoParquet: the geo metadata is not a JSON object');
  }
  const g = geo as Record<string, unknown>;
  const columns = g.columns as Record<string, unknown> | undefined;
  if (columns === null || typeof columns !== 'object' || Array.isArray(columns)) {
    throw new UnsupportedInputError('GeoParquet: the geo metadata has no columns object');
  }
  for (const [name, value] of Object.entries(columns)) {
    const encoding = (value as { encoding?: unknown } | null)?.encoding;
    if (typeof encoding !== 'string') {
      throw new UnsupportedInputError(`GeoParquet column "${name}": no encoding`);
    }
    if (encoding.toUpperCase() !== 'WKB' && !(encoding in NATIVE_ENCODINGS)) {
      throw new UnsupportedInputError(
        `GeoParquet column "${name}": unsupported encoding ${JSON.stringify(encoding)} (expected WKB, ${Object.keys(NATIVE_ENCODINGS).join(', ')})`,
      );
    }
  }
  const primary = typeof g.primary_column === 'string' ? g.primary_column : Object.keys(columns)[0];
  return {
    version: typeof g.version === 'string' ? g.version : '',
    primary_column: primary,
    columns: columns as Record<string, GeoParquetColumn>,
  };
}
