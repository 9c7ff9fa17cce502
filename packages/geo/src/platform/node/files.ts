import { readFile, writeFile } from 'node:fs/promises';
import type { ReadBytes, WriteBytes } from '../contract.js';

/** A file (path or `file:` URL) or a Blob, read whole. */
export const readBytes: ReadBytes = async (source) =>
  source instanceof Blob
    ? new Uint8Array(await source.arrayBuffer())
    : new Uint8Array(await readFile(source));

/** Writes the file, replacing it. */
export const writeBytes: WriteBytes = (target, bytes) => writeFile(target, bytes);
