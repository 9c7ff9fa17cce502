/** What {@link gpuVoronoiScript} hands back from the page. */
export interface GpuVoronoiRun {
  /** The page adapter's storage buffers a shader stage (0: no adapter). */
  limit: number;
  /** Milliseconds the forced GPU call took, to its result or its error. */
  ms: number;
  error?: string;
  /** Base64 of the cells' GeoArrow coordinates and offsets, when the call succeeded. */
  coords?: string;
  offsets?: string[];
  /** The call's dispatch events: type, path and reason. */
  events?: { type: string; path: string; reason: string }[];
}

/**
 * A script for `page.evaluate` (a string: vitest would rewrite a dynamic import() inside a
 * function) that runs `voronoiPolygons({device: 'gpu'})` on the sites `xy` with the page's bundle.
 */
export function gpuVoronoiScript(xy: number[]): string {
  return `import('./geoframe.js').then(async (g) => {
    const adapter = await navigator.gpu?.requestAdapter();
    const limit = adapter ? adapter.limits.maxStorageBuffersPerShaderStage : 0;
    const xy = ${JSON.stringify(xy)};
    const sites = g.GeoSeries.fromXY(xy.filter((_, i) => i % 2 === 0), xy.filter((_, i) => i % 2 === 1));
    const b64 = (a) => {
      let s = '';
      for (const c of new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) s += String.fromCharCode(c);
      return btoa(s);
    };
    const t = performance.now();
    try {
      const events = [];
      const onDispatch = (e) => events.push({ type: e.type, path: e.path, reason: e.reason });
      const cells = await sites.voronoiPolygons({ device: 'gpu', onDispatch });
      const a = cells.array;
      return { limit, ms: performance.now() - t, coords: b64(a.coords), offsets: a.offsets.map(b64), events };
    } catch (error) {
      return { limit, ms: performance.now() - t, error: error.message };
    }
  })`;
}
