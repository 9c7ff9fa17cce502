import { type GeometryArray, totalBounds } from '@geoframe/core';
import type { ColumnValues } from './column-colors.js';
import { type Margins, NO_MARGINS } from './plot-decorations.js';

/** How `plotSvg` / `plotPng` draw a geometry column. Every field is optional. */
export interface PlotOptions {
  /** Picture width in pixels; default 800. */
  width?: number;
  /**
   * Picture height in pixels; default from the aspect ratio of `bounds`, at most 800 (a tall
   * picture keeps the data's aspect and is centred horizontally).
   */
  height?: number;
  /**
   * The data window `[xmin, ymin, xmax, ymax]` (y up); default the total bounds of the geometry
   * and `points`, widened by 2% on each side. The window is fitted into the picture with equal
   * scales on both axes and centred; geometry outside it is cut off at the picture's edge.
   */
  bounds?: [number, number, number, number];
  /** Sites drawn on top as small dots (every coordinate of every row, whatever the type). */
  points?: GeometryArray;
  /**
   * Polygon fill: `'neighbors'` (default) colours polygons so that polygons sharing a segment
   * never share a colour; `'none'` draws outlines only; any other string is an SVG colour for all.
   */
  fill?: 'neighbors' | 'none' | (string & {});
  /** Colour of polygon outlines and of lines; default `'#333333'`. */
  stroke?: string;
  /**
   * Outline width in pixels; default a tenth of the typical polygon size (√(picture area / polygon
   * count)) between 0.2 and 1, and no outline when polygons are under 3 pixels across. Lines are
   * drawn at least 1 pixel wide. 0 draws no outlines.
   */
  strokeWidth?: number;
  /** Colour of dots (point rows and `points`); default `'#1a1a1a'`. */
  pointColor?: string;
  /** Dot radius in pixels; default 0.15 × the typical spacing of the dots, between 0.35 and 3. */
  pointRadius?: number;
  /** Background colour; default `'#ffffff'`; `'none'` leaves it transparent. */
  background?: string;
  /** A title written at the top centre (above the map when axes or a legend are drawn). */
  title?: string;
  /**
   * Colour rows by a column (GeoPandas' `column`): one value per row. Numbers go through `cmap`
   * from `vmin` to `vmax`; other values (or numbers with `categorical`) are categories with
   * distinct colours. Null and NaN rows are missing: outlined, not filled. Polygons are filled,
   * lines stroked and dots drawn in their row's colour. (A frame's `plot` takes a column name.)
   */
  column?: ColumnValues;
  /** Colormap by matplotlib name (`viridis` default for numbers, `tab10` for categories; `_r` reverses). */
  cmap?: string;
  /** Treat a numeric `column` as categories. */
  categorical?: boolean;
  /** Value at the low / high end of the colormap; default the column's range. */
  vmin?: number;
  vmax?: number;
  /** Draw a legend for `column`: a colourbar (numbers) or a box of categories; default false, as in GeoPandas. */
  legend?: boolean;
  /** The legend's heading; default the column's name (a frame) or "value". */
  legendLabel?: string;
  /** Draw a frame with coordinate ticks around the map; default false (a bare map). */
  axes?: boolean;
  /** One colour for everything: polygon fill, lines and dots (GeoPandas' `color`). */
  color?: string;
  /** Polygon fill colour (GeoPandas' name for `fill`). */
  facecolor?: string;
  /** Outline and line colour (GeoPandas' name for `stroke`). */
  edgecolor?: string;
  /** Outline and line width in pixels (GeoPandas' name for `strokeWidth`). */
  linewidth?: number;
  /**
   * Dot diameter in pixels (GeoPandas' `markersize`, here in pixels rather than points²); by
   * default dots adapt to the local density (see `densityDotClasses`).
   */
  markersize?: number;
}

/** The keys of {@link PlotOptions}: anything else is refused (`checkOptions`). */
export const PLOT_OPTION_KEYS = [
  'width',
  'height',
  'bounds',
  'points',
  'fill',
  'stroke',
  'strokeWidth',
  'pointColor',
  'pointRadius',
  'background',
  'title',
  'column',
  'cmap',
  'categorical',
  'vmin',
  'vmax',
  'legend',
  'legendLabel',
  'axes',
  'color',
  'facecolor',
  'edgecolor',
  'linewidth',
  'markersize',
] as const;

/** The picture size and the affine map from data coordinates (y up) to pixels (y down). */
export interface PlotFrame {
  width: number;
  height: number;
  /** Pixels per data unit, the same on both axes. */
  scale: number;
  /** Pixel x of data x: `(x - x0) * scale + left`. */
  x0: number;
  left: number;
  /** Pixel y of data y: `(y1 - y) * scale + top`. */
  y1: number;
  top: number;
}

const DEFAULT_WIDTH = 800;
const MAX_DEFAULT_HEIGHT = 800;
const MARGIN = 0.02;

function checkSize(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`plot: ${name} must be a positive number of pixels, got ${value}`);
  }
  return Math.round(value) || 1;
}

/** The data window the options ask for, or the 2%-widened bounds of what is drawn. */
export function plotBounds(geometry: GeometryArray, options: PlotOptions): [number, number, number, number] {
  if (options.bounds) {
    const [xmin, ymin, xmax, ymax] = options.bounds;
    if (![xmin, ymin, xmax, ymax].every(Number.isFinite) || xmin > xmax || ymin > ymax) {
      throw new RangeError(`plot: bounds must be finite [xmin, ymin, xmax, ymax], got [${options.bounds}]`);
    }
    return [xmin, ymin, xmax, ymax];
  }
  let [xmin, ymin, xmax, ymax] = totalBounds(geometry);
  if (options.points) {
    const [pxmin, pymin, pxmax, pymax] = totalBounds(options.points);
    // Math.min/max would spread a NaN from an empty side; comparisons skip it
    if (!(xmin <= pxmin)) xmin = pxmin;
    if (!(ymin <= pymin)) ymin = pymin;
    if (!(xmax >= pxmax)) xmax = pxmax;
    if (!(ymax >= pymax)) ymax = pymax;
  }
  if (!(xmin <= xmax && ymin <= ymax)) return [0, 0, 1, 1]; // nothing to draw
  const dx = xmax - xmin;
  const dy = ymax - ymin;
  // a flat or single-point extent borrows the other axis's margin, or a unit window
  const span = Math.max(dx, dy);
  const mx = dx > 0 ? dx * MARGIN : span > 0 ? span * MARGIN : 0.5;
  const my = dy > 0 ? dy * MARGIN : span > 0 ? span * MARGIN : 0.5;
  return [xmin - mx, ymin - my, xmax + mx, ymax + my];
}

/**
 * The picture size and data → pixel map for `geometry` under `options`; `margins` (axes, legend,
 * title band) are kept free around the map, and the default height follows the map's aspect.
 */
export function plotFrame(
  geometry: GeometryArray,
  options: PlotOptions,
  margins: Margins = NO_MARGINS,
  bounds = plotBounds(geometry, options),
): PlotFrame {
  const [xmin, ymin, xmax, ymax] = bounds;
  const width = checkSize('width', options.width ?? DEFAULT_WIDTH);
  const innerWidth = Math.max(1, width - margins.left - margins.right);
  const across = margins.top + margins.bottom;
  const dx = xmax - xmin;
  const dy = ymax - ymin;
  let height: number;
  if (options.height !== undefined) height = checkSize('height', options.height);
  else if (dx > 0 && dy > 0)
    height = Math.max(1, Math.min(MAX_DEFAULT_HEIGHT, Math.round((innerWidth * dy) / dx) + across));
  else height = Math.min(width, MAX_DEFAULT_HEIGHT);
  const innerHeight = Math.max(1, height - across);
  // equal scales: fit the window, centre the slack
  const sx = dx > 0 ? innerWidth / dx : Number.POSITIVE_INFINITY;
  const sy = dy > 0 ? innerHeight / dy : Number.POSITIVE_INFINITY;
  let scale = Math.min(sx, sy);
  if (!Number.isFinite(scale)) scale = 1; // a zero-area window (explicit bounds): nothing to fit
  return {
    width,
    height,
    scale,
    x0: xmin,
    left: margins.left + (innerWidth - dx * scale) / 2,
    y1: ymax,
    top: margins.top + (innerHeight - dy * scale) / 2,
  };
}
