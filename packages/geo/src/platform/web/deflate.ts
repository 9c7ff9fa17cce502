import type { Deflate } from '../contract.js';

/** The web's CompressionStream('deflate') (zlib format). */
export const deflate: Deflate = async (bytes) => {
  const stream = new Blob([bytes.slice()]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};
