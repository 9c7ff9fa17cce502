import { formatWkt, type GeometryArray, geometryTypeName } from '@geoframe/core';

const MAX_WIDTH = 80;
const EDGE_ROWS = 5;

/** Shortens text to `width` characters with an ellipsis. */
export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** The rows a summary shows: all of them up to 2 × EDGE_ROWS, else the first and last EDGE_ROWS (-1 marks the gap). */
export function shownRows(length: number): number[] {
  if (length <= 2 * EDGE_ROWS) return Array.from({ length }, (_, i) => i);
  const head = Array.from({ length: EDGE_ROWS }, (_, i) => i);
  const tail = Array.from({ length: EDGE_ROWS }, (_, i) => length - EDGE_ROWS + i);
  return [...head, -1, ...tail];
}

/** WKT of one row for display: null rows print as "None" (GeoPandas' spelling), long text is cut. */
export function displayGeometry(array: GeometryArray, row: number, width = MAX_WIDTH): string {
  const wkt = formatWkt(array, row, { precision: 6 });
  return wkt === null ? 'None' : truncate(wkt, width);
}

/** A short summary of the column type for headers: "Point", "Polygon", "mixed". */
export function columnTypeLabel(array: GeometryArray): string {
  return array.type === 'mixed' ? 'mixed' : geometryTypeName(array.type);
}

/**
 * The text a GeoSeries prints: index and WKT per row (first and last five of long series),
 * then the name, type, length and CRS, as GeoPandas shows a Series.
 */
export function formatSeries(
  array: GeometryArray,
  meta: { name: string | null; crs: string | null },
): string {
  const rows = shownRows(array.length);
  const indexWidth = String(Math.max(0, array.length - 1)).length;
  const lines = rows.map((i) =>
    i < 0 ? '…' : `${String(i).padEnd(indexWidth)}    ${displayGeometry(array, i)}`,
  );
  const footer = [
    meta.name !== null ? `Name: ${meta.name}` : null,
    `type: ${columnTypeLabel(array)}`,
    `length: ${array.length}`,
    `crs: ${meta.crs ?? 'None'}`,
  ].filter((part) => part !== null);
  return [...lines, footer.join(', ')].join('\n');
}
