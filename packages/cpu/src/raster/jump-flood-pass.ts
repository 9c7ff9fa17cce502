import { type CentrePixels, type SitePixels, squaredDistanceF32 } from './raster-frame.js';

/** A level grid of `nx × ny × nz` cells (nz = 1 in 2D) with its centres in f32 pixel units. */
export interface LevelGrid {
  nx: number;
  ny: number;
  nz: number;
  centres: CentrePixels;
}

/**
 * One gather-style jump-flooding pass with step `step`: every visited cell reads its own label and
 * those of its 8 (3D: 26) neighbours at ±step from `src` (neighbours outside the grid are
 * skipped) and writes to `dst` the candidate site nearest to its centre in the f32 pixel-unit
 * metric, ties to the lower site index. With `active`, only those cells are visited; the others
 * must already hold their labels in `dst`. Returns the number of cells visited.
 */
export function jumpFloodPass(
  src: Int32Array,
  dst: Int32Array,
  level: LevelGrid,
  px: SitePixels,
  step: number,
  active: Int32Array | null = null,
): number {
  const { nx, ny, nz } = level;
  const { cu, cv, cw } = level.centres;
  const { u, v, w } = px;
  const plane = nx * ny;
  const count = active === null ? nx * ny * nz : active.length;
  const zSteps = nz > 1 ? 3 : 1;
  for (let a = 0; a < count; a++) {
    const p = active === null ? a : active[a];
    const col = p % nx;
    const rest = (p - col) / nx;
    const row = rest % ny;
    const slice = (rest - row) / ny;
    const x = cu[col];
    const y = cv[row];
    const z = cw[slice];
    let best = src[p];
    let bestDist = best >= 0 ? squaredDistanceF32(x, y, z, u[best], v[best], w[best]) : Infinity;
    for (let dz = 0; dz < zSteps; dz++) {
      const s = zSteps === 1 ? slice : slice + (dz - 1) * step;
      if (s < 0 || s >= nz) continue;
      for (let dy = -step; dy <= step; dy += step) {
        const r = row + dy;
        if (r < 0 || r >= ny) continue;
        const base = s * plane + r * nx;
        for (let dx = -step; dx <= step; dx += step) {
          const c = col + dx;
          if (c < 0 || c >= nx) continue;
          const site = src[base + c];
          if (site < 0 || site === best) continue;
          const dist = squaredDistanceF32(x, y, z, u[site], v[site], w[site]);
          if (dist < bestDist || (dist === bestDist && site < best)) {
            best = site;
            bestDist = dist;
          }
        }
      }
    }
    dst[p] = best;
  }
  return count;
}

/**
 * Whether cell `p` and every neighbour of it within the grid (8 in 2D, 26 in 3D, at ±1) carry the
 * same label — Facet-JFA's "interior" mark.
 */
export function isInterior(labels: Int32Array, level: LevelGrid, p: number): boolean {
  const { nx, ny, nz } = level;
  const label = labels[p];
  const col = p % nx;
  const rest = (p - col) / nx;
  const row = rest % ny;
  const slice = (rest - row) / ny;
  const z0 = Math.max(0, slice - 1);
  const z1 = Math.min(nz - 1, slice + 1);
  const y0 = Math.max(0, row - 1);
  const y1 = Math.min(ny - 1, row + 1);
  const x0 = Math.max(0, col - 1);
  const x1 = Math.min(nx - 1, col + 1);
  for (let s = z0; s <= z1; s++) {
    for (let r = y0; r <= y1; r++) {
      const base = (s * ny + r) * nx;
      for (let c = x0; c <= x1; c++) if (labels[base + c] !== label) return false;
    }
  }
  return true;
}
