// Independent reference for the raster Voronoi tests: an f64 brute force of the nearest site
// (the documented pixel centres and dx² + dy² (+ dz²), ties to the lower index).
import type { RasterGrid } from '@geoframe/core';
import { SeededRandom } from '@geoframe/testing';

/** Pixel centre by the documented formula, evaluated left to right in f64. */
function centreOf(grid: RasterGrid, dims: 2 | 3, col: number, row: number, slice: number): number[] {
  const b = grid.bounds;
  const x = b[0] + ((col + 0.5) * (b[dims] - b[0])) / grid.width;
  const y = b[dims + 1] - ((row + 0.5) * (b[dims + 1] - b[1])) / grid.height;
  const z = dims === 3 ? b[2] + ((slice + 0.5) * (b[5] - b[2])) / grid.depth : 0;
  return [x, y, z];
}

/** f64 squared distance from site i to a point. */
function dist2(sites: Float64Array, dims: 2 | 3, i: number, c: number[]): number {
  const dx = sites[i * dims] - c[0];
  const dy = sites[i * dims + 1] - c[1];
  if (dims === 2) return dx * dx + dy * dy;
  const dz = sites[i * dims + 2] - c[2];
  return dx * dx + dy * dy + dz * dz;
}

/** Nearest site to every pixel centre over all sites, f64, ties to the lower index; −1 without sites. */
export function bruteForceLabels(sites: Float64Array, dims: 2 | 3, grid: RasterGrid): Int32Array {
  const n = sites.length / dims;
  const out = new Int32Array(grid.width * grid.height * grid.depth).fill(-1);
  let p = 0;
  for (let s = 0; s < grid.depth; s++)
    for (let r = 0; r < grid.height; r++)
      for (let c = 0; c < grid.width; c++, p++) {
        const centre = centreOf(grid, dims, c, r, s);
        let best = -1;
        let bestD = Number.POSITIVE_INFINITY;
        for (let i = 0; i < n; i++) {
          const d = dist2(sites, dims, i, centre);
          if (d < bestD) {
            bestD = d;
            best = i;
          }
        }
        out[p] = best;
      }
  return out;
}

/** f64 Euclidean distance from pixel p's centre to site i (coordinate units). */
export function pixelSiteDistance(
  sites: Float64Array,
  dims: 2 | 3,
  grid: RasterGrid,
  p: number,
  i: number,
): number {
  const c = p % grid.width;
  const r = Math.floor(p / grid.width) % grid.height;
  const s = Math.floor(p / (grid.width * grid.height));
  return Math.sqrt(dist2(sites, dims, i, centreOf(grid, dims, c, r, s)));
}

/**
 * Pixels where the GPU and the reference differ, split into near-ties (both labels' sites within
 * a relative 1e-6 of each other's distance from the pixel centre: the f32 comparison may go either
 * way, e.g. with fused multiply-adds) and real differences.
 */
export function compareLabels(
  gpu: Int32Array,
  ref: Int32Array,
  sites: Float64Array,
  dims: 2 | 3,
  grid: RasterGrid,
): { nearTies: number; real: string[] } {
  let nearTies = 0;
  const real: string[] = [];
  for (let p = 0; p < gpu.length; p++) {
    if (gpu[p] === ref[p]) continue;
    if (gpu[p] >= 0 && ref[p] >= 0) {
      const a = pixelSiteDistance(sites, dims, grid, p, gpu[p]);
      const b = pixelSiteDistance(sites, dims, grid, p, ref[p]);
      if (Math.abs(a - b) <= 1e-6 * Math.max(a, b, grid.bounds[dims] - grid.bounds[0])) {
        nearTies++;
        continue;
      }
    }
    real.push(`${p}: ${gpu[p]} vs ${ref[p]}`);
  }
  return { nearTies, real };
}

/** Seeded uniform sites in [lo, hi) on every axis. */
export function uniformSites(n: number, dims: 2 | 3, lo: number, hi: number, seed: number): Float64Array {
  const rng = new SeededRandom(seed);
  return Float64Array.from({ length: n * dims }, () => lo + (hi - lo) * rng.next());
}

/** 1 for pixels with a differently labelled neighbour among the 8 (3D: 26) around them. */
export function boundaryPixels(labels: Int32Array, grid: RasterGrid): Uint8Array {
  const { width: w, height: h, depth: d } = grid;
  const out = new Uint8Array(labels.length);
  for (let s = 0; s < d; s++)
    for (let r = 0; r < h; r++)
      for (let c = 0; c < w; c++) {
        const p = (s * h + r) * w + c;
        for (let oz = -1; oz <= 1 && !out[p]; oz++)
          for (let oy = -1; oy <= 1; oy++)
            for (let ox = -1; ox <= 1; ox++) {
              const [qc, qr, qs] = [c + ox, r + oy, s + oz];
              if (qc < 0 || qr < 0 || qs < 0 || qc >= w || qr >= h || qs >= d) continue;
              if (labels[(qs * h + qr) * w + qc] !== labels[p]) out[p] = 1;
            }
      }
  return out;
}
