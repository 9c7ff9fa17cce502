import {
  checkOptions,
  type DeviceOption,
  type DispatchEvent,
  type ExecutionPath,
  type GeometryArray,
  type ProgressOption,
  ProgressReporter,
  RASTER_MODES,
  type RasterGrid,
  type RasterMode,
} from '@geoframe/core';
import { dispatchOperation } from '../ops/dispatch-operation.js';
import { rasterEngines } from '../ops/engines.js';
import { defaultRasterBounds, type RasterSites, rasterSites } from './raster-sites.js';
import { VoronoiRaster, type VoronoiRasterParts } from './voronoi-raster.js';

/** Options shared by `voronoiRaster` and `voronoiVolume`. */
export interface RasterCommonOptions {
  /** 'exact' (default), 'jfa', 'jfa+1', '1+jfa' or 'facet-jfa' (see docs/raster.md). */
  mode?: RasterMode;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
  /** Also compute the distance from each pixel centre to its site (coordinate units, f32). */
  distance?: boolean;
  /** Facet-JFA's coarse level p (blocks of 2^p pixels); chosen automatically when absent. */
  coarseLevel?: number;
  /** Hears this call's dispatch events only (see `VoronoiOptions.onDispatch`). */
  onDispatch?: (event: DispatchEvent) => void;
  /** Hears progress on long runs (stages 'raster', 'labels'; see `voronoiPolygons`). */
  onProgress?: ProgressOption;
}

/** Options of `GeoSeries.voronoiRaster`. */
export interface VoronoiRasterOptions extends RasterCommonOptions {
  /** Pixels across (a positive integer). */
  width: number;
  /** Pixels down (a positive integer). */
  height: number;
  /** [xmin, ymin, xmax, ymax]; default the sites' bounding box (a zero-width axis grown). */
  bounds?: readonly [number, number, number, number];
}

/** Options of `GeoSeries.voronoiVolume`. */
export interface VoronoiVolumeOptions extends RasterCommonOptions {
  /** Voxels along x, y and z (positive integers). */
  dims: readonly [number, number, number];
  /** [xmin, ymin, zmin, xmax, ymax, zmax]; default the sites' bounding box (zero-width axes grown). */
  bounds?: readonly [number, number, number, number, number, number];
  /** The z plane of points without z (xy points). */
  z?: number;
}

const COMMON_KEYS = ['mode', 'device', 'distance', 'coarseLevel', 'bounds', 'onDispatch', 'onProgress'];
/** The keys of {@link VoronoiRasterOptions} and {@link VoronoiVolumeOptions}: anything else is refused. */
const RASTER_OPTION_KEYS = {
  2: ['width', 'height', ...COMMON_KEYS],
  3: ['dims', 'z', ...COMMON_KEYS],
} as const;

function checkSize(what: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(`${what}: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function checkBounds(what: string, bounds: readonly number[], dims: 2 | 3): number[] {
  if (!Array.isArray(bounds) || bounds.length !== 2 * dims || !bounds.every(Number.isFinite)) {
    throw new RangeError(`${what}: bounds must be ${2 * dims} finite numbers, got ${JSON.stringify(bounds)}`);
  }
  for (let a = 0; a < dims; a++) {
    if (!(bounds[a + dims] > bounds[a])) {
      throw new RangeError(`${what}: bounds [${bounds.join(', ')}] need max > min on every axis`);
    }
  }
  return [...bounds];
}

/** What {@link prepareRaster} checked and derived: the grid, the mode and the sites. */
export interface PreparedRaster {
  grid: RasterGrid;
  mode: RasterMode;
  sites: RasterSites;
}

/**
 * The checks of `voronoiRaster` (`dims` 2) / `voronoiVolume` (3), before anything is planned or
 * run: grid sizes positive integers, a known mode, the input's sites (see `rasterSites`), and
 * the bounds (given, or the sites' box). The grid's pixel (voxel) count decides the dispatch;
 * `explain` calls this too, so it accepts and refuses exactly what the operation does.
 */
export function prepareRaster(
  array: GeometryArray,
  dims: 2 | 3,
  sizes: readonly number[],
  options: RasterCommonOptions & { bounds?: readonly number[]; z?: number },
): PreparedRaster {
  const what = dims === 2 ? 'voronoiRaster' : 'voronoiVolume';
  checkOptions(options, RASTER_OPTION_KEYS[dims], what);
  const [width, height] = [checkSize(what, 'width', sizes[0]), checkSize(what, 'height', sizes[1])];
  const depth = dims === 3 ? checkSize(what, 'depth', sizes[2]) : 1;
  const mode = options.mode ?? 'exact';
  if (!RASTER_MODES.includes(mode)) {
    throw new RangeError(
      `${what}: mode must be one of ${RASTER_MODES.join(', ')}, got ${JSON.stringify(mode)}`,
    );
  }
  const sites = rasterSites(array, dims, options.z);
  const bounds =
    options.bounds === undefined ? defaultRasterBounds(sites) : checkBounds(what, options.bounds, dims);
  return { grid: { width, height, depth, bounds }, mode, sites };
}

/**
 * The raster Voronoi diagram of a point column on a `sizes` grid (2D: [width, height]; 3D:
 * [nx, ny, nz]): validates the input (see `rasterSites`), plans the run with the dispatcher
 * (kernel 'voronoiRaster', size = pixels), runs it on the GPU or the CPU — a recoverable GPU
 * failure under `device: 'auto'` falls back to the CPU with a `fallback` event — with pixels
 * labelled by input rows.
 */
export async function computeVoronoiRaster(
  array: GeometryArray,
  dims: 2 | 3,
  sizes: readonly number[],
  options: RasterCommonOptions & { bounds?: readonly number[]; z?: number },
  toSeries: VoronoiRasterParts['toSeries'],
): Promise<VoronoiRaster> {
  const { grid, mode, sites } = prepareRaster(array, dims, sizes, options);
  const { width, height, depth, bounds } = grid;
  const device = options.device ?? 'auto';
  const run = { mode, distance: options.distance, coarseLevel: options.coarseLevel };
  const progress = new ProgressReporter(dims === 2 ? 'voronoiRaster' : 'voronoiVolume', options.onProgress, [
    { name: 'raster', weight: 9, unit: 'pixels' },
    { name: 'labels', weight: 1, unit: 'pixels' },
  ]);
  progress.stage('raster', width * height * depth);
  const { value: result, decision } = await dispatchOperation(
    'voronoiRaster',
    width * height * depth,
    device,
    rasterEngines(sites.coords, dims, grid, run, sites.rows),
    options.onDispatch,
  );
  const path: ExecutionPath = decision.path;
  // the engines label pixels with input rows (rasterEngines)
  const labels = result.labels;
  progress.stage('labels', labels.length);
  progress.finish();
  return new VoronoiRaster({
    labels,
    distance: result.distance ?? null,
    width,
    height,
    depth,
    dims,
    bounds,
    mode,
    stats: result.stats,
    path,
    dispatch: decision,
    sites,
    rowCount: array.length,
    crs: array.crs,
    toSeries,
  });
}
