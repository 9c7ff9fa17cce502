import type { RasterGrid } from '@geoframe/core';

/** The f64 centre of pixel `p` of `grid` (the RasterGrid convention), as [x, y, z]. */
export function pixelCentre(grid: RasterGrid, dims: 2 | 3, p: number): [number, number, number] {
  const b = grid.bounds;
  const [xmin, ymin, zmin, xmax, ymax, zmax] = dims === 3 ? b : [b[0], b[1], 0, b[2], b[3], 1];
  const col = p % grid.width;
  const rest = (p - col) / grid.width;
  const row = rest % grid.height;
  const slice = (rest - row) / grid.height;
  return [
    xmin + (col + 0.5) * ((xmax - xmin) / grid.width),
    ymax - (row + 0.5) * ((ymax - ymin) / grid.height),
    dims === 3 ? zmin + (slice + 0.5) * ((zmax - zmin) / grid.depth) : 0,
  ];
}

function distanceTo(sites: Float64Array, dims: 2 | 3, site: number, c: [number, number, number]): number {
  if (site < 0) return Infinity;
  const dx = c[0] - sites[site * dims];
  const dy = c[1] - sites[site * dims + 1];
  const dz = dims === 3 ? c[2] - sites[site * dims + 2] : 0;
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * Pixels whose label in `labels` differs from `reference` and whose site is farther from the
 * pixel centre than the reference's by more than 1e-9 relative (equidistant pixels are not errors).
 */
export function misclassified(
  sites: Float64Array,
  dims: 2 | 3,
  grid: RasterGrid,
  labels: Int32Array,
  reference: Int32Array,
): number {
  let bad = 0;
  for (let p = 0; p < labels.length; p++) {
    if (labels[p] === reference[p]) continue;
    const c = pixelCentre(grid, dims, p);
    if (distanceTo(sites, dims, labels[p], c) > distanceTo(sites, dims, reference[p], c) * (1 + 1e-9)) bad++;
  }
  return bad;
}

/** Number of pixels where two labellings differ. */
export function differing(a: Int32Array, b: Int32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Interleaved xyz sites: uniform in [0, 1000)³ from the seeded xy generator (z from a second set). */
export function xyz(xy: Float64Array, z: Float64Array): Float64Array {
  const n = xy.length >> 1;
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    out[3 * i] = xy[2 * i];
    out[3 * i + 1] = xy[2 * i + 1];
    out[3 * i + 2] = z[2 * i];
  }
  return out;
}
