/**
 * What each platform module provides, so the Node (`platform/node/`) and the web
 * (`platform/web/`) builds of a module cannot drift apart: both declare their exports with these
 * types. Code elsewhere imports `#platform/<module>`; package.json's `imports` map picks the build
 * by export condition (`browser` → web, `node` → node, anything else → web). adr/0030.
 */

/** Where bytes come from: a path or URL (Node: a file path or `file:` URL; web: a URL to fetch), or a Blob/File. */
export type ByteSource = string | URL | Blob;

/** Reads every byte of a source. Failures carry a Node-style `code` (ENOENT, EACCES…) where one applies. */
export type ReadBytes = (source: ByteSource) => Promise<Uint8Array>;

/** Writes bytes to a target name: a file on Node; a download in a page. */
export type WriteBytes = (target: string, bytes: Uint8Array) => Promise<void>;

/** zlib-wrapped deflate (RFC 1950) of `bytes`. */
export type Deflate = (bytes: Uint8Array) => Promise<Uint8Array>;

/** Rasterizes an SVG document at its own size to PNG bytes (`fonts`: whether text is drawn). */
export type RasterizeSvg = (svg: string, fonts: boolean) => Promise<Uint8Array>;
