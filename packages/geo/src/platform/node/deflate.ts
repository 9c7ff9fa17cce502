import { deflateSync } from 'node:zlib';
import type { Deflate } from '../contract.js';

/** node:zlib's deflate. */
export const deflate: Deflate = async (bytes) => new Uint8Array(deflateSync(bytes));
