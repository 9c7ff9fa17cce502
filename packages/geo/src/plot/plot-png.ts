import type { GeometryArray } from '@geoframe/core';
import type { PlotOptions } from './plot-options.js';
import { plotSvg } from './plot-svg.js';

/**
 * Draws a geometry column as PNG bytes: the picture of {@link plotSvg} with the same options,
 * rasterized (anti-aliased, 8-bit RGBA) at `width` × `height` pixels by resvg.
 *
 * The renderer, `@resvg/resvg-js` (a native addon), is loaded on the first call only, so
 * importing this package never loads it. System fonts are loaded only when there is text (a title, axes or a legend).
 * Rendering runs off the main thread.
 */
export async function plotPng(geometry: GeometryArray, options: PlotOptions = {}): Promise<Uint8Array> {
  const svg = plotSvg(geometry, options);
  const { renderAsync } = await import('@resvg/resvg-js');
  const hasText =
    (options.title !== undefined && options.title !== '') || options.axes === true || options.legend === true;
  const image = await renderAsync(svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: hasText, defaultFontFamily: hasText ? undefined : '' },
    logLevel: 'off',
  });
  const png = image.asPng();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
