import type { RasterGrid } from '@geoframe/core';
import { centreX, centreY, centreZ, rasterFrame } from './raster-frame.js';

/**
 * The reference raster Voronoi labelling by brute force: every pixel against every finite site,
 * f64 squared distance from the pixel centre, ties to the lower index (−1 without sites).
 * O(pixels × sites) — for tests and small grids.
 */
export function bruteForceRaster(sites: Float64Array, dims: 2 | 3, grid: RasterGrid): Int32Array {
  const frame = rasterFrame(dims, grid);
  const n = Math.floor(sites.length / dims);
  const { width, height, depth } = frame;
  const labels = new Int32Array(width * height * depth);
  for (let s = 0, p = 0; s < depth; s++) {
    const z = centreZ(frame, s);
    for (let r = 0; r < height; r++) {
      const y = centreY(frame, r);
      for (let c = 0; c < width; c++, p++) {
        const x = centreX(frame, c);
        let best = -1;
        let bestDist = Infinity;
        for (let i = 0; i < n; i++) {
          const dx = x - sites[i * dims];
          const dy = y - sites[i * dims + 1];
          let d = dx * dx + dy * dy;
          if (dims === 3) {
            const dz = z - sites[i * dims + 2];
            d += dz * dz;
          }
          // NaN distances (non-finite sites) never compare below
          if (d < bestDist) {
            best = i;
            bestDist = d;
          }
        }
        labels[p] = best;
      }
    }
  }
  return labels;
}
