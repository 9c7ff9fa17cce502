import type { GeometryArray } from '@geoframe/core';
import { plotBounds } from '../plot/plot-options.js';
import { plotSvg } from '../plot/plot-svg.js';

/** Inline maps stay small: about this many coordinates at most, the rest of the rows thinned. */
const MAX_COORDS = 20_000;
const MAX_WIDTH = 360;
const MAX_HEIGHT = 260;

/**
 * A small SVG map of a geometry column for notebook tables: the whole column when it is small,
 * else every k-th row (said in `note`), so a frame of a million cells still shows in a fraction
 * of a second and a few hundred kilobytes. A column with nothing to draw gives an empty string.
 */
export function thumbnailSvg(array: GeometryArray): { svg: string; note: string | null } {
  const coords = array.coords.length / array.stride;
  let drawn = false;
  for (let i = 0; i < array.length && !drawn; i++) drawn = array.isValid(i) && !array.isEmpty(i);
  if (!drawn) return { svg: '', note: null };
  // the window of the whole column, so a thinned map keeps the extent
  const bounds = plotBounds(array, {});
  const step = Math.max(1, Math.ceil(coords / MAX_COORDS));
  const rows = Int32Array.from({ length: Math.ceil(array.length / step) }, (_, i) => i * step);
  const shown = step === 1 ? array : array.take(rows);
  const [x0, y0, x1, y1] = bounds;
  const aspect = x1 > x0 && y1 > y0 ? (y1 - y0) / (x1 - x0) : 1;
  const width = Math.max(60, Math.round(Math.min(MAX_WIDTH, MAX_HEIGHT / aspect)));
  const height = Math.max(40, Math.round(Math.min(MAX_HEIGHT, width * aspect)));
  const svg = plotSvg(shown, { width, height, bounds });
  return { svg, note: step === 1 ? null : `map: 1 in ${step} rows` };
}
