import type { CategoryLegend, NumericLegend } from './column-colors.js';
import type { PlotFrame } from './plot-options.js';

/** Space around the map for axes, legend and title, in pixels. */
export interface Margins {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const NO_MARGINS: Margins = { left: 0, right: 0, top: 0, bottom: 0 };

const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
/** Width of a label character, as a fraction of the font size (DejaVu Sans digits are 0.64 em). */
const CHAR_WIDTH = 0.64;
const TICK = 4;
const LEGEND_GAP = 18;
const BAR_WIDTH = 14;
const SWATCH = 12;

const MAX_LABEL = 24;

/** Escapes text for an XML attribute value or text node. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

function px(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The label font size for a picture `width` pixels wide: 11 px, growing on big pictures to 18. */
export function labelSize(width: number): number {
  return Math.min(18, Math.max(11, Math.round(width / 130)));
}

/** How many ticks fit an axis `pixels` long: about one per `spacing` pixels, 4 to 12. */
function tickTarget(pixels: number, spacing: number): number {
  return Math.min(12, Math.max(4, Math.round(pixels / spacing)));
}

const X_TICK_SPACING = 120;
const Y_TICK_SPACING = 90;

function textWidth(text: string, size: number): number {
  return Math.ceil(text.length * size * CHAR_WIDTH);
}

/**
 * "Nice" tick values over [lo, hi]: multiples of 1, 2 or 5 × 10^k, about five of them, and the
 * decimals their labels need.
 */
export function niceTicks(lo: number, hi: number, target = 5): { values: number[]; decimals: number } {
  const span = hi - lo;
  if (!(span > 0) || !Number.isFinite(span)) return { values: Number.isFinite(lo) ? [lo] : [], decimals: 0 };
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => span / s <= target + 1) ?? 10 * power;
  const first = Math.ceil(lo / step - 1e-9);
  const values: number[] = [];
  for (let k = first; k * step <= hi + step * 1e-9; k++) values.push(k * step);
  return { values, decimals: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
}

function tickLabel(value: number, decimals: number): string {
  const text = value.toFixed(Math.min(decimals, 12));
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** The labels the axes will write, to size the margins before the frame exists. */
export function axisLabels(
  bounds: readonly number[],
  pixels: { width: number; height: number },
): { x: string[]; y: string[] } {
  const [xmin, ymin, xmax, ymax] = bounds;
  const xt = niceTicks(xmin, xmax, tickTarget(pixels.width, X_TICK_SPACING));
  const yt = niceTicks(ymin, ymax, tickTarget(pixels.height, Y_TICK_SPACING));
  return {
    x: xt.values.map((v) => tickLabel(v, xt.decimals)),
    y: yt.values.map((v) => tickLabel(v, yt.decimals)),
  };
}

/** Margins for what is drawn around the map. */
export function decorationMargins(parts: {
  axes: boolean;
  bounds: readonly number[];
  legend: NumericLegend | CategoryLegend | null;
  titleSize: number | null;
  width: number;
  height: number;
}): Margins {
  const size = labelSize(parts.width);
  const m = { left: 6, right: 6, top: 6, bottom: 6 };
  if (parts.axes) {
    const labels = axisLabels(parts.bounds, parts);
    m.left = 10 + TICK + Math.max(0, ...labels.y.map((l) => textWidth(l, size)));
    m.bottom = 8 + TICK + size + 4;
    m.right = Math.max(m.right, Math.ceil(textWidth(labels.x.at(-1) ?? '', size) / 2) + 4);
    m.top = Math.max(m.top, size / 2 + 2);
  }
  if (parts.legend) m.right = LEGEND_GAP + legendWidth(parts.legend, size) + 8;
  if (parts.titleSize !== null) m.top = Math.round(parts.titleSize * 1.9);
  return m;
}

function legendLabels(legend: NumericLegend | CategoryLegend): string[] {
  if (legend.kind === 'categorical')
    return legend.categories.map((c) => (c.length > MAX_LABEL ? `${c.slice(0, MAX_LABEL - 1)}…` : c));
  const ticks = niceTicks(legend.vmin, legend.vmax, 5);
  return ticks.values.map((v) => tickLabel(v, ticks.decimals));
}

function legendWidth(legend: NumericLegend | CategoryLegend, size: number): number {
  const labels = legendLabels(legend);
  const widest = Math.max(
    textWidth(legend.title, size),
    ...labels.map(
      (l) => textWidth(l, size) + (legend.kind === 'numeric' ? BAR_WIDTH + TICK + 4 : SWATCH + 6),
    ),
  );
  return Math.min(widest, textWidth('x'.repeat(MAX_LABEL), size) + SWATCH + 6);
}

/** The map's pixel rectangle: where the data window lies in the picture. */
function mapRect(
  frame: PlotFrame,
  bounds: readonly number[],
): { x0: number; y0: number; x1: number; y1: number } {
  const [xmin, ymin, xmax, ymax] = bounds;
  return {
    x0: (xmin - frame.x0) * frame.scale + frame.left,
    x1: (xmax - frame.x0) * frame.scale + frame.left,
    y0: (frame.y1 - ymax) * frame.scale + frame.top,
    y1: (frame.y1 - ymin) * frame.scale + frame.top,
  };
}

const label = (x: number, y: number, anchor: string, text: string, extra = '') =>
  `<text x="${px(x)}" y="${px(y)}" text-anchor="${anchor}"${extra}>${escapeXml(text)}</text>\n`;

/** A frame around the data window with outward ticks and coordinate labels at nice values. */
export function axesSvg(frame: PlotFrame, bounds: readonly number[]): string {
  const [xmin, ymin, xmax, ymax] = bounds;
  const r = mapRect(frame, bounds);
  const size = labelSize(frame.width);
  const xt = niceTicks(xmin, xmax, tickTarget(frame.width, X_TICK_SPACING));
  const yt = niceTicks(ymin, ymax, tickTarget(frame.height, Y_TICK_SPACING));
  let ticks = '';
  let text = '';
  for (const v of xt.values) {
    const x = px((v - frame.x0) * frame.scale + frame.left);
    ticks += `M${x} ${px(r.y1)}v${TICK}`;
    text += label(x, r.y1 + TICK + size + 1, 'middle', tickLabel(v, xt.decimals));
  }
  for (const v of yt.values) {
    const y = px((frame.y1 - v) * frame.scale + frame.top);
    ticks += `M${px(r.x0)} ${y}h${-TICK}`;
    text += label(r.x0 - TICK - 3, y + size * 0.35, 'end', tickLabel(v, yt.decimals));
  }
  return (
    `<g fill="none" stroke="#444444" stroke-width="0.8">\n` +
    `<rect x="${px(r.x0)}" y="${px(r.y0)}" width="${px(r.x1 - r.x0)}" height="${px(r.y1 - r.y0)}"/>\n` +
    `<path d="${ticks}"/>\n</g>\n` +
    `<g font-family="${FONT}" font-size="${size}" fill="#333333">\n${text}</g>\n`
  );
}

/**
 * The legend right of the map: a colourbar with ticks for a numeric column, or a box of colour
 * swatches and category names (as many as fit the picture's height, then "… N more").
 */
export function legendSvg(
  legend: NumericLegend | CategoryLegend,
  frame: PlotFrame,
  bounds: readonly number[],
): string {
  const r = mapRect(frame, bounds);
  const size = labelSize(frame.width);
  const x = Math.max(r.x1, 0) + LEGEND_GAP;
  const top = Math.max(r.y0, 4) + size + 8;
  let out = `<g font-family="${FONT}" font-size="${size}" fill="#333333">\n`;
  out += label(x, top - 8, 'start', legend.title, ' font-weight="bold"');
  if (legend.kind === 'numeric') {
    const height = Math.max(40, Math.min(frame.height - top - 12, (r.y1 - r.y0) * 0.75));
    const a = legend.cmap.anchors;
    // the top of the bar is vmax: the last anchor first
    const stops = a
      .map((_, i) => `<stop offset="${px(i / (a.length - 1))}" stop-color="${a[a.length - 1 - i]}"/>`)
      .join('');
    const stepped = legend.cmap.qualitative;
    out +=
      `<defs><linearGradient id="geoframe-colorbar" x1="0" y1="0" x2="0" y2="1">${stepped ? steppedStops(legend.cmap.anchors) : stops}</linearGradient></defs>\n` +
      `<rect x="${px(x)}" y="${px(top)}" width="${BAR_WIDTH}" height="${px(height)}" fill="url(#geoframe-colorbar)" stroke="#444444" stroke-width="0.8"/>\n`;
    const ticks = niceTicks(legend.vmin, legend.vmax, 5);
    const span = legend.vmax - legend.vmin;
    let marks = '';
    for (const v of ticks.values) {
      const y = px(top + (span > 0 ? (1 - (v - legend.vmin) / span) * height : height / 2));
      marks += `M${px(x + BAR_WIDTH)} ${y}h${TICK}`;
      out += label(x + BAR_WIDTH + TICK + 3, y + size * 0.35, 'start', tickLabel(v, ticks.decimals));
    }
    out += `<path d="${marks}" stroke="#444444" stroke-width="0.8" fill="none"/>\n`;
  } else {
    const labels = legendLabels(legend);
    const row = Math.round(size * 1.6);
    const fit = Math.max(1, Math.floor((frame.height - top - 4) / row));
    const shown = labels.length > fit ? fit - 1 : labels.length;
    for (let k = 0; k < shown; k++) {
      const y = top + k * row;
      out += `<rect x="${px(x)}" y="${px(y)}" width="${SWATCH}" height="${SWATCH}" fill="${legend.colors[k]}" stroke="#444444" stroke-width="0.6"/>\n`;
      out += label(x + SWATCH + 6, y + SWATCH - 2, 'start', labels[k]);
    }
    if (shown < labels.length)
      out += label(x, top + shown * row + SWATCH - 2, 'start', `… ${labels.length - shown} more`);
  }
  return `${out}</g>\n`;
}

/** Gradient stops that step between a qualitative map's colours (top = last). */
function steppedStops(colors: readonly string[]): string {
  const n = colors.length;
  let stops = '';
  for (let i = 0; i < n; i++) {
    const c = colors[n - 1 - i];
    stops += `<stop offset="${px(i / n)}" stop-color="${c}"/><stop offset="${px((i + 1) / n)}" stop-color="${c}"/>`;
  }
  return stops;
}

/** The title, centred at the top: in its own band above the map when `band`, else over the map with a white halo. */
export function titleSvg(title: string, width: number, size: number, band: boolean): string {
  const y = band ? Math.round(size * 1.25) : Math.round(size * 1.4);
  const halo = band
    ? ''
    : ` stroke="#ffffff" stroke-width="${px(size / 6)}" stroke-linejoin="round" paint-order="stroke"`;
  return (
    `<text x="${px(width / 2)}" y="${y}" font-family="${FONT}" font-size="${size}" ` +
    `text-anchor="middle" fill="#111111"${halo}>${escapeXml(title)}</text>\n`
  );
}
