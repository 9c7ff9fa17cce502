import { type GeometryArray, isGeoArrowField } from '@geoframe/core';
import type { Table } from 'apache-arrow';
import { formatValue } from './format-frame.js';
import { columnTypeLabel, displayGeometry, shownRows, truncate } from './format-series.js';
import { escapeHtml } from './rich-display.js';
import { thumbnailSvg } from './thumbnail.js';

const CELL_WIDTH = 40;
const GEOMETRY_WIDTH = 60;

const STYLE =
  'border-collapse:collapse;font-size:12px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace';
const CELL = 'style="padding:2px 8px;border-bottom:1px solid #e5e5e5;text-align:left;white-space:nowrap"';

/** A table's columns and shown rows (first and last five, with a "…" row between), as HTML cells. */
function tableHtml(header: string[], body: string[][]): string {
  const head = header.map((h) => `<th ${CELL}>${escapeHtml(h)}</th>`).join('');
  const rows = body
    .map(
      (cells) =>
        `<tr>${cells.map((c, k) => (k === 0 ? `<th ${CELL}>${escapeHtml(c)}</th>` : `<td ${CELL}>${escapeHtml(c)}</td>`)).join('')}</tr>`,
    )
    .join('\n');
  return `<table style="${STYLE}">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>`;
}

/** The table and the map side by side (the map wraps below on narrow screens), with the footer line. */
function layout(table: string, map: { svg: string; note: string | null }, footer: string): string {
  const note = map.note ? `<div style="font-size:11px;color:#777">${escapeHtml(map.note)}</div>` : '';
  const figure = map.svg ? `<div style="flex:0 0 auto">${map.svg}${note}</div>` : '';
  return (
    `<div class="geoframe" style="display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start">\n` +
    `<div style="overflow-x:auto">${table}\n<div style="font-size:12px;color:#555;margin-top:4px">${escapeHtml(footer)}</div></div>\n` +
    `${figure}\n</div>`
  );
}

/**
 * A GeoDataFrame as HTML: a table of its first and last five rows (geometries as WKT summaries,
 * other values as text, long cells cut), the shape, geometry column and CRS, and a small map.
 */
export function frameHtml(
  table: Table,
  geometry: GeometryArray,
  meta: { geometryName: string; crs: string | null },
): string {
  const fields = table.schema.fields;
  const body = shownRows(table.numRows).map((i) =>
    i < 0
      ? ['…', ...fields.map(() => '…')]
      : [
          String(i),
          ...fields.map((f) =>
            f.name === meta.geometryName
              ? displayGeometry(geometry, i, GEOMETRY_WIDTH)
              : isGeoArrowField(f)
                ? '<geometry>'
                : truncate(formatValue(table.getChild(f.name)?.get(i)), CELL_WIDTH),
          ),
        ],
  );
  const footer = `${table.numRows} rows × ${fields.length} columns · geometry: ${meta.geometryName} (${columnTypeLabel(geometry)}) · CRS: ${meta.crs ?? 'none'}`;
  return layout(tableHtml(['', ...fields.map((f) => f.name)], body), thumbnailSvg(geometry), footer);
}

/** A GeoSeries as HTML: index and WKT of the first and last five rows, name, type, length, CRS, and a small map. */
export function seriesHtml(array: GeometryArray, meta: { name: string | null; crs: string | null }): string {
  const body = shownRows(array.length).map((i) =>
    i < 0 ? ['…', '…'] : [String(i), displayGeometry(array, i, GEOMETRY_WIDTH)],
  );
  const footer = `${meta.name !== null ? `${meta.name} · ` : ''}${array.length} rows · ${columnTypeLabel(array)} · CRS: ${meta.crs ?? 'none'}`;
  return layout(tableHtml(['', meta.name ?? 'geometry'], body), thumbnailSvg(array), footer);
}
