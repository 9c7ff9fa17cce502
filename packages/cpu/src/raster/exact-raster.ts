import { centreX, centreY, centreZ, type RasterFrame } from './raster-frame.js';
import { SiteBuckets } from './site-buckets.js';

/**
 * The exact raster Voronoi labelling: for every pixel, the site nearest to the pixel centre (see
 * `centreX`/`centreY`/`centreZ`) by the f64 squared distance, ties to the lower index — every
 * finite site counts, inside the bounds or not. Found by a ring search over {@link SiteBuckets},
 * so the result equals {@link bruteForceRaster} on every pixel.
 */
export function exactRaster(sites: Float64Array, frame: RasterFrame): Int32Array {
  const { width, height, depth } = frame;
  const labels = new Int32Array(width * height * depth);
  const buckets = new SiteBuckets(sites, frame.dims);
  const xs = new Float64Array(width);
  for (let c = 0; c < width; c++) xs[c] = centreX(frame, c);
  for (let s = 0, p = 0; s < depth; s++) {
    const z = centreZ(frame, s);
    for (let r = 0; r < height; r++) {
      const y = centreY(frame, r);
      for (let c = 0; c < width; c++, p++) labels[p] = buckets.nearest(xs[c], y, z);
    }
  }
  return labels;
}
