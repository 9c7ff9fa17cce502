import { checkOptions, type GeometryArray, GeometryType } from '@geoframe/core';
import { neighborColors } from './neighbor-colors.js';
import { NEIGHBOR_PALETTE } from './palette.js';
import { PLOT_OPTION_KEYS, type PlotOptions, plotFrame } from './plot-options.js';
import { SvgBytes } from './svg-bytes.js';
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

const SKIP = 0;
const POLYGON = 1;
const LINE = 2;
const DOT = 3;

/** How row `i` is drawn: not at all (null, empty), filled, stroked, or as dots. */
function kindOf(array: GeometryArray, i: number): number {
  const type = array.typeOf(i);
  if (type === null || array.isEmpty(i)) return SKIP;
  if (type === GeometryType.Polygon || type === GeometryType.MultiPolygon) return POLYGON;
  if (type === GeometryType.LineString || type === GeometryType.MultiLineString) return LINE;
  return DOT;
}

/**
 * Number of coordinates drawn as dots (for the default dot size): those of point and multipoint
 * rows, or with `all`, of every non-null non-empty row.
 */
function countDots(array: GeometryArray, all: boolean): number {
  const { geometryOffsets, partOffsets, ringOffsets } = array.nestedOffsets();
  let count = 0;
  for (let i = 0; i < array.length; i++) {
    const kind = kindOf(array, i);
    if (kind === SKIP || (!all && kind !== DOT)) continue;
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
  checkOptions(options, PLOT_OPTION_KEYS, 'plot');
  const frame = plotFrame(geometry, options);
  checkLength('strokeWidth', options.strokeWidth);
  checkLength('pointRadius', options.pointRadius);
  const { width, height } = frame;
  const area = width * height;
  const fill = options.fill ?? 'neighbors';
  const stroke = escapeXml(options.stroke ?? '#333333');
  const pointColor = escapeXml(options.pointColor ?? '#1a1a1a');

  let polygonCount = 0;
  let lineCount = 0;
  for (let i = 0; i < geometry.length; i++) {
    const kind = kindOf(geometry, i);
    if (kind === POLYGON) polygonCount++;
    else if (kind === LINE) lineCount++;
  }
  // outlines a tenth of the typical polygon's size; none when polygons are a few pixels wide
  const polygonSize = Math.sqrt(area / Math.max(1, polygonCount));
  const strokeWidth = options.strokeWidth ?? (polygonSize < 3 ? 0 : clamp(0.1 * polygonSize, 0.2, 1));
  const colors = fill === 'neighbors' && polygonCount > 0 ? neighborColors(geometry) : null;

  const ownDots = countDots(geometry, false);
  const overlay = options.points;
  const overlayDots = overlay ? countDots(overlay, true) : 0;
  const radius =
    options.pointRadius ?? clamp(0.15 * Math.sqrt(area / Math.max(1, ownDots + overlayDots)), 0.35, 3);
  const dotStyle = `fill="none" stroke="${pointColor}" stroke-width="${px(2 * radius)}" stroke-linecap="round"`;

  const out = new SvgBytes();
  const writer = new SvgPathWriter(geometry, frame, out);
  out.text(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n`,
  );
  const background = options.background ?? '#ffffff';
  if (background !== 'none') {
    out.text(`<rect width="${width}" height="${height}" fill="${escapeXml(background)}"/>\n`);
  }
  // one pass per kind, so polygons lie under lines and lines under dots
  if (polygonCount > 0) {
    const polygonFill = fill === 'neighbors' ? '' : ` fill="${escapeXml(fill)}"`;
    const outline =
      strokeWidth > 0
        ? `stroke="${stroke}" stroke-width="${px(strokeWidth)}" stroke-linejoin="round"`
        : 'stroke="none"';
    out.text(`<g fill-rule="evenodd"${polygonFill} ${outline}>\n`);
    const fills = colors ? NEIGHBOR_PALETTE.map((c) => `" fill="${c}"/>\n`) : null;
    for (let i = 0; i < geometry.length; i++) {
      if (kindOf(geometry, i) !== POLYGON) continue;
      out.text('<path d="');
      writer.rings(i);
      out.text(fills && colors ? fills[colors[i] % fills.length] : '"/>\n');
    }
    out.text('</g>\n');
  }
  if (lineCount > 0) {
    const lineWidth = px(Math.max(1, strokeWidth));
    out.text(
      `<g fill="none" stroke="${stroke}" stroke-width="${lineWidth}" stroke-linecap="round" stroke-linejoin="round">\n`,
    );
    for (let i = 0; i < geometry.length; i++) {
      if (kindOf(geometry, i) !== LINE) continue;
      out.text('<path d="');
      writer.lines(i);
      out.text('"/>\n');
    }
    out.text('</g>\n');
  }
  if (ownDots > 0) {
    out.text(`<g ${dotStyle}>\n`);
    for (let i = 0; i < geometry.length; i++) {
      if (kindOf(geometry, i) !== DOT) continue;
      out.text('<path d="');
      writer.dots(i);
      out.text('"/>\n');
    }
    out.text('</g>\n');
  }
  if (overlay && overlayDots > 0) {
    // all overlay points in one path
    const overlayWriter = new SvgPathWriter(overlay, frame, out);
    out.text('<path d="');
    for (let i = 0; i < overlay.length; i++) {
      if (overlay.isValid(i) && !overlay.isEmpty(i)) overlayWriter.dots(i);
    }
    out.text(`" ${dotStyle}/>\n`);
  }
  if (options.title !== undefined && options.title !== '') out.text(titleText(options.title, width));
  out.text('</svg>\n');
  return out.finish();
}

/** The title, centred at the top, with a white halo so it reads over the map. */
function titleText(title: string, width: number): string {
  const size = clamp(Math.round(width / 32), 10, 24);
  return (
    `<text x="${px(width / 2)}" y="${Math.round(size * 1.4)}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="${size}" ` +
    `text-anchor="middle" fill="#111111" stroke="#ffffff" stroke-width="${px(size / 6)}" ` +
    `stroke-linejoin="round" paint-order="stroke">${escapeXml(title)}</text>\n`
  );
}
