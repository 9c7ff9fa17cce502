import type { Box } from '@geoframe/core';
import type { PolygonBuffers } from '../delaunay/buffers.js';
import type { InteriorBuckets } from './interior-buckets.js';

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
 * buckets must be left to the host; without it the cells need no clipping. `raw`, when given,
 * is an array of 4 per site that the source may answer in (a run passes the same one every
 * evaluation; the caller reads the answer from the returned `raw`).
 */
export type MomentSource = (
  sites: Float64Array,
  box: Box,
  interior: InteriorBuckets | null,
  raw?: Float64Array,
) => Promise<SourcedMoments>;
