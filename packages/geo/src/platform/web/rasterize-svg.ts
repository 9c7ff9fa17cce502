import type { RasterizeSvg } from '../contract.js';
import { page } from './dom.js';

/**
 * The browser's own SVG renderer: the document is decoded as an image, drawn on a canvas of its
 * size and encoded as PNG. Needs a document (a page, not a worker).
 */
export const rasterizeSvg: RasterizeSvg = async (svg) => {
  const scope = page();
  if (!scope) throw new Error('plotPng needs a document to render SVG in a browser; use plotSvg in a worker');
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new scope.Image();
    image.src = url;
    await image.decode();
    const canvas = scope.document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    canvas.getContext('2d')?.drawImage(image, 0, 0);
    const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, 'image/png'));
    if (!blob) throw new Error('the canvas could not encode a PNG');
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
};
