/**
 * Rich display in notebooks. The Deno Jupyter kernel shows a cell's value through its
 * `[Symbol.for('Jupyter.display')]()` method, a MIME bundle ('text/html', 'image/png' as base64,
 * 'text/plain'); Observable-style notebooks and pages take an HTML string (`toHTML()`), which
 * needs no DOM. Both are built here from typed arrays and strings only, so they run in Node, Deno
 * and browsers alike.
 */

/** The key the Deno Jupyter kernel (and other JavaScript kernels following it) looks up. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for('Jupyter.display') as never;

/** A Jupyter MIME bundle: MIME type → content (text, or base64 for images). */
export type MimeBundle = Record<string, string>;

/** Escapes text for HTML (element content and quoted attribute values). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

/** Bytes as base64, without Node's Buffer (Deno and browsers have `btoa`, so does Node ≥ 16). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** A PNG as a `data:` URL, for `<img src>` and Observable's `html`. */
export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${base64Of(png)}`;
}

/** The MIME bundle of an image: the PNG itself, an HTML `<img>` of it with a caption, and text. */
export function imageBundle(png: Uint8Array, caption: string): MimeBundle {
  const data = base64Of(png);
  return {
    'image/png': data,
    'text/html': `<figure style="margin:0"><img src="data:image/png;base64,${data}" alt="${escapeHtml(caption)}"/><figcaption style="font-size:0.85em;color:#555">${escapeHtml(caption)}</figcaption></figure>`,
    'text/plain': caption,
  };
}

/** A raster's one-line caption: what it is, its size, how it was made and where it ran. */
export function rasterCaption(
  kind: string,
  raster: { width: number; height: number; path?: string; mode?: string; rowCount?: number },
): string {
  const parts = [`${kind} ${raster.width} × ${raster.height}`];
  if (raster.mode !== undefined) parts.push(`mode ${raster.mode}`);
  if (raster.rowCount !== undefined) parts.push(`${raster.rowCount} sites`);
  if (raster.path !== undefined) parts.push(`ran on ${raster.path.toUpperCase()}`);
  return parts.join(', ');
}
