import type { ReadBytes, WriteBytes } from '../contract.js';
import { page } from './dom.js';

/** An HTTP failure with the code a file system would give, so callers word it the same way. */
function httpError(url: string, status: number, statusText: string): Error {
  const error = new Error(`HTTP ${status} ${statusText} for ${url}`) as Error & { code?: string };
  if (status === 404 || status === 410) error.code = 'ENOENT';
  else if (status === 401 || status === 403) error.code = 'EACCES';
  return error;
}

/** A Blob/File read whole, or a URL fetched (relative URLs resolve against the page). */
export const readBytes: ReadBytes = async (source) => {
  if (source instanceof Blob) return new Uint8Array(await source.arrayBuffer());
  const response = await fetch(source);
  if (!response.ok) throw httpError(String(source), response.status, response.statusText);
  return new Uint8Array(await response.arrayBuffer());
};

/**
 * A page has no file system: the bytes are offered as a download named `target` (its last path
 * segment). Where there is no document (a worker), an error says to encode the bytes instead.
 */
export const writeBytes: WriteBytes = async (target, bytes) => {
  const doc = page()?.document;
  if (!doc) {
    throw new Error(
      'no file system and no document to download into: encode the bytes with encodeFile instead',
    );
  }
  const url = URL.createObjectURL(new Blob([bytes.slice()]));
  const link = doc.createElement('a');
  link.href = url;
  link.download = target.slice(target.lastIndexOf('/') + 1);
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};
