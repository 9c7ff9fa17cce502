import type { RasterSetup } from './raster-setup.js';
import { NO_SITE } from './raster-setup.js';

/** The deepest Facet-JFA level of a grid: the level whose grid is one pixel along every axis. */
export function maxCoarseLevel(setup: RasterSetup): number {
  return Math.ceil(Math.log2(Math.max(setup.width, setup.height, setup.depth)));
}

/**
 * Facet-JFA's coarse level, from a CPU pass over the seed pixels: the largest p (grid pixels
 * 2^p × 2^p, or 2^p cubes, at level p) at which no two seeded pixels share a coarse pixel, i.e.
 * no two sites that seed different full-resolution pixels collide. Sites seeding the same
 * full-resolution pixel collide at every level and do not count (only one of them seeds).
 * 0 when two sites collide at level 1 already (Facet-JFA is then plain JFA); the maximum level
 * when at most one pixel is seeded.
 */
export function chooseCoarseLevel(setup: RasterSetup): number {
  const { width, height } = setup;
  const plane = width * height;
  const seeded = new Set<number>();
  for (const p of setup.seedPixel) if (p !== NO_SITE) seeded.add(p);
  const cols: number[] = [];
  const rows: number[] = [];
  const slices: number[] = [];
  for (const p of seeded) {
    cols.push(p % width);
    rows.push(Math.floor(p / width) % height);
    slices.push(Math.floor(p / plane));
  }
  const top = maxCoarseLevel(setup);
  const cells = new Set<number>();
  for (let level = 1; level <= top; level++) {
    const w = Math.ceil(width / 2 ** level);
    const h = Math.ceil(height / 2 ** level);
    cells.clear();
    for (let k = 0; k < cols.length; k++) {
      const key = ((slices[k] >> level) * h + (rows[k] >> level)) * w + (cols[k] >> level);
      if (cells.has(key)) return level - 1;
      cells.add(key);
    }
  }
  return top;
}
