import type { Box } from '@geoframe/core';
import { BoxRingClipper } from '../clip/box-clip-ring.js';
import type { PolygonBuffers } from '../delaunay/buffers.js';

/**
 * Convex cells (one closed ring each) cut to a box by Sutherland–Hodgman: a convex ring ∩ a box is
 * one convex ring, so this stands in for the general clip where the region is a rectangle and
 * some sites lie outside it (an L-BFGS trial step). A cell left with fewer than 3 points is an
 * empty ring (offsets equal).
 */
export function cellsInBox(cells: PolygonBuffers, box: Box): PolygonBuffers {
  const n = cells.ringOffsets.length - 1;
  const clipper = new BoxRingClipper();
  const rings: [number, number][][] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const ring = clipper.clip(
      cells.coords,
      cells.ringOffsets[i],
      cells.ringOffsets[i + 1],
      box.minX,
      box.minY,
      box.maxX,
      box.maxY,
    );
    const kept = ring.length >= 3 ? ring : [];
    rings.push(kept);
    total += kept.length > 0 ? kept.length + 1 : 0;
  }
  const coords = new Float64Array(2 * total);
  const ringOffsets = new Int32Array(n + 1);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const ring = rings[i];
    for (let j = 0; j <= ring.length && ring.length > 0; j++) {
      const [x, y] = ring[j % ring.length];
      coords[2 * k] = x;
      coords[2 * k + 1] = y;
      k++;
    }
    ringOffsets[i + 1] = k;
  }
  return { coords, ringOffsets };
}
