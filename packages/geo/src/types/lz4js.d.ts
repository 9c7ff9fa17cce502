// lz4js ships no types: the one function geoframe calls.
declare module 'lz4js' {
  /** Decompresses an LZ4 frame (the size from its header, or `maxSize`). */
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
  const lz4: { decompress: typeof decompress };
  export default lz4;
}
