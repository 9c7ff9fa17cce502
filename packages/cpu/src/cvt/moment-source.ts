import type { Box } from '@geoframe/core';
import type { PolygonBuffers } from '../delaunay/buffers.js';
import { addUniformMoments, type CellMoments, cellMoments, type RingSpan } from './cell-moments.js';
import type { InteriorBuckets } from './interior-buckets.js';
import type { RegionCellMoments } from './region-cell-moments.js';

/**
 * Uniform-density moments of the Voronoi cells of unique sites (built in `box`), as a GPU
 * computes them where the cells are: per row 2m, 6sₓ, 6s_y, 12e about its site (`raw`), except
 * the rows in `hostRows`, whose cells come back for the host to clip and integrate. `raw: null`
 * hands every row to the host (`hostCells` then holds every cell, in row order).
 */
export interface SourcedMoments {
  raw: Float64Array | null;
  hostRows: Uint32Array | null;
  hostCells: PolygonBuffers;
}

/**
 * Where the exact mode gets uniform-density moments instead of cells (the GPU keeps the cells on
 * the device). With `interior`, rows whose cells are not wholly inside the region's interior
 * buckets must be left to the host; without it the cells need no clipping.
 */
export type MomentSource = (
  sites: Float64Array,
  box: Box,
  interior: InteriorBuckets | null,
) => Promise<SourcedMoments>;

/**
 * The moments of every unique site from a source's answer: `raw` rows as they are (2m/2, 6s/6,
 * 12e/12), host rows integrated here — through `region` (cut to the region) or, without it, as
 * they are.
 */
export function sourcedCellMoments(
  got: SourcedMoments,
  xy: Float64Array,
  region: RegionCellMoments | null,
): CellMoments {
  const count = xy.length >> 1;
  const m = cellMoments(count);
  const { raw, hostRows, hostCells } = got;
  if (raw !== null) {
    for (let u = 0; u < count; u++) {
      if (Number.isNaN(raw[4 * u])) continue;
      m.mass[u] = raw[4 * u] / 2;
      m.sx[u] = raw[4 * u + 1] / 6;
      m.sy[u] = raw[4 * u + 2] / 6;
      m.energy[u] = raw[4 * u + 3] / 12;
    }
  }
  const rows = hostRows === null ? count : hostRows.length;
  const span: RingSpan = { coords: hostCells.coords, ringOffsets: hostCells.ringOffsets, first: 0, last: 0 };
  for (let j = 0; j < rows && j + 1 < hostCells.ringOffsets.length; j++) {
    const u = hostRows === null ? j : hostRows[j];
    if (region !== null) {
      region.add(hostCells.coords, hostCells.ringOffsets, j, xy[2 * u], xy[2 * u + 1], m, u);
    } else {
      span.first = j;
      span.last = j + 1;
      addUniformMoments(span, xy[2 * u], xy[2 * u + 1], 1, m, u);
    }
  }
  return m;
}
