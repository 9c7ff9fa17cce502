import { type Crs, crsLabel, GeoframeError, sameCrs } from '@geoframe/core';
import proj4 from 'proj4';

/** A CRS that cannot be used: unknown code, unparsable definition, or missing where one is needed. */
export class CrsError extends GeoframeError {
  constructor(message: string) {
    super('CRS', message);
    this.name = 'CrsError';
  }
}

/** A CRS proj4 can use: its parsed projection and whether it is geographic (degrees). */
export interface ResolvedCrs {
  projection: Projection;
  geographic: boolean;
}

/** proj4's parsed projection object. */
export type Projection = NonNullable<proj4.Converter['oProj']>;

const cache = new Map<string, ResolvedCrs>();

/**
 * The proj4 definition of a CRS given as an EPSG/OGC code, a proj string, WKT or PROJJSON. proj4
 * knows a handful of codes (EPSG:4326, 4269, 3857 and their aliases); WGS 84 / UTM codes
 * (EPSG:326zz, 327zz) are built here; any other code needs its definition (PROJJSON, which files
 * GeoPandas writes carry, or WKT, or a proj string). Unknown → {@link CrsError}.
 */
export function resolveCrs(crs: Crs | null | undefined, role = 'CRS'): ResolvedCrs {
  if (crs == null) {
    throw new CrsError(`${role} is not set: cannot transform naive geometries; set a CRS first (setCrs)`);
  }
  const key = typeof crs === 'string' ? crs : JSON.stringify(crs);
  const hit = cache.get(key);
  if (hit) return hit;
  const definition = definitionOf(crs);
  let converter: proj4.Converter;
  try {
    converter = proj4(definition as string);
  } catch (cause) {
    throw new CrsError(`${role} ${describe(crs)} is not a CRS proj4 can read: ${(cause as Error).message}`);
  }
  const projection = converter.oProj as Projection;
  if (!projection || !(projection as { projName?: string }).projName) {
    throw new CrsError(`${role} ${describe(crs)} is not a CRS proj4 can read`);
  }
  const resolved = { projection, geographic: (projection as { projName?: string }).projName === 'longlat' };
  cache.set(key, resolved);
  return resolved;
}

/** Whether a CRS is geographic (angles, not metres); false when unknown or unreadable. */
export function isGeographicCrs(crs: Crs | null | undefined): boolean {
  if (crs == null) return false;
  try {
    return resolveCrs(crs).geographic;
  } catch {
    return false;
  }
}

function definitionOf(crs: Crs): string | object {
  if (typeof crs !== 'string') {
    // prefer the authority code where proj4 (or the UTM rule) knows it: PROJJSON datum ensembles
    // and towgs84 details are read less reliably than the code's own definition
    const label = crsLabel(crs);
    const known = label && /^(EPSG|OGC):/i.test(label) ? codeDefinition(label) : null;
    return known ?? crs;
  }
  const text = crs.trim();
  if (/^[A-Za-z]+:\S+$/.test(text)) {
    const known = codeDefinition(text);
    if (known === null) {
      throw new CrsError(
        `unknown CRS ${text}: proj4 knows EPSG:4326, EPSG:4269, EPSG:3857 and WGS 84 / UTM (EPSG:326zz, 327zz); pass the CRS as PROJJSON, WKT or a proj string`,
      );
    }
    return known;
  }
  return text;
}

/** A proj4 definition name or proj string for a code, or null when unknown. */
function codeDefinition(code: string): string | null {
  const upper = code.toUpperCase();
  if (upper === 'OGC:CRS84' || upper === 'CRS84') return 'WGS84';
  const utm = /^EPSG:32([67])(\d\d)$/.exec(upper);
  if (utm) {
    const zone = Number(utm[2]);
    if (zone >= 1 && zone <= 60) {
      return `+proj=utm +zone=${zone}${utm[1] === '7' ? ' +south' : ''} +datum=WGS84 +units=m +no_defs`;
    }
  }
  return proj4.defs(upper) ? upper : null;
}

function describe(crs: Crs): string {
  return typeof crs === 'string' ? JSON.stringify(crs) : (crsLabel(crs) ?? 'PROJJSON');
}

/**
 * Two inputs that meet (a join, a predicate, an overlay) must share their CRS: both set and
 * different is a {@link CrsError} (GeoPandas warns and computes nonsense); one unset is allowed.
 */
export function checkSameCrs(a: Crs | null, b: Crs | null, operation: string): void {
  if (a != null && b != null && !sameCrs(a, b) && !(isLonLatWgs84(a) && isLonLatWgs84(b))) {
    throw new CrsError(
      `${operation}: the inputs are in different CRS (${crsLabel(a)} and ${crsLabel(b)}); transform one with toCrs first`,
    );
  }
}

/** OGC:CRS84 and EPSG:4326 hold the same coordinates here (x = longitude, as GeoPandas reads both). */
function isLonLatWgs84(crs: Crs): boolean {
  const label = crsLabel(crs)?.toUpperCase();
  return label === 'EPSG:4326' || label === 'OGC:CRS84' || label === 'WGS 84' || label === 'WGS 84 (CRS84)';
}

/** `setCrs` over a different CRS already set: GeoPandas' ValueError, as a CrsError with the way out. */
export function checkSetCrs(current: Crs | null, next: Crs | null): void {
  if (
    current == null ||
    next == null ||
    sameCrs(current, next) ||
    (isLonLatWgs84(current) && isLonLatWgs84(next))
  )
    return;
  throw new CrsError(
    `setCrs: the data already has the CRS ${crsLabel(current)}, not ${crsLabel(next)}; pass {allowOverride: true} to relabel it without transforming, or use toCrs to transform`,
  );
}
