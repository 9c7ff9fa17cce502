import type { RasterizeSvg } from '../contract.js';

/**
 * resvg (`@resvg/resvg-js`, a native addon), loaded on the first call only so importing the
 * package never loads it. System fonts are loaded only when text is drawn. Runs off the main thread.
 */
export const rasterizeSvg: RasterizeSvg = async (svg, fonts) => {
  const { renderAsync } = await import('@resvg/resvg-js');
  const image = await renderAsync(svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: fonts, defaultFontFamily: fonts ? undefined : '' },
    logLevel: 'off',
  });
  const png = image.asPng();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
};
