import {
  type AdapterSummary,
  checkOptions,
  type DeviceOption,
  explainDispatch,
  type GeometryArray,
} from '@geoframe/core';
import { probedGpuAdapter, probeGpuAdapter } from '@geoframe/gpu';
import {
  type CentroidalVoronoiOptions,
  cvtGrid,
  prepareCentroidalVoronoi,
} from '../ops/centroidal-voronoi.js';
import { type CostAllocationOptions, prepareCostAllocation } from '../ops/cost-allocation.js';
import {
  prepareRaster,
  type VoronoiRasterOptions,
  type VoronoiVolumeOptions,
} from '../raster/compute-voronoi-raster.js';
import { DELAUNAY_OPTION_KEYS, type DelaunayOptions } from '../voronoi/delaunay-triangles.js';
import { inputSites } from '../voronoi/input-sites.js';
import { type VoronoiSeriesOptions, voronoiOptionsOf } from '../voronoi/series-options.js';
import { prepareVoronoi } from '../voronoi/voronoi-polygons.js';

/** The options of each operation `explain` answers for: the operation's own. */
export interface ExplainOptions {
  voronoiPolygons: VoronoiSeriesOptions;
  delaunayTriangles: DelaunayOptions;
  voronoiRaster: VoronoiRasterOptions;
  voronoiVolume: VoronoiVolumeOptions;
  costAllocation: CostAllocationOptions;
  centroidalVoronoi: CentroidalVoronoiOptions;
}

/** An operation `explain` answers for. */
export type ExplainableOperation = keyof ExplainOptions;

/**
 * The answer of `explain`: the dispatch event the operation would emit (`kernel`, `rows`,
 * `path`, `reason`) plus the crossover in force for the adapter, the measurement it derives from
 * (`measured`) and how (`crossoverSource`), the adapter (`{description, class, …}`, null when
 * not probed yet or none exists), and whether the kernel has a GPU implementation at all.
 */
export type DispatchExplanation = ReturnType<typeof explainDispatch>;

/** explainDispatch with the adapter probed so far (undefined before any probe). */
function explainOn(kernel: string, rows: number, device: DeviceOption | undefined): DispatchExplanation {
  return explainDispatch(kernel, rows, { device, adapter: probedGpuAdapter() });
}

/**
 * Probes the default WebGPU adapter once per process (no device is created) and returns what
 * dispatch sees of it — vendor, architecture, device, description, `isFallbackAdapter` and its
 * class (`software`, `integrated`, `discrete`, `unknown`) — or null when there is none. After
 * it, `explain` answers for this machine's adapter.
 */
export function probeGpu(): Promise<AdapterSummary | null> {
  return probeGpuAdapter();
}

/** The operations of a GeoSeries that `explain` answers for. */
export const SERIES_EXPLAINABLE: readonly ExplainableOperation[] = [
  'voronoiPolygons',
  'delaunayTriangles',
  'voronoiRaster',
  'voronoiVolume',
  'costAllocation',
  'centroidalVoronoi',
];

/** The operations of a GeoDataFrame that `explain` answers for (it has no voronoi raster methods). */
export const FRAME_EXPLAINABLE = [
  'voronoiPolygons',
  'delaunayTriangles',
  'costAllocation',
  'centroidalVoronoi',
] as const;

/**
 * Where `op` on the geometry column `array` would run with `options`, and why — without running
 * it and without emitting a dispatch event. The size that decides is computed exactly as the
 * operation computes it: unique sites after `tolerance` for voronoiPolygons and
 * delaunayTriangles, pixels (voxels) of the grid for voronoiRaster (voronoiVolume dispatches as
 * kernel 'voronoiRaster'), cells of the cost raster for costAllocation. The options are checked as the operation checks them before it
 * dispatches, so explain throws where the call would (a bad `device`, `tolerance`, `extendTo`,
 * grid size, mode or bounds; a non-finite vertex, or a non-point row for the rasters). A forced
 * `device: 'gpu'` that could not run is answered (reason "would fail: …"), not thrown. The
 * adapter is the one {@link probeGpu} found (the operations probe it themselves under 'auto'
 * from the stored crossover up); before any probe, the answer says "adapter not probed" and
 * assumes a discrete GPU, so call `await probeGpu()` first for the answer on this machine.
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
      return explainOn('voronoiPolygons', count, opts.device);
    }
    case 'delaunayTriangles': {
      const opts = (options ?? {}) as DelaunayOptions;
      checkOptions(opts, DELAUNAY_OPTION_KEYS, 'delaunayTriangles');
      const { count } = inputSites(array, opts.tolerance, { op: 'delaunay' });
      return explainOn('delaunayTriangles', count, opts.device);
    }
    case 'voronoiRaster': {
      const opts = (options ?? {}) as VoronoiRasterOptions;
      const { grid } = prepareRaster(array, 2, [opts.width, opts.height], opts);
      return explainOn('voronoiRaster', grid.width * grid.height, opts.device);
    }
    case 'voronoiVolume': {
      const opts = (options ?? {}) as VoronoiVolumeOptions;
      const { grid } = prepareRaster(array, 3, opts.dims ?? [], opts);
      return explainOn('voronoiRaster', grid.width * grid.height * grid.depth, opts.device);
    }
    case 'costAllocation': {
      const opts = (options ?? {}) as CostAllocationOptions;
      const { problem } = prepareCostAllocation(array, opts);
      return explainOn('costAllocation', problem.values.length, opts.device);
    }
    case 'centroidalVoronoi': {
      // raster mode: kernel centroidalVoronoi on the grid's pixels; exact: its cells, per evaluation
      const p = prepareCentroidalVoronoi(array, (options ?? {}) as CentroidalVoronoiOptions);
      if (p.mode === 'exact') return explainOn('voronoiPolygons', p.sites.rows.length, p.device);
      const grid = cvtGrid(p.region, p.resolution);
      return explainOn('centroidalVoronoi', grid.width * grid.height, p.device);
    }
  }
  throw new TypeError(`explain: unknown operation ${JSON.stringify(op)}`);
}
