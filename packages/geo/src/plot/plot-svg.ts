import { type GeometryArray, GeometryType } from '@geoframe/core';
import { neighborColors } from './neighbor-colors.js';
import { NEIGHBOR_PALETTE } from './palette.js';
import { type PlotFrame, type PlotOptions, plotFrame } from './plot-options.js';
import { SvgPathWriter } from './svg-path.js';

/** Escapes text for an XML attribute value or text node. */
function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

function clamp(value: number, lo: number, hi: number): number {
  return Math.min(Math.max(value, lo), hi);
}

/** A pixel length as written: at most two decimals. */
function px(value: number): number {
  return Math.round(value * 100) / 100;
}

function checkLength(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
    throw new RangeError(`plot: ${name} must be a non-negative number of pixels, got ${value}`);
  }
}

/** Number of coordinates in the rows of `array` (for the default dot size). */
function dotCount(array: GeometryArray): number {
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  let count = 0;
  for (let i = 0; i < array.length; i++) {
    if (!array.isValid(i) || array.isEmpty(i)) continue;
    count += ringOffsets[partOffsets[geometryOffsets[i + 1]]] - ringOffsets[partOffsets[geometryOffsets[i]]];
  }
  return count;
}

/**
 * Draws a geometry column as an SVG document (y up in the data, flipped to SVG's y down).
 *
 * - Every non-null, non-empty row becomes one `<path>`, in row order within its kind: polygons
 *   and multipolygons filled (holes cut out, fill-rule evenodd) and outlined; linestrings and
 *   multilinestrings stroked; points and multipoints drawn as dots. Polygons go below lines, lines
 *   below dots. Null and empty rows draw nothing. Mixed columns are drawn row by row.
 * - With `fill: 'neighbors'` (default) each polygon row gets a palette colour different from every
 *   polygon sharing a segment with it (see `neighborColors`).
 * - `options.points` are drawn last, as one `<path>` of dots.
 * - Coordinates are written in pixels with at most two decimals. Only x and y are read.
 *
 * The root element has `width`, `height` and `viewBox="0 0 width height"` from the options
 * (see {@link PlotOptions}). Throws a RangeError for a non-positive size or invalid bounds.
 */
export function plotSvg(geometry: GeometryArray, options: PlotOptions = {}): string {
  const frame = plotFrame(geometry, options);
  checkLength('strokeWidth', options.strokeWidth);
  checkLength('pointRadius', options.pointRadius);
  const { width, height } = frame;
  const area = width * height;
  const fill = options.fill ?? 'neighbors';
  const stroke = escapeXml(options.stroke ?? '#333333');
  const pointColor = escapeXml(options.pointColor ?? '#1a1a1a');
  const writer = new SvgPathWriter(geometry, frame);

  let polygonCount = 0;
  for (let i = 0; i < geometry.length; i++) {
    const type = geometry.typeOf(i);
    if ((type === GeometryType.Polygon || type === GeometryType.MultiPolygon) && !geometry.isEmpty(i)) {
      polygonCount++;
    }
  }
  const strokeWidth = options.strokeWidth ?? clamp(0.1 * Math.sqrt(area / Math.max(1, polygonCount)), 0.1, 1);
  const colors = fill === 'neighbors' && polygonCount > 0 ? neighborColors(geometry) : null;

  let polygons = '';
  let lines = '';
  let dots = '';
  for (let i = 0; i < geometry.length; i++) {
    const type = geometry.typeOf(i);
    if (type === null || geometry.isEmpty(i)) continue;
    switch (type) {
      case GeometryType.Polygon:
      case GeometryType.MultiPolygon: {
        const color = colors ? ` fill="${NEIGHBOR_PALETTE[colors[i] % NEIGHBOR_PALETTE.length]}"` : '';
        polygons += `<path d="${writer.rings(i)}"${color}/>\n`;
        break;
      }
      case GeometryType.LineString:
      case GeometryType.MultiLineString:
        lines += `<path d="${writer.lines(i)}"/>\n`;
        break;
      default:
        dots += `<path d="${writer.dots(i)}"/>\n`;
    }
  }

  const ownDots = dots === '' ? 0 : dotCount(geometry);
  const overlay = options.points;
  const overlayDots = overlay ? dotCount(overlay) : 0;
  const radius =
    options.pointRadius ?? clamp(0.2 * Math.sqrt(area / Math.max(1, ownDots + overlayDots)), 0.6, 3);
  const dotStyle = `fill="none" stroke="${pointColor}" stroke-width="${px(2 * radius)}" stroke-linecap="round"`;

  let svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}">\n`;
  const background = options.background ?? '#ffffff';
  if (background !== 'none') {
    svg += `<rect width="${width}" height="${height}" fill="${escapeXml(background)}"/>\n`;
  }
  if (polygons !== '') {
    const polygonFill = fill === 'neighbors' ? '' : ` fill="${escapeXml(fill)}"`;
    const outline =
      strokeWidth > 0
        ? `stroke="${stroke}" stroke-width="${px(strokeWidth)}" stroke-linejoin="round"`
        : 'stroke="none"';
    svg += `<g fill-rule="evenodd"${polygonFill} ${outline}>\n${polygons}</g>\n`;
  }
  if (lines !== '') {
    const lineWidth = px(Math.max(1, strokeWidth));
    svg += `<g fill="none" stroke="${stroke}" stroke-width="${lineWidth}" stroke-linecap="round" stroke-linejoin="round">\n${lines}</g>\n`;
  }
  if (dots !== '') svg += `<g ${dotStyle}>\n${dots}</g>\n`;
  if (overlay && overlayDots > 0) svg += overlayPath(overlay, frame, dotStyle);
  if (options.title !== undefined && options.title !== '') svg += titleText(options.title, width);
  return `${svg}</svg>\n`;
}

/** All coordinates of the overlay column as one path of dots. */
function overlayPath(points: GeometryArray, frame: PlotFrame, style: string): string {
  const writer = new SvgPathWriter(points, frame);
  let d = '';
  for (let i = 0; i < points.length; i++) {
    if (!points.isValid(i) || points.isEmpty(i)) continue;
    d += writer.dots(i);
  }
  return `<path d="${d}" ${style}/>\n`;
}

/** The title, centred at the top, with a white halo so it reads over the map. */
function titleText(title: string, width: number): string {
  const size = clamp(Math.round(width / 32), 10, 24);
  return (
    `<text x="${px(width / 2)}" y="${Math.round(size * 1.4)}" font-family="sans-serif" font-size="${size}" ` +
    `text-anchor="middle" fill="#111111" stroke="#ffffff" stroke-width="${px(size / 6)}" ` +
    `stroke-linejoin="round" paint-order="stroke">${escapeXml(title)}</text>\n`
  );
}
