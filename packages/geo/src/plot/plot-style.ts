import type { PlotOptions } from './plot-options.js';

/** The drawing style after GeoPandas' names (`facecolor`, `edgecolor`, …) and ours are merged. */
export interface PlotStyle {
  fill: string;
  stroke: string;
  /** Colour of line rows: `color` when given without an edge colour, else the outline colour. */
  lineColor: string;
  strokeWidth: number | undefined;
  pointColor: string;
  /** A fixed dot radius, or undefined to adapt dots to the local density. */
  pointRadius: number | undefined;
}

function checkLength(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
    throw new RangeError(`plot: ${name} must be a non-negative number of pixels, got ${value}`);
  }
}

/** `a` or `b` (two names for one setting); both given is a TypeError naming them. */
function either<T>(options: PlotOptions, a: keyof PlotOptions, b: keyof PlotOptions): T | undefined {
  const va = options[a] as T | undefined;
  const vb = options[b] as T | undefined;
  if (va !== undefined && vb !== undefined) {
    throw new TypeError(`plot: ${String(a)} and ${String(b)} name the same setting; give one`);
  }
  return va ?? vb;
}

/**
 * The style `options` ask for: GeoPandas' `facecolor`/`edgecolor`/`linewidth`/`markersize` (a
 * diameter in pixels) or ours (`fill`/`stroke`/`strokeWidth`/`pointRadius`), with `color` as the
 * fill, line and dot colour unless a more specific one is given.
 */
export function resolveStyle(options: PlotOptions): PlotStyle {
  const fill = either<string>(options, 'facecolor', 'fill') ?? options.color ?? 'neighbors';
  const edge = either<string>(options, 'edgecolor', 'stroke');
  const stroke = edge ?? '#333333';
  const lineColor = edge ?? options.color ?? stroke;
  const strokeWidth = either<number>(options, 'linewidth', 'strokeWidth');
  checkLength('linewidth', strokeWidth);
  const markersize = options.markersize;
  checkLength('markersize', markersize);
  checkLength('pointRadius', options.pointRadius);
  if (markersize !== undefined && options.pointRadius !== undefined) {
    throw new TypeError('plot: markersize and pointRadius name the same setting; give one');
  }
  const pointRadius = markersize !== undefined ? markersize / 2 : options.pointRadius;
  const pointColor = options.pointColor ?? options.color ?? '#1a1a1a';
  for (const [name, value] of Object.entries({ fill, stroke, lineColor, pointColor })) {
    if (typeof value !== 'string' || value === '')
      throw new TypeError(`plot: ${name} must be a colour string`);
  }
  return { fill, stroke, lineColor, strokeWidth, pointColor, pointRadius };
}
