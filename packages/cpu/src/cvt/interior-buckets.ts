import { type ClipRegion, regionContains } from '../clip/clip-region.js';

/**
 * Square buckets over a region's box, marking those not wholly inside the region (a region edge
 * passes through or touches them, or they lie outside): a cell whose box covers no marked bucket
 * lies in the region and needs no clipping. `blocked` holds prefix counts of the marked buckets,
 * `(nx + 1)(ny + 1)` of them, row-major: entry `iy · (nx + 1) + ix` counts `[0, ix) × [0, iy)`,
 * so any box of buckets is counted with four reads (the GPU's moments kernel does that per cell).
 */
export interface InteriorBuckets {
  minX: number;
  minY: number;
  /** A bucket's side. */
  size: number;
  nx: number;
  ny: number;
  blocked: Uint32Array;
}

/**
 * The interior buckets of `region`, `side` buckets along its box's longer side. Edges mark the
 * buckets along them (pieces no longer than a bucket, each piece's box grown by 10⁻⁶ of a bucket
 * so that rounding never leaves a touched bucket unmarked); each run of unmarked buckets in a row
 * is wholly inside or wholly outside, decided by one point-in-region test.
 */
export function interiorBuckets(region: ClipRegion, side = 512): InteriorBuckets {
  const w = region.maxX - region.minX;
  const h = region.maxY - region.minY;
  const size = Math.max(w, h) / side;
  const nx = Math.max(1, Math.ceil(w / size));
  const ny = Math.max(1, Math.ceil(h / size));
  const marked = new Uint8Array(nx * ny);
  const { coords, ringOffsets } = region;
  const fx = (x: number) => (x - region.minX) / size;
  const fy = (y: number) => (y - region.minY) / size;
  const mark = (x0: number, y0: number, x1: number, y1: number) => {
    const ix0 = Math.max(0, Math.floor(Math.min(x0, x1) - 1e-6));
    const ix1 = Math.min(nx - 1, Math.floor(Math.max(x0, x1) + 1e-6));
    const iy0 = Math.max(0, Math.floor(Math.min(y0, y1) - 1e-6));
    const iy1 = Math.min(ny - 1, Math.floor(Math.max(y0, y1) + 1e-6));
    for (let iy = iy0; iy <= iy1; iy++) for (let ix = ix0; ix <= ix1; ix++) marked[iy * nx + ix] = 1;
  };
  for (let r = 0; r + 1 < ringOffsets.length; r++) {
    for (let k = ringOffsets[r]; k + 1 < ringOffsets[r + 1]; k++) {
      const ax = fx(coords[2 * k]);
      const ay = fy(coords[2 * k + 1]);
      const bx = fx(coords[2 * k + 2]);
      const by = fy(coords[2 * k + 3]);
      const pieces = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay))));
      for (let p = 0; p < pieces; p++) {
        const t0 = p / pieces;
        const t1 = (p + 1) / pieces;
        mark(ax + t0 * (bx - ax), ay + t0 * (by - ay), ax + t1 * (bx - ax), ay + t1 * (by - ay));
      }
    }
  }
  const blockedBucket = new Uint8Array(nx * ny);
  for (let iy = 0; iy < ny; iy++) {
    let inside = false;
    for (let ix = 0; ix < nx; ix++) {
      const b = iy * nx + ix;
      if (marked[b]) {
        blockedBucket[b] = 1;
        continue;
      }
      if (ix === 0 || marked[b - 1]) {
        // the first bucket of a run: its centre decides for the run
        inside = regionContains(region, region.minX + (ix + 0.5) * size, region.minY + (iy + 0.5) * size);
      }
      blockedBucket[b] = inside ? 0 : 1;
    }
  }
  const W = nx + 1;
  const blocked = new Uint32Array(W * (ny + 1));
  for (let iy = 0; iy < ny; iy++) {
    let rowSum = 0;
    for (let ix = 0; ix < nx; ix++) {
      rowSum += blockedBucket[iy * nx + ix];
      blocked[(iy + 1) * W + ix + 1] = blocked[iy * W + ix + 1] + rowSum;
    }
  }
  return { minX: region.minX, minY: region.minY, size, nx, ny, blocked };
}

/**
 * Buckets for `sites` cells of about equal area: a quarter of a cell's side each (so a cell's box
 * grown by a bucket reaches little past it), 64 to 4096 along the longer side.
 */
export function interiorBucketsFor(region: ClipRegion, area: number, sites: number): InteriorBuckets {
  const longer = Math.max(region.maxX - region.minX, region.maxY - region.minY);
  const cell = Math.sqrt(area / Math.max(1, sites));
  const side = Number.isFinite(longer / cell) ? Math.ceil((4 * longer) / cell) : 64;
  return interiorBuckets(region, Math.min(4096, Math.max(64, side)));
}
