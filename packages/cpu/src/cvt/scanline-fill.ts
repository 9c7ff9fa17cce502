import type { RasterGrid } from '@geoframe/core';

type Ring = [number, number][];

/**
 * Adds `weight` to every pixel of the 2D `grid` (RasterGrid convention: row 0 at the top) whose
 * centre lies inside the rings, by the even-odd rule over all of them (holes included): per row,
 * the crossings of the centre line with every edge, sorted, fill between pairs. A centre exactly
 * on an edge may go either way. Cost: rows × edges.
 */
export function fillRings(rings: readonly Ring[], grid: RasterGrid, weight: number, out: Float64Array): void {
  const [xmin, ymin, xmax, ymax] = grid.bounds;
  const pw = (xmax - xmin) / grid.width;
  const ph = (ymax - ymin) / grid.height;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const ring of rings) {
    for (const [, y] of ring) {
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  }
  const rowFirst = Math.max(0, Math.floor((ymax - hi) / ph - 0.5));
  const rowLast = Math.min(grid.height - 1, Math.ceil((ymax - lo) / ph - 0.5));
  const xs: number[] = [];
  for (let r = rowFirst; r <= rowLast; r++) {
    const y = ymax - (r + 0.5) * ph;
    xs.length = 0;
    for (const ring of rings) {
      const m = ring.length;
      for (let k = 0; k < m; k++) {
        const [ax, ay] = ring[k];
        const [bx, by] = ring[(k + 1) % m];
        if (ay > y === by > y) continue;
        xs.push(ax + ((y - ay) * (bx - ax)) / (by - ay));
      }
    }
    xs.sort((a, b) => a - b);
    for (let j = 0; j + 1 < xs.length; j += 2) {
      const c0 = Math.max(0, Math.ceil((xs[j] - xmin) / pw - 0.5));
      const c1 = Math.min(grid.width - 1, Math.floor((xs[j + 1] - xmin) / pw - 0.5));
      for (let c = c0; c <= c1; c++) out[r * grid.width + c] += weight;
    }
  }
}
