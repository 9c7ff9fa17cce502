/**
 * Geometry types, numbered as in WKB (ISO 13249 / OGC simple features), so a WKB type code and
 * a `GeometryType` are the same number.
 */
export enum GeometryType {
  Point = 1,
  LineString = 2,
  Polygon = 3,
  MultiPoint = 4,
  MultiLineString = 5,
  MultiPolygon = 6,
}

/** The type of a whole column: one native GeoArrow type, or `'mixed'` when rows differ (from WKB/WKT). */
export type ColumnType = GeometryType | 'mixed';

/** Coordinate dimensions. Operations that are 2D read x and y and ignore z and m. */
export type Dimension = 'xy' | 'xyz' | 'xym' | 'xyzm';

/** Values per coordinate for a dimension. */
export function strideOf(dimension: Dimension): number {
  return dimension.length;
}

const NAMES: Record<GeometryType, string> = {
  [GeometryType.Point]: 'Point',
  [GeometryType.LineString]: 'LineString',
  [GeometryType.Polygon]: 'Polygon',
  [GeometryType.MultiPoint]: 'MultiPoint',
  [GeometryType.MultiLineString]: 'MultiLineString',
  [GeometryType.MultiPolygon]: 'MultiPolygon',
};

/** 'Point', 'LineString', … — the names GeoPandas' `geom_type` prints. */
export function geometryTypeName(type: GeometryType): string {
  return NAMES[type];
}

/**
 * Number of offset levels between a row and its coordinates in the native GeoArrow layout:
 * point 0; linestring and multipoint 1; polygon and multilinestring 2; multipolygon 3.
 * Mixed columns always use the full three levels (row → part → ring → coordinate).
 */
export function offsetLevels(type: ColumnType): number {
  switch (type) {
    case GeometryType.Point:
      return 0;
    case GeometryType.LineString:
    case GeometryType.MultiPoint:
      return 1;
    case GeometryType.Polygon:
    case GeometryType.MultiLineString:
      return 2;
    case GeometryType.MultiPolygon:
    case 'mixed':
      return 3;
  }
}

/** The GeoArrow extension name of a native type, e.g. `geoarrow.multipolygon`. */
export function extensionNameOf(type: GeometryType): string {
  return `geoarrow.${NAMES[type].toLowerCase()}`;
}

/** The inverse of {@link extensionNameOf}; undefined for names that are not native types. */
export function typeOfExtensionName(name: string): GeometryType | undefined {
  for (const type of Object.keys(NAMES).map(Number) as GeometryType[]) {
    if (extensionNameOf(type) === name) return type;
  }
  return undefined;
}
