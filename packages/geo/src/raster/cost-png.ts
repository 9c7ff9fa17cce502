import { NEIGHBOR_PALETTE } from '../plot/palette.js';
import { smallestLastColoring } from '../plot/smallest-last-coloring.js';
import { encodePng } from './png-encoder.js';
import { rasterAdjacency } from './raster-adjacency.js';

/** Options of `CostAllocationRaster.toPNG`. */
export interface CostPngOptions {
  /** 3D: the slice (z index, 0 at the bottom) to draw; default the middle one. */
  slice?: number;
  /** Darken each cell with its accumulated cost (light near the source, darker far away); default true. */
  shade?: boolean;
  /** Iso-cost lines: this many, evenly spaced up to the largest cost of the slice; default 0. */
  contours?: number;
  /** Darken the boundaries between allocations; default true. */
  boundaries?: boolean;
  /** Radius of the source dots in pixels (0: none); default max(2, round(min(width, height)/150)). */
  siteRadius?: number;
}

/** One slice to draw: labels, costs, barriers, and the sources' pixels on it. */
export interface CostImage {
  width: number;
  height: number;
  labels: Int32Array;
  cost: Float32Array;
  /** 1 where the cell is a barrier. */
  barrier: Uint8Array;
  labelCount: number;
  dots: Int32Array;
}

const BARRIER = [70, 70, 78];
const UNREACHED = [255, 255, 255];
const DOT = [20, 20, 20];

function rgbOf(hex: string): number[] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** Per pixel, whether a 4-neighbour differs in `key`. */
function differs(key: (p: number) => number, width: number, height: number, p: number): boolean {
  const c = p % width;
  const r = (p - c) / width;
  const k = key(p);
  return (
    (c > 0 && key(p - 1) !== k) ||
    (c + 1 < width && key(p + 1) !== k) ||
    (r > 0 && key(p - width) !== k) ||
    (r + 1 < height && key(p + width) !== k)
  );
}

/**
 * A PNG of one slice of a cost allocation: each allocation filled with a palette colour such
 * that touching allocations differ, shaded by accumulated cost; barriers dark grey, unreached
 * cells white; optional iso-cost lines and darkened boundaries; sources as dark dots.
 */
export async function costPng(image: CostImage, options: CostPngOptions = {}): Promise<Uint8Array> {
  const { width, height, labels, cost, barrier, labelCount, dots } = image;
  const colour = smallestLastColoring(rasterAdjacency(labels, width, height, labelCount));
  const palette = NEIGHBOR_PALETTE.map(rgbOf);
  let top = 0;
  for (let p = 0; p < cost.length; p++) if (labels[p] >= 0 && cost[p] > top) top = cost[p];
  const shade = options.shade ?? true;
  const contours = options.contours ?? 0;
  if (!(Number.isInteger(contours) && contours >= 0))
    throw new RangeError(`contours must be an integer ≥ 0, got ${contours}`);
  const band = (p: number) => (labels[p] < 0 || top === 0 ? -1 : Math.floor((cost[p] / top) * contours));
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < labels.length; p++) {
    const l = labels[p];
    let rgb = barrier[p] ? BARRIER : l < 0 ? UNREACHED : palette[colour[l] % palette.length];
    if (l >= 0) {
      let f = shade && top > 0 ? 1 - 0.5 * (cost[p] / top) : 1;
      if (options.boundaries !== false && differs((q) => labels[q], width, height, p)) f *= 0.45;
      if (contours > 0 && differs(band, width, height, p)) f *= 0.7;
      rgb = rgb.map((v) => Math.round(v * f));
    }
    rgba.set(rgb, 4 * p);
    rgba[4 * p + 3] = 255;
  }
  const radius = options.siteRadius ?? Math.max(2, Math.round(Math.min(width, height) / 150));
  if (!(radius >= 0)) throw new RangeError(`siteRadius must be ≥ 0, got ${options.siteRadius}`);
  for (const p of radius > 0 ? dots : []) {
    const col = p % width;
    const row = (p - col) / width;
    const reach = Math.ceil(radius);
    for (let dr = -reach; dr <= reach; dr++) {
      for (let dc = -reach; dc <= reach; dc++) {
        const r = row + dr;
        const c = col + dc;
        if (dr * dr + dc * dc > radius * radius + 0.5 || r < 0 || r >= height || c < 0 || c >= width)
          continue;
        rgba.set(DOT, 4 * (r * width + c));
      }
    }
  }
  return encodePng(rgba, width, height);
}
