import { type Colormap, categoryColors, colormap } from './colormaps.js';

/** Values of one column, one per geometry row: numbers (a typed array or numbers with nulls) or labels. */
export type ColumnValues = ArrayLike<unknown>;

/** How a numeric column maps to colour: the value range and the colormap (a colourbar shows it). */
export interface NumericLegend {
  kind: 'numeric';
  title: string;
  vmin: number;
  vmax: number;
  cmap: Colormap;
}

/** How a categorical column maps to colour: each category's colour (a legend box lists them). */
export interface CategoryLegend {
  kind: 'categorical';
  title: string;
  categories: string[];
  colors: string[];
}

/** Row colours as indices into a palette (−1: missing value, not filled), and the legend that explains them. */
export interface ColumnColors {
  index: Int32Array;
  palette: string[];
  legend: NumericLegend | CategoryLegend;
}

/** Numeric colours are quantized to this many steps (invisible on screen, and one string each). */
const LEVELS = 256;
/** GeoPandas' defaults: viridis for numbers, tab10 for categories. */
const DEFAULT_NUMERIC = 'viridis';
const DEFAULT_CATEGORICAL = 'tab10';

function isNumeric(values: ColumnValues): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (typeof v !== 'number' && typeof v !== 'bigint') return false;
  }
  return true;
}

/** The label of a category value: numbers as written, others as text. */
function labelOf(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

export interface ColumnColorOptions {
  title: string;
  cmap?: string;
  categorical?: boolean;
  vmin?: number;
  vmax?: number;
}

/**
 * Colours for a column of `rows` values, as GeoPandas' `plot(column=…)` picks them: numbers (not
 * `categorical`) through a colormap from `vmin` to `vmax` (default their range; NaN and null rows
 * are missing); other values as sorted categories with distinct colours (null rows are missing).
 * A column of the wrong length, or `vmin`/`vmax` that are not finite, are RangeErrors.
 */
export function columnColors(values: ColumnValues, rows: number, options: ColumnColorOptions): ColumnColors {
  if (typeof values === 'string') {
    throw new TypeError(
      `plot: column "${values}" is a name: a frame's plot takes names, a series' plot takes the values (one per row)`,
    );
  }
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number') {
    throw new TypeError('plot: column must be a column name (frames) or one value per row');
  }
  if (values.length !== rows) {
    throw new RangeError(`plot: column has ${values.length} values for ${rows} geometry rows`);
  }
  const numeric = !options.categorical && isNumeric(values);
  return numeric ? numericColors(values, options) : categoricalColors(values, options);
}

function numericColors(values: ColumnValues, options: ColumnColorOptions): ColumnColors {
  const n = values.length;
  const x = new Float64Array(n);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    const value = v === null || v === undefined ? Number.NaN : Number(v);
    x[i] = value;
    if (Number.isFinite(value)) {
      if (value < lo) lo = value;
      if (value > hi) hi = value;
    }
  }
  for (const [name, given] of [
    ['vmin', options.vmin],
    ['vmax', options.vmax],
  ] as const) {
    if (given !== undefined && !Number.isFinite(given))
      throw new RangeError(`plot: ${name} must be finite, got ${given}`);
  }
  const vmin = options.vmin ?? (lo <= hi ? lo : 0);
  const vmax = options.vmax ?? (lo <= hi ? hi : 1);
  if (vmin > vmax) throw new RangeError(`plot: vmin ${vmin} is above vmax ${vmax}`);
  const cmap = colormap(options.cmap ?? DEFAULT_NUMERIC);
  const palette = Array.from({ length: LEVELS }, (_, k) => cmap.at(k / (LEVELS - 1)));
  const index = new Int32Array(n);
  const span = vmax - vmin;
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (!Number.isFinite(v)) {
      index[i] = -1;
      continue;
    }
    const t = span > 0 ? (v - vmin) / span : 0.5;
    index[i] = Math.round(Math.min(1, Math.max(0, t)) * (LEVELS - 1));
  }
  return { index, palette, legend: { kind: 'numeric', title: options.title, vmin, vmax, cmap } };
}

function categoricalColors(values: ColumnValues, options: ColumnColorOptions): ColumnColors {
  const n = values.length;
  const ids = new Map<unknown, number>();
  const first: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) || ids.has(v)) continue;
    ids.set(v, -1);
    first.push(v);
  }
  // sorted as GeoPandas sorts categories: numbers by value, the rest by text
  const sorted = first.every((v) => typeof v === 'number' || typeof v === 'bigint')
    ? first.sort((a, b) => Number(a) - Number(b))
    : first.sort((a, b) => (labelOf(a) < labelOf(b) ? -1 : labelOf(a) > labelOf(b) ? 1 : 0));
  for (let k = 0; k < sorted.length; k++) ids.set(sorted[k], k);
  const colors = categoryColors(colormap(options.cmap ?? DEFAULT_CATEGORICAL), sorted.length);
  const index = new Int32Array(n);
  for (let i = 0; i < n; i++) index[i] = ids.get(values[i]) ?? -1;
  return {
    index,
    palette: colors,
    legend: { kind: 'categorical', title: options.title, categories: sorted.map(labelOf), colors },
  };
}
