import {
  CvtError,
  type CvtIteration,
  type CvtMethod,
  type CvtRasterProblem,
  type CvtRun,
  checkOptions,
  type DeviceOption,
  type DispatchEvent,
  type ExecutionPath,
  type GeometryArray,
  type ProgressOption,
  ProgressReporter,
  type RasterGrid,
} from '@geoframe/core';
import { exactEvaluator, runCvtAsync, separateDuplicates } from '@geoframe/cpu';
import { type CvtDensity, type CvtDensityInput, cvtDensity, regionMask } from '../cvt/cvt-density.js';
import { cvtColumns } from '../cvt/cvt-output.js';
import { type CvtRegion, type CvtRegionInput, cvtRegion } from '../cvt/cvt-region.js';
import { type CvtSites, checkSitesInRegion, cvtSites } from '../cvt/cvt-sites.js';
import type { GeoSeries } from '../geo-series.js';
import { dispatchOperation } from './dispatch-operation.js';
import { cvtCellSource, cvtMomentSource, cvtRasterEngines } from './engines.js';

/** Options of `centroidalVoronoi` (docs/cvt.md). */
export interface CentroidalVoronoiOptions {
  /** 'lloyd' (default) or 'lbfgs' (L-BFGS, m = 7, strong Wolfe line search). */
  method?: CvtMethod;
  /** Lloyd: most iterations; L-BFGS: most evaluations of F and ∇F. Default 200. */
  iterations?: number;
  /** Stop when ‖∇F‖ ≤ tolerance · 2 · mass · diagonal (`cvtConverged`). Default 1e-5. */
  tolerance?: number;
  /** A raster (as `readRaster` returns), a function (x, y) → ρ, or `{polygons, weights}`; uniform by default. */
  density?: CvtDensityInput;
  /** A box or (multi)polygons; default: the sites' bounding box grown by 5 % of its larger side. */
  region?: CvtRegionInput;
  /** 'exact' (default): exact cells and integrals; 'raster': a grid labelled each iteration (the paper). */
  mode?: 'raster' | 'exact';
  /** Raster mode: pixels along the region's longer side (default 512). */
  resolution?: number;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
  /** Each kept iterate: Lloyd iterations, or L-BFGS accepted steps numbered by evaluations. */
  onIteration?: (step: CvtIteration) => void;
  /** Hears this call's dispatch events only. */
  onDispatch?: (event: DispatchEvent) => void;
  /**
   * Hears progress on long runs (stages 'iterations', counted as `onIteration` hears them — the
   * GPU raster mode reports its iterations when it returns —, then 'cells'): a callback or
   * `{callback, delayMs, intervalMs}`.
   */
  onProgress?: ProgressOption;
}

const CVT_OPTION_KEYS = [
  'method',
  'iterations',
  'tolerance',
  'density',
  'region',
  'mode',
  'resolution',
  'device',
  'onIteration',
  'onDispatch',
  'onProgress',
] as const;

/** Everything `centroidalVoronoi` checked and derived before it runs. */
export interface PreparedCvt {
  sites: CvtSites;
  region: CvtRegion;
  density: CvtDensity;
  method: CvtMethod;
  iterations: number;
  tolerance: number;
  mode: 'raster' | 'exact';
  resolution: number;
  device: DeviceOption;
}

/**
 * The checks of `centroidalVoronoi` (`explain` runs them too): options, sites (Points, finite,
 * inside the region, at least one), region (not empty) and density (finite, ≥ 0).
 */
export function prepareCentroidalVoronoi(
  array: GeometryArray,
  options: CentroidalVoronoiOptions = {},
): PreparedCvt {
  checkOptions(options, CVT_OPTION_KEYS, 'centroidalVoronoi');
  const o = options ?? {};
  const method = o.method ?? 'lloyd';
  if (method !== 'lloyd' && method !== 'lbfgs')
    throw new CvtError(`method must be 'lloyd' or 'lbfgs', got ${JSON.stringify(method)}`);
  const mode = o.mode ?? 'exact';
  if (mode !== 'raster' && mode !== 'exact')
    throw new CvtError(`mode must be 'raster' or 'exact', got ${JSON.stringify(mode)}`);
  const iterations = o.iterations ?? 200;
  if (!Number.isInteger(iterations) || iterations < 1)
    throw new CvtError(`iterations must be an integer ≥ 1, got ${iterations}`);
  const tolerance = o.tolerance ?? 1e-5;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance))
    throw new CvtError(`tolerance must be finite and ≥ 0, got ${tolerance}`);
  const resolution = o.resolution ?? 512;
  if (!Number.isInteger(resolution) || resolution < 2 || resolution > 16_384) {
    throw new CvtError(`resolution must be an integer in [2, 16384], got ${resolution}`);
  }
  const device = o.device ?? 'auto';
  if (device !== 'auto' && device !== 'gpu' && device !== 'cpu') {
    throw new CvtError(`device must be 'auto', 'gpu' or 'cpu', got ${JSON.stringify(device)}`);
  }
  const sites = cvtSites(array);
  const region = cvtRegion(o.region, sites.xy);
  checkSitesInRegion(sites, region);
  const density = cvtDensity(o.density, region);
  return { sites, region, density, method, iterations, tolerance, mode, resolution, device };
}

/** The grid of the raster mode: the region's box, `resolution` pixels along its longer side. */
export function cvtGrid(region: CvtRegion, resolution: number): RasterGrid {
  const { minX, minY, maxX, maxY } = region.box;
  const w = maxX - minX;
  const h = maxY - minY;
  const width = w >= h ? resolution : Math.max(1, Math.round((resolution * w) / h));
  const height = h > w ? resolution : Math.max(1, Math.round((resolution * h) / w));
  return { width, height, depth: 1, bounds: [minX, minY, maxX, maxY] };
}

/** The raster problem both engines solve. @throws CvtError when the region has no mass on the grid. */
export function cvtRasterProblem(p: PreparedCvt, start: Float64Array): CvtRasterProblem {
  const grid = cvtGrid(p.region, p.resolution);
  const mask = regionMask(p.region, grid);
  const density = p.density.pixels(grid, mask);
  let mass = 0;
  for (let k = 0; k < density.length; k++) mass += density[k];
  if (!(mass > 0)) throw new CvtError('the region has zero mass under the density (on the raster grid)');
  return {
    sites: start,
    grid,
    density,
    mask,
    method: p.method,
    maxIterations: p.iterations,
    tolerance: p.tolerance,
    labelling: '1+jfa',
  };
}

/** A run and where it ran. */
export interface CvtOutcomeOnPath {
  run: CvtRun;
  path: ExecutionPath;
}

/**
 * Runs the CVT: coinciding starts are first pulled apart by a seeded 1e-6 of the region's
 * diagonal; the raster mode dispatches as kernel 'centroidalVoronoi' (rows = pixels), the exact
 * mode runs here with its cells dispatched as 'voronoiPolygons'.
 */
export async function runCentroidalVoronoi(
  p: PreparedCvt,
  options: CentroidalVoronoiOptions,
): Promise<CvtOutcomeOnPath> {
  const b = p.region.box;
  const start = separateDuplicates(p.sites.xy, 1e-6 * Math.hypot(b.maxX - b.minX, b.maxY - b.minY));
  if (p.mode === 'raster') {
    const problem = cvtRasterProblem(p, start);
    const pixels = problem.grid.width * problem.grid.height;
    const engines = cvtRasterEngines(problem, options.onIteration);
    const { value, decision } = await dispatchOperation(
      'centroidalVoronoi',
      pixels,
      p.device,
      engines,
      options.onDispatch,
    );
    return { run: value, path: decision.path };
  }
  let path: ExecutionPath = 'cpu';
  const listener = (event: DispatchEvent) => {
    path = event.path;
    options.onDispatch?.(event);
  };
  const source = cvtCellSource(p.device, listener);
  // uniform density: the moments come from where the cells are (kept on the GPU there)
  const moments = p.density.exact.kind === 'uniform' ? cvtMomentSource(p.device, listener) : undefined;
  const evaluate = exactEvaluator(
    {
      sites: start,
      region: p.region.clip,
      ...(p.region.isBox ? { regionBox: p.region.box } : {}),
      density: p.density.exact,
      method: p.method,
      maxIterations: p.iterations,
      tolerance: p.tolerance,
    },
    source,
    moments,
  );
  let checked = false;
  const run = await runCvtAsync(
    start,
    async (x) => {
      const e = await evaluate(x);
      if (!checked && !(e.totalMass > 0)) throw new CvtError('the region has zero mass under the density');
      checked = true;
      return e;
    },
    {
      method: p.method,
      maxIterations: p.iterations,
      tolerance: p.tolerance,
      diagonal: Math.hypot(b.maxX - b.minX, b.maxY - b.minY),
      onIteration: options.onIteration,
    },
  );
  return { run, path };
}

/** What `centroidalVoronoi` returns (the frame version's `cells` is a frame with every column). */
export interface CentroidalVoronoiResult<Cells = GeoSeries> {
  /** The final sites, one Point per input row (null where the input row was null or empty). */
  sites: GeoSeries;
  /** Each row's cell of the final sites clipped to the region (null where the input row was). */
  cells: Cells;
  /** F per kept iterate (Lloyd: each iteration; L-BFGS: the start and each accepted step). */
  energy: Float64Array;
  gradientNorm: Float64Array;
  iterations: number;
  evaluations: number;
  converged: boolean;
  /** Where the iterations ran. */
  path: ExecutionPath;
}

/**
 * Validates ({@link prepareCentroidalVoronoi}), runs ({@link runCentroidalVoronoi}) and assembles
 * the result; `toSeries` wraps a column, `wrapCells` turns the cells into the caller's type (a
 * frame keeps its columns).
 */
export async function computeCentroidalVoronoi<Cells = GeoSeries>(
  array: GeometryArray,
  options: CentroidalVoronoiOptions,
  toSeries: (array: GeometryArray) => GeoSeries,
  wrapCells: (cells: GeoSeries) => Cells,
): Promise<CentroidalVoronoiResult<Cells>> {
  const p = prepareCentroidalVoronoi(array, options);
  const progress = new ProgressReporter('centroidalVoronoi', options.onProgress, [
    { name: 'iterations', weight: 9, unit: 'iterations' },
    { name: 'cells', weight: 1, unit: 'cells' },
  ]);
  progress.stage('iterations', p.iterations);
  const onIteration = (step: CvtIteration) => {
    progress.advance(step.iteration);
    options.onIteration?.(step);
  };
  const { run, path } = await runCentroidalVoronoi(p, { ...options, onIteration });
  progress.stage('cells', array.length);
  const columns = await cvtColumns(
    run.sites,
    p.sites,
    p.region,
    array.length,
    array,
    p.device,
    options?.onDispatch,
  );
  progress.finish();
  return {
    sites: toSeries(columns.sites),
    cells: wrapCells(toSeries(columns.cells)),
    energy: run.energy,
    gradientNorm: run.gradientNorm,
    iterations: run.iterations,
    evaluations: run.evaluations,
    converged: run.converged,
    path,
  };
}
