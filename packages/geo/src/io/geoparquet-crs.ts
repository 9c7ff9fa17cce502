import type { Crs } from '@geoframe/core';

/** The CRS a GeoParquet column has when its metadata has no `crs` key. */
export const GEOPARQUET_DEFAULT_CRS = 'OGC:CRS84';

const CRS84_NAMES = new Set([
  'ogc:crs84',
  'crs84',
  'urn:ogc:def:crs:ogc:1.3:crs84',
  'urn:ogc:def:crs:ogc::crs84',
]);
const EPSG_4326_NAMES = new Set(['epsg:4326', 'urn:ogc:def:crs:epsg::4326', 'urn:ogc:def:crs:epsg:4326']);

function authorityCode(crs: Crs): string | null {
  if (typeof crs === 'string') return crs.trim().toLowerCase();
  const id = crs.id as { authority?: unknown; code?: unknown } | undefined;
  if (id && typeof id.authority === 'string' && id.code !== undefined) {
    return `${id.authority}:${String(id.code)}`.toLowerCase();
  }
  return null;
}

/** Whether `crs` names OGC:CRS84 (as a code or as PROJJSON with that id). */
export function isCrs84(crs: Crs | null): boolean {
  if (crs === null) return false;
  const code = authorityCode(crs);
  return code !== null && CRS84_NAMES.has(code);
}

/**
 * A PROJJSON description of EPSG:4326 (WGS 84, latitude/longitude axes, degrees). It carries the
 * `id` that PROJ and GDAL identify it by; its datum is the WGS 84 reference frame rather than the
 * full ensemble list PROJ prints, which PROJ reads as the same CRS.
 */
export function epsg4326Projjson(): Record<string, unknown> {
  return {
    $schema: 'https://proj.org/schemas/v0.7/projjson.schema.json',
    type: 'GeographicCRS',
    name: 'WGS 84',
    datum: {
      type: 'GeodeticReferenceFrame',
      name: 'World Geodetic System 1984',
      ellipsoid: { name: 'WGS 84', semi_major_axis: 6378137, inverse_flattening: 298.257223563 },
    },
    coordinate_system: {
      subtype: 'ellipsoidal',
      axis: [
        { name: 'Geodetic latitude', abbreviation: 'Lat', direction: 'north', unit: 'degree' },
        { name: 'Geodetic longitude', abbreviation: 'Lon', direction: 'east', unit: 'degree' },
      ],
    },
    id: { authority: 'EPSG', code: 4326 },
  };
}

/**
 * The CRS of a GeoParquet column from its metadata object: a missing `crs` key is OGC:CRS84 (the
 * specification's default), an explicit null is an unknown CRS (null), otherwise the PROJJSON
 * object (or, from non-conforming writers, string) as found.
 */
export function crsFromGeoParquet(column: Record<string, unknown>): Crs | null {
  if (!('crs' in column)) return GEOPARQUET_DEFAULT_CRS;
  const crs = column.crs;
  if (crs === null || crs === undefined) return null;
  if (typeof crs === 'string') return crs;
  if (typeof crs === 'object' && !Array.isArray(crs)) return crs as Record<string, unknown>;
  return null;
}

/**
 * What to write as a column's `crs`: `undefined` (key omitted) for OGC:CRS84, since that is the
 * specification's default; a PROJJSON object as it is; "EPSG:4326" (and its URN forms) as the
 * PROJJSON of {@link epsg4326Projjson}; null for an unknown CRS. Any other string (an authority
 * code such as "EPSG:3857", WKT) is written as the string: GeoPandas and GDAL read it, but
 * GeoParquet 1.1 asks for PROJJSON, so strict validators flag it.
 */
export function crsToGeoParquet(crs: Crs | null): Crs | null | undefined {
  if (crs === null) return null;
  if (isCrs84(crs)) return undefined;
  if (typeof crs !== 'string') return crs;
  if (EPSG_4326_NAMES.has(crs.trim().toLowerCase())) return epsg4326Projjson();
  return crs;
}
