// A tiny static server for the built demo (examples/browser/dist/site). It sends the
// cross-origin isolation headers (COOP/COEP), so the page gets SharedArrayBuffer and geoframe's
// CPU stages may use Web Workers. Usage: node examples/browser/serve.mjs [port]  (pnpm demo:serve)
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.parquet': 'application/vnd.apache.parquet',
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
};

/** Serves `root` on `port` (0: any free port) on 127.0.0.1; resolves with the server and its URL. */
export function serve(root = join(HERE, 'dist/site'), port = 0) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const headers = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    };
    const info = file.startsWith(root) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) {
      response.writeHead(404, headers).end('not found');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': info.size });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      resolve({ server, url: `http://127.0.0.1:${bound}/` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(undefined, Number(process.argv[2] ?? 8080));
  console.log(`serving the geoframe demo at ${url} (Ctrl-C to stop)`);
}
