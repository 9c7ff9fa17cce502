import type { GeometryArray } from '@geoframe/core';
import type { PlotFrame } from './plot-options.js';

/** Dot radii the picture uses: each dot takes the class nearest its ideal size (one SVG path per class). */
export const DOT_RADII: readonly number[] = [0.3, 0.4, 0.55, 0.75, 1, 1.35, 1.8, 2.4, 3];
/** The class of a coordinate outside the picture (or not finite): drawn by no class. */
export const OUTSIDE = 255;
/** Bin edge in pixels over which local dot density is counted. */
const BIN = 16;
/** Radius as a fraction of the local spacing: dots cover about π·0.18² ≈ 10% of the area they sit in. */
const SHARE = 0.18;

/** The radius class nearest `radius` (classes are spaced geometrically, so compare logs). */
export function radiusClass(radius: number): number {
  let best = 0;
  for (let c = 1; c < DOT_RADII.length; c++) {
    if (Math.abs(Math.log(DOT_RADII[c] / radius)) < Math.abs(Math.log(DOT_RADII[best] / radius))) best = c;
  }
  return best;
}

/**
 * A radius class per coordinate of the dot columns, from the density of dots around it: dots
 * are counted on a 16-pixel grid over the picture, and a dot's radius is 0.18 × the spacing its
 * bin implies (√(bin area / count)), between 0.3 and 2.4 pixels. Dense areas get fine dots and
 * sparse ones bold dots, so a dense region keeps its cells visible instead of turning black.
 * Coordinates outside the picture or not finite count nowhere and get the class OUTSIDE (not drawn).
 */
export function densityDotClasses(columns: readonly GeometryArray[], frame: PlotFrame): Uint8Array[] {
  const cols = Math.max(1, Math.ceil(frame.width / BIN));
  const rows = Math.max(1, Math.ceil(frame.height / BIN));
  const counts = new Uint32Array(cols * rows);
  const binsOf = columns.map((array) => {
    const n = array.coords.length / array.stride;
    const bins = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const x = (array.coords[k * array.stride] - frame.x0) * frame.scale + frame.left;
      const y = (frame.y1 - array.coords[k * array.stride + 1]) * frame.scale + frame.top;
      const c = Math.floor(x / BIN);
      const r = Math.floor(y / BIN);
      if (!(c >= 0 && c < cols && r >= 0 && r < rows)) {
        bins[k] = -1;
        continue;
      }
      bins[k] = r * cols + c;
      counts[r * cols + c]++;
    }
    return bins;
  });
  const classOfCount = new Map<number, number>();
  return binsOf.map((bins) => {
    const classes = new Uint8Array(bins.length).fill(OUTSIDE);
    for (let k = 0; k < bins.length; k++) {
      if (bins[k] < 0) continue;
      const count = counts[bins[k]];
      let cls = classOfCount.get(count);
      if (cls === undefined) {
        cls = radiusClass(Math.min(2.4, Math.max(0.3, SHARE * Math.sqrt((BIN * BIN) / count))));
        classOfCount.set(count, cls);
      }
      classes[k] = cls;
    }
    return classes;
  });
}
