import { checkOptions, explainDispatch, type GeometryArray } from '@geoframe/core';
import { type VoronoiSeriesOptions, voronoiOptionsOf } from '../geo-series.js';
import {
  prepareRaster,
  type VoronoiRasterOptions,
  type VoronoiVolumeOptions,
} from '../raster/compute-voronoi-raster.js';
import { DELAUNAY_OPTION_KEYS, type DelaunayOptions } from '../voronoi/delaunay-triangles.js';
import { inputSites } from '../voronoi/input-sites.js';
import { prepareVoronoi } from '../voronoi/voronoi-polygons.js';

/** The options of each operation `explain` answers for: the operation's own. */
export interface ExplainOptions {
  voronoiPolygons: VoronoiSeriesOptions;
  delaunayTriangles: DelaunayOptions;
  voronoiRaster: VoronoiRasterOptions;
  voronoiVolume: VoronoiVolumeOptions;
}

/** An operation `explain` answers for. */
export type ExplainableOperation = keyof ExplainOptions;

/**
 * The answer of `explain`: the dispatch event the operation would emit (`kernel`, `rows`,
 * `path`, `reason`) plus the crossover in force, where it comes from (`measured`), and whether
 * the kernel has a GPU implementation at all (`gpuImplemented`).
 */
export type DispatchExplanation = ReturnType<typeof explainDispatch>;

/** The operations of a GeoSeries that `explain` answers for. */
export const SERIES_EXPLAINABLE: readonly ExplainableOperation[] = [
  'voronoiPolygons',
  'delaunayTriangles',
  'voronoiRaster',
  'voronoiVolume',
];

/** The operations of a GeoDataFrame that `explain` answers for (it has no raster methods). */
export const FRAME_EXPLAINABLE = ['voronoiPolygons', 'delaunayTriangles'] as const;

/**
 * Where `op` on the geometry column `array` would run with `options`, and why — without running
 * it and without emitting a dispatch event. The size that decides is computed exactly as the
 * operation computes it: unique sites after `tolerance` for voronoiPolygons and
 * delaunayTriangles, pixels (voxels) of the grid for voronoiRaster (voronoiVolume dispatches as
 * kernel 'voronoiRaster'). The options are checked as the operation checks them before it
 * dispatches, so explain throws where the call would (a bad `device`, `tolerance`, `extendTo`,
 * grid size, mode or bounds; a non-finite vertex, or a non-point row for the rasters). A forced
 * `device: 'gpu'` that could not run is answered (reason "would fail: …"), not thrown. Whether
 * an adapter exists is not probed, as the operation's own plan does not probe it.
 *
 * @throws TypeError when `op` is not in `known`, naming the known operations.
 */
export function explainOperation(
  array: GeometryArray,
  op: string,
  options: unknown,
  known: readonly string[] = SERIES_EXPLAINABLE,
): DispatchExplanation {
  if (!known.includes(op)) {
    throw new TypeError(`explain: unknown operation ${JSON.stringify(op)}; known: ${known.join(', ')}`);
  }
  switch (op as ExplainableOperation) {
    case 'voronoiPolygons': {
      const opts = (options ?? {}) as VoronoiSeriesOptions;
      const { count } = prepareVoronoi(array, voronoiOptionsOf(opts));
      return explainDispatch('voronoiPolygons', count, { device: opts.device });
    }
    case 'delaunayTriangles': {
      const opts = (options ?? {}) as DelaunayOptions;
      checkOptions(opts, DELAUNAY_OPTION_KEYS, 'delaunayTriangles');
      const { count } = inputSites(array, opts.tolerance, { op: 'delaunay' });
      return explainDispatch('delaunayTriangles', count, { device: opts.device });
    }
    case 'voronoiRaster': {
      const opts = (options ?? {}) as VoronoiRasterOptions;
      const { grid } = prepareRaster(array, 2, [opts.width, opts.height], opts);
      return explainDispatch('voronoiRaster', grid.width * grid.height, { device: opts.device });
    }
    case 'voronoiVolume': {
      const opts = (options ?? {}) as VoronoiVolumeOptions;
      const { grid } = prepareRaster(array, 3, opts.dims ?? [], opts);
      return explainDispatch('voronoiRaster', grid.width * grid.height * grid.depth, {
        device: opts.device,
      });
    }
  }
  throw new TypeError(`explain: unknown operation ${JSON.stringify(op)}`);
}
