import { checkOptions, type GeometryArray, GeometryType } from '@geoframe/core';
import { type ColumnColors, columnColors } from './column-colors.js';
import { DOT_RADII, densityDotClasses, radiusClass } from './dot-sizes.js';
import { neighborColors } from './neighbor-colors.js';
import { NEIGHBOR_PALETTE } from './palette.js';
import {
  axesSvg,
  decorationMargins,
  escapeXml,
  legendSvg,
  NO_MARGINS,
  titleSvg,
} from './plot-decorations.js';
import { PLOT_OPTION_KEYS, type PlotFrame, type PlotOptions, plotBounds, plotFrame } from './plot-options.js';
import { type PlotStyle, resolveStyle } from './plot-style.js';
import { SvgBytes } from './svg-bytes.js';
import { SvgPathWriter } from './svg-path.js';

function clamp(value: number, lo: number, hi: number): number {
  return Math.min(Math.max(value, lo), hi);
}

/** A pixel length as written: at most two decimals. */
function px(value: number): number {
  return Math.round(value * 100) / 100;
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

/** The colour of row `i` from `column`, or null when its value is missing. */
function rowColor(colors: ColumnColors, i: number): string | null {
  const k = colors.index[i];
  return k < 0 ? null : colors.palette[k];
}

/** Whether any coordinate of row `i` is of dot class `cls`. */
function rowHasClass(array: GeometryArray, i: number, classes: Uint8Array, cls: number): boolean {
  const [start, end] = array.coordRange(i);
  for (let k = start; k < end; k++) if (classes[k] === cls) return true;
  return false;
}

/** What one picture needs besides the frame: the style, the row colours, the dot classes. */
interface Drawing {
  geometry: GeometryArray;
  frame: PlotFrame;
  style: PlotStyle;
  column: ColumnColors | null;
  out: SvgBytes;
  writer: SvgPathWriter;
}

/** Polygons filled (neighbour colours, one colour, or the column's) and outlined, in row order. */
function drawPolygons(d: Drawing, polygonCount: number): void {
  const { geometry, style, column, out, writer } = d;
  const polygonSize = Math.sqrt((d.frame.width * d.frame.height) / Math.max(1, polygonCount));
  // outlines a tenth of the typical polygon's size; none when polygons are a few pixels wide
  const strokeWidth = style.strokeWidth ?? (polygonSize < 3 ? 0 : clamp(0.1 * polygonSize, 0.2, 1));
  const neighbors = column === null && style.fill === 'neighbors' ? neighborColors(geometry) : null;
  const groupFill = column !== null || neighbors !== null ? '' : ` fill="${escapeXml(style.fill)}"`;
  const outline =
    strokeWidth > 0
      ? `stroke="${escapeXml(style.stroke)}" stroke-width="${px(strokeWidth)}" stroke-linejoin="round"`
      : 'stroke="none"';
  out.text(`<g fill-rule="evenodd"${groupFill} ${outline}>\n`);
  for (let i = 0; i < geometry.length; i++) {
    if (kindOf(geometry, i) !== POLYGON) continue;
    out.text('<path d="');
    writer.rings(i);
    if (column !== null) out.text(`" fill="${rowColor(column, i) ?? 'none'}"/>\n`);
    else if (neighbors !== null)
      out.text(`" fill="${NEIGHBOR_PALETTE[neighbors[i] % NEIGHBOR_PALETTE.length]}"/>\n`);
    else out.text('"/>\n');
  }
  out.text('</g>\n');
}

/** Lines stroked at least 1 pixel wide, in the line colour or the column's. */
function drawLines(d: Drawing): void {
  const { geometry, style, column, out, writer } = d;
  const width = px(Math.max(1, style.strokeWidth ?? 1));
  out.text(
    `<g fill="none" stroke="${escapeXml(style.lineColor)}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round">\n`,
  );
  for (let i = 0; i < geometry.length; i++) {
    if (kindOf(geometry, i) !== LINE) continue;
    const color = column === null ? null : rowColor(column, i);
    if (column !== null && color === null) continue; // a missing value draws no line
    out.text('<path d="');
    writer.lines(i);
    out.text(color === null ? '"/>\n' : `" stroke="${color}"/>\n`);
  }
  out.text('</g>\n');
}

/** Point rows as dots, one group per dot size class, coloured by the column when there is one. */
function drawDots(d: Drawing, classes: Uint8Array | null, fixedClass: number): void {
  const { geometry, style, column, out, writer } = d;
  for (let c = 0; c < DOT_RADII.length; c++) {
    if (classes === null && c !== fixedClass) continue;
    let open = false;
    for (let i = 0; i < geometry.length; i++) {
      if (kindOf(geometry, i) !== DOT) continue;
      if (classes !== null && !rowHasClass(geometry, i, classes, c)) continue;
      const color = column === null ? null : rowColor(column, i);
      if (column !== null && color === null) continue;
      if (!open) {
        out.text(`<g ${dotStyle(style.pointColor, radiusOf(style, c))}>\n`);
        open = true;
      }
      out.text('<path d="');
      if (classes === null) writer.dots(i);
      else writer.dots(i, classes, c);
      out.text(color === null ? '"/>\n' : `" stroke="${color}"/>\n`);
    }
    if (open) out.text('</g>\n');
  }
}

function radiusOf(style: PlotStyle, cls: number): number {
  return style.pointRadius ?? DOT_RADII[cls];
}

function dotStyle(color: string, radius: number): string {
  return `fill="none" stroke="${escapeXml(color)}" stroke-width="${px(2 * radius)}" stroke-linecap="round"`;
}

/** The `points` overlay: one path per dot size class present. */
function drawOverlay(
  d: Drawing,
  overlay: GeometryArray,
  classes: Uint8Array | null,
  fixedClass: number,
): void {
  const writer = new SvgPathWriter(overlay, d.frame, d.out);
  for (let c = 0; c < DOT_RADII.length; c++) {
    if (classes === null ? c !== fixedClass : !classes.includes(c)) continue;
    d.out.text('<path d="');
    for (let i = 0; i < overlay.length; i++) {
      if (!overlay.isValid(i) || overlay.isEmpty(i)) continue;
      if (classes === null) writer.dots(i);
      else writer.dots(i, classes, c);
    }
    d.out.text(`" ${dotStyle(d.style.pointColor, radiusOf(d.style, c))}/>\n`);
  }
}

/**
 * Draws a geometry column as an SVG document (y up in the data, flipped to SVG's y down).
 *
 * - Every non-null, non-empty row becomes one `<path>`, in row order within its kind: polygons
 *   and multipolygons filled (holes cut out, fill-rule evenodd) and outlined; linestrings and
 *   multilinestrings stroked; points and multipoints drawn as dots. Polygons go below lines, lines
 *   below dots. Null and empty rows draw nothing. Mixed columns are drawn row by row.
 * - With `column`, rows take their value's colour (see {@link PlotOptions.column}); otherwise,
 *   with `fill: 'neighbors'` (default) each polygon row gets a palette colour different from every
 *   polygon sharing a segment with it (see `neighborColors`).
 * - Dots (point rows and `options.points`) adapt their size to the local density unless
 *   `markersize`/`pointRadius` fixes it; `points` are drawn last, one `<path>` per dot size.
 * - `axes` draws a frame with coordinate ticks, `legend` a colourbar or category box for
 *   `column`, `title` a heading; the map is clipped to its window when any of them is drawn.
 * - Coordinates are written in pixels with at most two decimals. Only x and y are read.
 *
 * The root element has `width`, `height` and `viewBox="0 0 width height"` from the options
 * (see {@link PlotOptions}). Unknown options are a TypeError; a non-positive size, invalid
 * bounds, an unknown cmap or a column of the wrong length a RangeError.
 */
export function plotSvg(geometry: GeometryArray, options: PlotOptions = {}): string {
  checkOptions(options, PLOT_OPTION_KEYS, 'plot');
  const style = resolveStyle(options);
  const column =
    options.column === undefined
      ? null
      : columnColors(options.column, geometry.length, {
          title: options.legendLabel ?? 'value',
          cmap: options.cmap,
          categorical: options.categorical,
          vmin: options.vmin,
          vmax: options.vmax,
        });
  for (const key of ['legend', 'cmap', 'categorical', 'vmin', 'vmax', 'legendLabel'] as const) {
    if (options[key] !== undefined && column === null) {
      throw new TypeError(`plot: ${key} applies to the colours of a column; give column too`);
    }
  }
  const bounds = plotBounds(geometry, options);
  const legend = options.legend === true && column !== null ? column.legend : null;
  const title = options.title !== undefined && options.title !== '' ? options.title : null;
  const titleSize = clamp(Math.round((options.width ?? 800) / 32), 10, 24);
  const decorated = options.axes === true || legend !== null;
  const margins = decorated
    ? decorationMargins({
        axes: options.axes === true,
        bounds,
        legend,
        titleSize: title === null ? null : titleSize,
        width: options.width ?? 800,
        height: options.height ?? 600,
      })
    : NO_MARGINS;
  const frame = plotFrame(geometry, options, margins, bounds);
  const { width, height } = frame;

  let polygonCount = 0;
  let lineCount = 0;
  let dotRows = 0;
  for (let i = 0; i < geometry.length; i++) {
    const kind = kindOf(geometry, i);
    if (kind === POLYGON) polygonCount++;
    else if (kind === LINE) lineCount++;
    else if (kind === DOT) dotRows++;
  }
  const overlay = options.points;
  const adaptive = style.pointRadius === undefined;
  const [ownClasses, overlayClasses] = adaptive
    ? densityDotClasses(overlay ? [geometry, overlay] : [geometry], frame)
    : [null, null];
  const fixedClass = adaptive ? -1 : radiusClass(style.pointRadius ?? 1);

  const out = new SvgBytes();
  const d: Drawing = { geometry, frame, style, column, out, writer: new SvgPathWriter(geometry, frame, out) };
  out.text(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n`,
  );
  const background = options.background ?? '#ffffff';
  if (background !== 'none')
    out.text(`<rect width="${width}" height="${height}" fill="${escapeXml(background)}"/>\n`);
  if (decorated) {
    const [x0, y0, x1, y1] = bounds;
    const cx = (x0 - frame.x0) * frame.scale + frame.left;
    const cy = (frame.y1 - y1) * frame.scale + frame.top;
    out.text(
      `<clipPath id="geoframe-map"><rect x="${px(cx)}" y="${px(cy)}" width="${px((x1 - x0) * frame.scale)}" height="${px((y1 - y0) * frame.scale)}"/></clipPath>\n<g clip-path="url(#geoframe-map)">\n`,
    );
  }
  // one pass per kind, so polygons lie under lines and lines under dots
  if (polygonCount > 0) drawPolygons(d, polygonCount);
  if (lineCount > 0) drawLines(d);
  if (dotRows > 0) drawDots(d, ownClasses, fixedClass);
  if (overlay) drawOverlay(d, overlay, overlayClasses, fixedClass);
  if (decorated) out.text('</g>\n');
  if (options.axes === true) out.text(axesSvg(frame, bounds));
  if (legend !== null) out.text(legendSvg(legend, frame, bounds));
  if (title !== null) out.text(titleSvg(title, width, titleSize, decorated));
  out.text('</svg>\n');
  return out.finish();
}
