/**
 * Named colormaps with matplotlib's names, as evenly spaced anchor colours: the perceptually
 * uniform sequential maps (viridis and its kin, sampled from matplotlib), ColorBrewer's sequential
 * and diverging maps, and qualitative sets for categories. A name ending in `_r` is the reversed map.
 */
const ANCHORS: Record<string, readonly string[]> = {
  viridis: [
    '#440154',
    '#482878',
    '#3e4989',
    '#31688e',
    '#26828e',
    '#1f9e89',
    '#35b779',
    '#6ece58',
    '#b5de2b',
    '#fde725',
  ],
  plasma: [
    '#0d0887',
    '#46039f',
    '#7201a8',
    '#9c179e',
    '#bd3786',
    '#d8576b',
    '#ed7953',
    '#fb9f3a',
    '#fdca26',
    '#f0f921',
  ],
  inferno: [
    '#000004',
    '#1b0c41',
    '#4a0c6b',
    '#781c6d',
    '#a52c60',
    '#cf4446',
    '#ed6925',
    '#fb9b06',
    '#f7d13d',
    '#fcffa4',
  ],
  magma: [
    '#000004',
    '#180f3d',
    '#440f76',
    '#721f81',
    '#9e2f7f',
    '#cd4071',
    '#f1605d',
    '#fd9668',
    '#feca8d',
    '#fcfdbf',
  ],
  cividis: [
    '#00224e',
    '#123570',
    '#3b496c',
    '#575d6d',
    '#707173',
    '#8a8678',
    '#a59c74',
    '#c3b369',
    '#e1cc55',
    '#fee838',
  ],
  Greys: ['#ffffff', '#f0f0f0', '#d9d9d9', '#bdbdbd', '#969696', '#737373', '#525252', '#252525', '#000000'],
  Blues: ['#f7fbff', '#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c', '#08306b'],
  Reds: ['#fff5f0', '#fee0d2', '#fcbba1', '#fc9272', '#fb6a4a', '#ef3b2c', '#cb181d', '#a50f15', '#67000d'],
  Greens: ['#f7fcf5', '#e5f5e0', '#c7e9c0', '#a1d99b', '#74c476', '#41ab5d', '#238b45', '#006d2c', '#00441b'],
  YlOrRd: ['#ffffcc', '#ffeda0', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#bd0026', '#800026'],
  RdBu: [
    '#67001f',
    '#b2182b',
    '#d6604d',
    '#f4a582',
    '#fddbc7',
    '#f7f7f7',
    '#d1e5f0',
    '#92c5de',
    '#4393c3',
    '#2166ac',
    '#053061',
  ],
  coolwarm: ['#3b4cc0', '#6788ee', '#9abbff', '#c9d7f0', '#edd1c2', '#f7a889', '#e26952', '#b40426'],
  tab10: [
    '#1f77b4',
    '#ff7f0e',
    '#2ca02c',
    '#d62728',
    '#9467bd',
    '#8c564b',
    '#e377c2',
    '#7f7f7f',
    '#bcbd22',
    '#17becf',
  ],
  Set3: [
    '#8dd3c7',
    '#ffffb3',
    '#bebada',
    '#fb8072',
    '#80b1d3',
    '#fdb462',
    '#b3de69',
    '#fccde5',
    '#d9d9d9',
    '#bc80bd',
    '#ccebc5',
    '#ffed6f',
  ],
  Pastel1: [
    '#fbb4ae',
    '#b3cde3',
    '#ccebc5',
    '#decbe4',
    '#fed9a6',
    '#ffffcc',
    '#e5d8bd',
    '#fddaec',
    '#f2f2f2',
  ],
};

/** Qualitative maps: their colours are categories, never blended. */
const QUALITATIVE = new Set(['tab10', 'Set3', 'Pastel1']);

/** Every colormap name `cmap` accepts (each also with `_r`). */
export const COLORMAP_NAMES: readonly string[] = Object.keys(ANCHORS);

/** A colormap: its colour at t ∈ [0, 1], and its anchors for gradients and category colours. */
export interface Colormap {
  name: string;
  anchors: readonly string[];
  qualitative: boolean;
  /** The colour at t (clamped to [0, 1]) as '#rrggbb': blended between anchors, or stepped for a qualitative map. */
  at(t: number): string;
}

function rgbOf(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function hexOf(r: number, g: number, b: number): string {
  return `#${((1 << 24) | (Math.round(r) << 16) | (Math.round(g) << 8) | Math.round(b)).toString(16).slice(1)}`;
}

/** The colormap named `name` (matplotlib's spelling, `_r` reverses); an unknown name is a RangeError listing the known ones. */
export function colormap(name: string): Colormap {
  const reversed = name.endsWith('_r');
  const base = reversed ? name.slice(0, -2) : name;
  const found = ANCHORS[base];
  if (found === undefined) {
    throw new RangeError(
      `plot: unknown cmap "${name}"; known: ${COLORMAP_NAMES.join(', ')} (each also with _r)`,
    );
  }
  const anchors = reversed ? [...found].reverse() : found;
  const qualitative = QUALITATIVE.has(base);
  const rgb = anchors.map(rgbOf);
  const at = (t: number): string => {
    const u = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
    if (qualitative) return anchors[Math.min(anchors.length - 1, Math.floor(u * anchors.length))];
    const f = u * (anchors.length - 1);
    const i = Math.min(anchors.length - 2, Math.floor(f));
    const w = f - i;
    const [a, b] = [rgb[i], rgb[i + 1]];
    return hexOf(a[0] + (b[0] - a[0]) * w, a[1] + (b[1] - a[1]) * w, a[2] + (b[2] - a[2]) * w);
  };
  return { name, anchors, qualitative, at };
}

/**
 * `count` distinct colours for categories from `cmap`: a qualitative map's own colours in order
 * (repeating past its length, as matplotlib's do), or a sequential map sampled evenly end to end.
 */
export function categoryColors(cmap: Colormap, count: number): string[] {
  if (cmap.qualitative) return Array.from({ length: count }, (_, i) => cmap.anchors[i % cmap.anchors.length]);
  return Array.from({ length: count }, (_, i) => cmap.at(count === 1 ? 0.5 : i / (count - 1)));
}
