import { type Crs, crsLabel } from '@geoframe/core';

/**
 * The CRS a GeoJSON file is read with when it names none. RFC 7946 fixes WGS 84
 * longitude/latitude; GeoPandas (through GDAL) labels such files EPSG:4326, and so do we, so a
 * frame read here and there has the same CRS.
 */
export const GEOJSON_DEFAULT_CRS = 'EPSG:4326';

const URN = /^urn:ogc:def:crs:([a-z0-9]+):[0-9.]*:([a-z0-9]+)$/i;

/**
 * The CRS of a FeatureCollection: the pre-RFC 7946 `crs` member
 * (`{"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::3857"}}`, still written by GDAL
 * for data not in WGS 84) when present, else {@link GEOJSON_DEFAULT_CRS}.
 */
export function crsOfGeoJson(input: unknown): Crs {
  const member = (input as { crs?: { type?: unknown; properties?: { name?: unknown } } } | null)?.crs;
  const name = member?.type === 'name' ? member.properties?.name : undefined;
  if (typeof name !== 'string') return GEOJSON_DEFAULT_CRS;
  const urn = URN.exec(name.trim());
  if (!urn) return name;
  const [, authority, code] = urn;
  return authority.toUpperCase() === 'OGC' && code.toUpperCase() === 'CRS84'
    ? 'OGC:CRS84'
    : `${authority.toUpperCase()}:${code}`;
}

/**
 * The `crs` member to write for `crs`, or null when none is needed: WGS 84 (EPSG:4326, OGC:CRS84)
 * and unknown CRSs write none (RFC 7946); another authority code is written as an OGC URN, as GDAL
 * does, so GeoPandas and GDAL read the CRS back. Coordinates are never transformed.
 */
export function geoJsonCrsMember(crs: Crs | null): string | null {
  const label = crsLabel(crs);
  if (label === null) return null;
  const match = /^([A-Za-z]+):(\w+)$/.exec(label);
  if (!match) return null;
  const [, authority, code] = match;
  const upper = `${authority.toUpperCase()}:${code.toUpperCase()}`;
  if (upper === 'EPSG:4326' || upper === 'OGC:CRS84') return null;
  const urn =
    authority.toUpperCase() === 'OGC'
      ? `urn:ogc:def:crs:OGC:1.3:${code}`
      : `urn:ogc:def:crs:${authority.toUpperCase()}::${code}`;
  return JSON.stringify({ type: 'name', properties: { name: urn } });
}
