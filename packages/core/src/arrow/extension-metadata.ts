import type { Field } from 'apache-arrow';
import type { Crs } from '../array/crs.js';
import { type GeometryType, typeOfExtensionName } from '../array/geometry-type.js';
import { UnsupportedInputError } from '../errors.js';

/** Field metadata key that names an Arrow extension type, e.g. `geoarrow.polygon`. */
export const EXTENSION_NAME_KEY = 'ARROW:extension:name';

/** Field metadata key holding the extension's JSON parameters (GeoArrow: `crs`, `crs_type`, `edges`). */
export const EXTENSION_METADATA_KEY = 'ARROW:extension:metadata';

/** How a GeoArrow column stores its geometries: a native type, WKB bytes or WKT text. */
export type GeoArrowEncoding = GeometryType | 'wkb' | 'wkt';

/**
 * The `crs_type` values of the GeoArrow specification: what kind of string or object `crs` is.
 * Other strings are passed through as found.
 */
export type CrsType = 'projjson' | 'wkt2:2019' | 'authority_code' | 'srid';

/** The parsed `ARROW:extension:metadata` of a GeoArrow field. */
export interface GeoArrowMetadata {
  /** The CRS: a PROJJSON object or a string; null when the producer gave none. */
  crs: Crs | null;
  /** What `crs` is, when the producer said so (GeoArrow 0.2 `crs_type`). */
  crsType?: CrsType | string;
  /** Edge interpolation ('spherical', …); absent means planar. Kept for callers, not used in computations. */
  edges?: string;
}

/**
 * The encoding an extension name denotes: the six `geoarrow.<type>` names, `geoarrow.wkb` and
 * `geoarrow.wkt` (plus the older aliases `ogc.wkb` and `ogc.wkt`). Undefined for anything else,
 * including GeoArrow types geoframe does not read (`geoarrow.box`, `geoarrow.geometry`, …).
 */
export function encodingOfExtensionName(name: string | null | undefined): GeoArrowEncoding | undefined {
  if (!name) return undefined;
  if (name === 'geoarrow.wkb' || name === 'ogc.wkb') return 'wkb';
  if (name === 'geoarrow.wkt' || name === 'ogc.wkt') return 'wkt';
  return typeOfExtensionName(name);
}

/** The extension name a field carries, or undefined. */
export function extensionNameOfField(field: Field): string | undefined {
  return field.metadata.get(EXTENSION_NAME_KEY);
}

/**
 * The GeoArrow encoding of a field from its `ARROW:extension:name`, or null when the field is not
 * a GeoArrow geometry column geoframe reads. Looks at the name only, not at the Arrow type.
 */
export function geoArrowEncodingOf(field: Field): GeoArrowEncoding | null {
  return encodingOfExtensionName(extensionNameOfField(field)) ?? null;
}

/** Whether `field` is a GeoArrow geometry column geoframe reads (native type, WKB or WKT). */
export function isGeoArrowField(field: Field): boolean {
  return geoArrowEncodingOf(field) !== null;
}

/**
 * Parses a field's `ARROW:extension:metadata`. A missing or empty value, `{}`, and `"crs": null`
 * all mean no CRS. A `crs` given as a JSON string with `crs_type: "projjson"` is parsed into an
 * object; an SRID given as a number becomes its decimal string. Throws UnsupportedInputError
 * for text that is not a JSON object or a `crs` that is neither a string nor an object.
 */
export function readGeoArrowMetadata(field: Field): GeoArrowMetadata {
  return parseGeoArrowMetadata(field.metadata.get(EXTENSION_METADATA_KEY), field.name);
}

/** {@link readGeoArrowMetadata} on the raw JSON text; `label` names the column in errors. */
export function parseGeoArrowMetadata(text: string | null | undefined, label = 'column'): GeoArrowMetadata {
  if (text == null || text.trim() === '') return { crs: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UnsupportedInputError(
      `${label}: ${EXTENSION_METADATA_KEY} is not valid JSON: ${text.slice(0, 80)}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UnsupportedInputError(`${label}: ${EXTENSION_METADATA_KEY} is not a JSON object`);
  }
  const object = parsed as Record<string, unknown>;
  const result: GeoArrowMetadata = { crs: null };
  if (typeof object.crs_type === 'string') result.crsType = object.crs_type;
  if (typeof object.edges === 'string') result.edges = object.edges;
  const crs = object.crs;
  if (crs == null) return result;
  if (typeof crs === 'number' && Number.isInteger(crs)) {
    result.crs = String(crs);
  } else if (typeof crs === 'string') {
    result.crs = result.crsType === 'projjson' ? parseProjjsonString(crs) : crs;
  } else if (typeof crs === 'object' && !Array.isArray(crs)) {
    result.crs = crs as Record<string, unknown>;
  } else {
    throw new UnsupportedInputError(
      `${label}: the crs in ${EXTENSION_METADATA_KEY} is neither a string nor an object`,
    );
  }
  return result;
}

function parseProjjsonString(text: string): Crs {
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // not JSON after all: keep the string as it is
  }
  return text;
}

/**
 * The `crs_type` that describes `crs`, when it can be told: 'projjson' for an object,
 * 'authority_code' for strings like `EPSG:4326` or `OGC:CRS84`, 'srid' for a bare integer,
 * 'wkt2:2019' for text starting with a WKT2 CRS keyword; undefined otherwise.
 */
export function crsTypeOf(crs: Crs | null | undefined): CrsType | undefined {
  if (crs == null) return undefined;
  if (typeof crs !== 'string') return 'projjson';
  const s = crs.trim();
  if (/^[A-Za-z][A-Za-z0-9_.-]*:[A-Za-z0-9_.-]+$/.test(s)) return 'authority_code';
  if (/^-?\d+$/.test(s)) return 'srid';
  if (
    /^(GEOGCRS|GEODCRS|PROJCRS|COMPOUNDCRS|VERTCRS|ENGCRS|BOUNDCRS|GEOGRAPHICCRS|PROJECTEDCRS)\s*\[/i.test(s)
  ) {
    return 'wkt2:2019';
  }
  return undefined;
}

/**
 * The `ARROW:extension:metadata` JSON for a CRS: `{}` without one, else `{"crs": …}` with the
 * PROJJSON object or the string as given, plus `crs_type` when {@link crsTypeOf} can tell it
 * (or `crsType` says so) and `edges` when given.
 */
export function geoArrowMetadataJson(crs: Crs | null | undefined, crsType?: string, edges?: string): string {
  const object: Record<string, unknown> = {};
  if (crs != null) {
    object.crs = crs;
    const type = crsType ?? crsTypeOf(crs);
    if (type) object.crs_type = type;
  }
  if (edges) object.edges = edges;
  return JSON.stringify(object);
}

/** Field metadata for a GeoArrow column: extension name and metadata JSON. */
export function geoArrowFieldMetadata(
  extensionName: string,
  crs: Crs | null | undefined,
): Map<string, string> {
  return new Map([
    [EXTENSION_NAME_KEY, extensionName],
    [EXTENSION_METADATA_KEY, geoArrowMetadataJson(crs)],
  ]);
}
