import { centreX, centreY, centreZ, type RasterFrame } from './raster-frame.js';

/**
 * Per pixel, the Euclidean distance in coordinate units from the pixel centre (f64) to its
 * labelled site, stored as f32; +∞ where the label is −1.
 */
export function rasterDistance(sites: Float64Array, frame: RasterFrame, labels: Int32Array): Float32Array {
  const { width, height, depth, dims } = frame;
  const out = new Float32Array(labels.length);
  for (let s = 0, p = 0; s < depth; s++) {
    const z = centreZ(frame, s);
    for (let r = 0; r < height; r++) {
      const y = centreY(frame, r);
      for (let c = 0; c < width; c++, p++) {
        const site = labels[p];
        if (site < 0) {
          out[p] = Number.POSITIVE_INFINITY;
          continue;
        }
        const dx = centreX(frame, c) - sites[site * dims];
        const dy = y - sites[site * dims + 1];
        const dz = dims === 3 ? z - sites[site * dims + 2] : 0;
        out[p] = Math.sqrt(dx * dx + dy * dy + dz * dz);
      }
    }
  }
  return out;
}
