import { CompressionType, compressionRegistry } from 'apache-arrow';
import { decompress as zstdDecompress } from 'fzstd';
import lz4 from 'lz4js';

let registered = false;

/**
 * Registers LZ4-frame and Zstandard decoders with apache-arrow, which ships none ("codec not
 * found"): pyarrow, and so GeoPandas' `to_feather`, compress Feather files with LZ4 by default.
 * Both decoders are small pure-JS libraries (lz4js, fzstd; adr/0029 says why these). A codec the
 * application registered itself is left in place. Decoding only: geoframe writes uncompressed IPC.
 */
export function registerIpcCodecs(): void {
  if (registered) return;
  registered = true;
  if (!compressionRegistry.get(CompressionType.LZ4_FRAME)) {
    compressionRegistry.set(CompressionType.LZ4_FRAME, { decode: (data) => aligned(lz4.decompress(data)) });
  }
  if (!compressionRegistry.get(CompressionType.ZSTD)) {
    compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => aligned(zstdDecompress(data)) });
  }
}

/** Arrow views decoded buffers as typed arrays (BigInt64Array for int64): they must start 8-aligned. */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
}
