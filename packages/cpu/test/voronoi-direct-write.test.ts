// voronoiCells writes cells inside the box straight to their final place with a length planned
// from the triangulation (degree + 1, less merged cocircular centres), and closes the gaps when a
// ring comes out shorter. The general clipping writer, run on every cell, is the reference.
import { clipBox, uniqueSites } from '@geoframe/core';
import { generatePoints, type PointSetKind } from '@geoframe/testing';
import { describe, expect, test } from 'vitest';
import { voronoiCellsOrdered } from '../src/voronoi/voronoi-cells.js';
import { ringProblem } from './voronoi-helpers.js';

function bits(a: Float64Array): BigUint64Array {
  return new BigUint64Array(a.buffer, a.byteOffset, a.length);
}

// lattices: most rings lose vertices to merged centres; near duplicates (and circle points):
// some rings lose a vertex to rounding and the convexity pass, which the gap closing handles
const kinds: PointSetKind[] = [
  'uniform',
  'clusters',
  'lattice',
  'lattice-offset',
  'circle',
  'near-duplicates',
];

describe.each(kinds)('%s sites', (kind) => {
  const xy = uniqueSites(generatePoints(kind, 5000, 3)).xy;
  const n = xy.length / 2;

  test.each([true, false])('sort %s: the fast path gives the general writer’s cells bit for bit', (sort) => {
    for (const box of [clipBox(xy), shrunk(clipBox(xy))]) {
      const fast = voronoiCellsOrdered(xy, box, sort);
      const general = voronoiCellsOrdered(xy, box, sort, true);
      expect(fast.ringOffsets).toEqual(general.ringOffsets);
      expect(fast.coords.length).toBe(2 * fast.ringOffsets[n]);
      expect(bits(fast.coords)).toEqual(bits(general.coords));
    }
  });
});

test.each(kinds)('%s sites: rings are valid, one per site', (kind) => {
  const xy = uniqueSites(generatePoints(kind, 5000, 3)).xy;
  const n = xy.length / 2;
  const cells = voronoiCellsOrdered(xy, clipBox(xy), true);
  expect(cells.ringOffsets.length).toBe(n + 1);
  for (let i = 0; i < n; i++) {
    const problem = ringProblem(cells, i);
    if (problem !== null) expect([i, problem]).toBe('valid');
  }
});

/** A box cutting through the sites (a quarter of the extent off each side). */
function shrunk(box: { minX: number; minY: number; maxX: number; maxY: number }) {
  const w = (box.maxX - box.minX) / 4;
  const h = (box.maxY - box.minY) / 4;
  return { minX: box.minX + w, minY: box.minY + h, maxX: box.maxX - w, maxY: box.maxY - h };
}
