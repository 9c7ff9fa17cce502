import { decodePng as decodeRgba } from '../png-decode.js';

/** The pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are), as RGBA. */
export function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const { width, height, pixels } = decodeRgba(png);
  return { width, height, rgba: pixels };
}

/** Distinct colours and the share of pixels differing from `background` inside a region of the image. */
export function colourStats(
  image: { width: number; rgba: Uint8Array },
  region: { x: number; y: number; width: number; height: number },
  background: [number, number, number],
): { distinct: number; drawn: number } {
  const colours = new Set<number>();
  let drawn = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const p = (y * image.width + x) * 4;
      const [r, g, b] = image.rgba.subarray(p, p + 3);
      colours.add((r << 16) | (g << 8) | b);
      if (r !== background[0] || g !== background[1] || b !== background[2]) drawn++;
    }
  }
  return { distinct: colours.size, drawn: drawn / (region.width * region.height) };
}
