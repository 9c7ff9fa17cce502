import { NEIGHBOR_PALETTE } from '../plot/palette.js';
import { smallestLastColoring } from '../plot/smallest-last-coloring.js';
import { encodePng } from './png-encoder.js';
import { rasterAdjacency } from './raster-adjacency.js';

/** Options of `VoronoiRaster.toPNG`. */
export interface RasterPngOptions {
  /** 3D: the slice (z index, 0 at the bottom) to draw; default the middle one. */
  slice?: number;
  /** Radius of the site dots in pixels (0: no dots); default max(1, round(min(width, height)/200)). */
  siteRadius?: number;
  /** Darken the boundary pixels (a differently labelled 4-neighbour); default false. */
  boundaries?: boolean;
}

/** What the renderer needs of a raster: one slice of labels and the sites' pixels on it. */
export interface RasterImage {
  width: number;
  height: number;
  /** width × height labels of the slice (−1: no site). */
  labels: Int32Array;
  /** Number of distinct label values (labels lie in [0, labelCount)). */
  labelCount: number;
  /** Pixel indices (row·width + col) of the site dots to draw. */
  dots: Int32Array;
}

const DOT: readonly number[] = [34, 34, 34];
const EMPTY: readonly number[] = [255, 255, 255];

function rgbOf(hex: string): number[] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/**
 * A PNG of one slice of labels: each label filled with a palette colour such that labels with
 * 4-adjacent pixels differ (smallest-last colouring of the label adjacency), −1 pixels white,
 * optional darkened boundaries, and a dark dot (disc of `siteRadius`) at each site's pixel.
 */
export async function rasterPng(image: RasterImage, options: RasterPngOptions = {}): Promise<Uint8Array> {
  const { width, height, labels, labelCount, dots } = image;
  const colour = smallestLastColoring(rasterAdjacency(labels, width, height, labelCount));
  const palette = NEIGHBOR_PALETTE.map(rgbOf);
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < labels.length; p++) {
    const l = labels[p];
    const rgb = l < 0 ? EMPTY : palette[colour[l] % palette.length];
    rgba[4 * p] = rgb[0];
    rgba[4 * p + 1] = rgb[1];
    rgba[4 * p + 2] = rgb[2];
    rgba[4 * p + 3] = 255;
  }
  if (options.boundaries) {
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const p = r * width + c;
        const l = labels[p];
        const edge =
          (c > 0 && labels[p - 1] !== l) ||
          (c + 1 < width && labels[p + 1] !== l) ||
          (r > 0 && labels[p - width] !== l) ||
          (r + 1 < height && labels[p + width] !== l);
        if (edge) for (let k = 0; k < 3; k++) rgba[4 * p + k] = (rgba[4 * p + k] * 0.55) | 0;
      }
    }
  }
  const radius = options.siteRadius ?? Math.max(1, Math.round(Math.min(width, height) / 200));
  if (!(radius >= 0)) throw new RangeError(`siteRadius must be ≥ 0, got ${options.siteRadius}`);
  const reach = Math.ceil(radius);
  if (radius > 0) {
    for (const p of dots) {
      const col = p % width;
      const row = (p - col) / width;
      for (let dr = -reach; dr <= reach; dr++) {
        for (let dc = -reach; dc <= reach; dc++) {
          if (dr * dr + dc * dc > radius * radius + 0.5) continue;
          const r = row + dr;
          const c = col + dc;
          if (r < 0 || r >= height || c < 0 || c >= width) continue;
          const q = r * width + c;
          rgba.set(DOT, 4 * q);
        }
      }
    }
  }
  return encodePng(rgba, width, height);
}
