import type { GeometryArray } from '@geoframe/core';
import { rasterizeSvg } from '#platform/rasterize-svg';
import type { PlotOptions } from './plot-options.js';
import { plotSvg } from './plot-svg.js';

/**
 * Draws a geometry column as PNG bytes: the picture of {@link plotSvg} with the same options,
 * rasterized (anti-aliased, 8-bit RGBA) at `width` × `height` pixels.
 *
 * The renderer is the platform's: resvg (a native addon, loaded on the first call only) in Node,
 * the browser's own SVG renderer in a page. System fonts are loaded only when there is text (a
 * title, axes or a legend).
 */
export async function plotPng(geometry: GeometryArray, options: PlotOptions = {}): Promise<Uint8Array> {
  const svg = plotSvg(geometry, options);
  const hasText =
    (options.title !== undefined && options.title !== '') || options.axes === true || options.legend === true;
  return rasterizeSvg(svg, hasText);
}
