// Shared by the CVT tests: regions, problems and an independent brute-force energy.
import type { Box, CvtMethod } from '@geoframe/core';
import { type ClipRegion, type CvtExactProblem, type ExactDensity, prepareClipRegion } from '@geoframe/cpu';
import { multiPolygonColumn, type Poly } from './clip-helpers.js';

/** The region of one polygon (exterior first, then holes). */
export function polygonRegion(poly: Poly): ClipRegion {
  return prepareClipRegion(multiPolygonColumn([[poly]]));
}

/** The rectangle as a region. */
export function boxRegion(b: Box): ClipRegion {
  return polygonRegion([
    [
      [b.minX, b.minY],
      [b.maxX, b.minY],
      [b.maxX, b.maxY],
      [b.minX, b.maxY],
    ],
  ]);
}

/** An L-shaped region of [0, 2]² without [1, 2]², with a square hole. */
export const L_SHAPE: Poly = [
  [
    [0, 0],
    [2, 0],
    [2, 1],
    [1, 1],
    [1, 2],
    [0, 2],
  ],
  [
    [0.2, 0.2],
    [0.2, 0.4],
    [0.4, 0.4],
    [0.4, 0.2],
  ],
];

/** An exact-mode problem. */
export function exactProblem(
  sites: Float64Array,
  region: ClipRegion,
  density: ExactDensity,
  method: CvtMethod,
  maxIterations: number,
  tolerance = 0,
  regionBox?: Box,
): CvtExactProblem {
  return { sites, region, density, method, maxIterations, tolerance, ...(regionBox ? { regionBox } : {}) };
}

/**
 * F by brute force on a fine grid of `k × k` cell centres over `box`: each sample goes to its
 * nearest site; `inside` and `rho` weigh it. Independent of the cell code.
 */
export function bruteEnergy(
  sites: Float64Array,
  box: Box,
  k: number,
  inside: (x: number, y: number) => boolean,
  rho: (x: number, y: number) => number = () => 1,
): number {
  const dx = (box.maxX - box.minX) / k;
  const dy = (box.maxY - box.minY) / k;
  let f = 0;
  for (let r = 0; r < k; r++) {
    const y = box.minY + (r + 0.5) * dy;
    for (let c = 0; c < k; c++) {
      const x = box.minX + (c + 0.5) * dx;
      if (!inside(x, y)) continue;
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < sites.length; i += 2) {
        best = Math.min(best, (x - sites[i]) ** 2 + (y - sites[i + 1]) ** 2);
      }
      f += rho(x, y) * best;
    }
  }
  return f * dx * dy;
}
