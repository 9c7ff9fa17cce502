/**
 * A coordinate reference system as GeoArrow carries it in `ARROW:extension:metadata`: a PROJJSON
 * object, or a string (an authority code such as "EPSG:4326", WKT2, or anything else the writer
 * chose). geoframe does not reproject; it keeps the CRS with the data and writes it back.
 */
export type Crs = string | { [key: string]: unknown };

/** A short human label: "EPSG:4326" for a PROJJSON object with an id, else its name, else the string. */
export function crsLabel(crs: Crs | null | undefined): string | null {
  if (crs == null) return null;
  if (typeof crs === 'string') return crs;
  const id = crs.id as { authority?: string; code?: string | number } | undefined;
  if (id?.authority && id.code !== undefined) return `${id.authority}:${id.code}`;
  if (typeof crs.name === 'string') return crs.name;
  return 'PROJJSON';
}

/** Whether two CRS values are the same (structurally for PROJJSON; by label when one is a code). */
export function sameCrs(a: Crs | null | undefined, b: Crs | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if (typeof a !== 'string' && typeof b !== 'string') return JSON.stringify(a) === JSON.stringify(b);
  return crsLabel(a) === crsLabel(b);
}
