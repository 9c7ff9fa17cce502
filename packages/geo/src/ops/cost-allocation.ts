import {
  type CostConnectivity,
  CostGridError,
  type CostGridProblem,
  type CostMetric,
  checkCostGridProblem,
  checkOptions,
  type DeviceOption,
  type DispatchEvent,
  type GeometryArray,
  type ProgressOption,
  ProgressReporter,
} from '@geoframe/core';
import type { GeoSeries } from '../geo-series.js';
import { CostAllocationRaster } from '../raster/cost-allocation-raster.js';
import { type CostFrame, type CostRaster, type CostSources, costFrame, costSources } from './cost-sources.js';
import { dispatchOperation } from './dispatch-operation.js';
import { costAllocationEngines } from './engines.js';

/** Options of `costAllocation` on a point GeoSeries or GeoDataFrame. */
export interface CostAllocationOptions {
  /** The cost raster: per cell, cost per unit length ('cost') or stiffness ('compliance'); NaN = barrier. */
  cost: CostRaster;
  /** 4, 8 (default) or 16 in 2D; 6, 18 or 26 (default) in 3D. */
  connectivity?: CostConnectivity;
  /** 'cost' (default): step length × mean of the two cells' values; 'compliance': × mean of their inverses. */
  metric?: CostMetric;
  /** Cells whose accumulated cost would exceed this stay unreached (label −1). */
  maxCost?: number;
  /** Also compute backlinks (needed by `leastCostPath`, which computes them when absent). */
  backlink?: boolean;
  /** 'auto' (default), 'gpu' or 'cpu'. */
  device?: DeviceOption;
  /**
   * Hears progress on long runs (stage 'settle': cells settled, counted by the CPU run as it goes;
   * a GPU run reports its start and end): a callback or `{callback, delayMs, intervalMs}`.
   */
  onProgress?: ProgressOption;
  /** Hears this call's dispatch events only (the decision, then a fallback if one happens). */
  onDispatch?: (event: DispatchEvent) => void;
}

/** What {@link prepareCostAllocation} checked and derived. */
export interface PreparedCostAllocation {
  problem: CostGridProblem;
  frame: CostFrame;
  sources: CostSources;
}

/** The keys of {@link CostAllocationOptions}: anything else is refused. */
const COST_OPTION_KEYS = [
  'cost',
  'connectivity',
  'metric',
  'maxCost',
  'backlink',
  'device',
  'onProgress',
  'onDispatch',
] as const;

/**
 * The checks of `costAllocation`, before anything is planned or run (`explain` calls it too):
 * the raster's shape and values, the connectivity for its dimension, the metric, maxCost, and
 * the sources (see `costSources`: each names its row).
 */
export function prepareCostAllocation(
  array: GeometryArray,
  options: CostAllocationOptions,
): PreparedCostAllocation {
  if (options === null || typeof options !== 'object' || options.cost === undefined) {
    throw new CostGridError('costAllocation needs options {cost: raster, …}');
  }
  checkOptions(options, COST_OPTION_KEYS, 'costAllocation');
  const frame = costFrame(options.cost);
  const sources = costSources(array, frame);
  const problem: CostGridProblem = {
    values: frame.values,
    dims: frame.dims,
    spacing: frame.spacing,
    sources: sources.cells,
    connectivity: options.connectivity ?? (frame.dimensions === 2 ? 8 : 26),
    metric: options.metric ?? 'cost',
    ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
  };
  checkCostGridProblem(problem);
  return { problem, frame, sources };
}

/**
 * Cost allocation of a point column over a cost raster: validates (see
 * {@link prepareCostAllocation}), plans with the dispatcher (kernel 'costAllocation', size =
 * cells), runs on the GPU or the CPU — a recoverable GPU failure under 'auto' falls back to the
 * CPU with a `fallback` event — and maps source ids to input rows. `wrapCells` is how the
 * result's `toPolygons` wraps its cells (a frame keeps its columns).
 */
export async function computeCostAllocation<Cells = GeoSeries>(
  array: GeometryArray,
  options: CostAllocationOptions,
  toSeries: (array: GeometryArray) => GeoSeries,
  wrapCells?: (cells: GeoSeries) => Cells,
): Promise<CostAllocationRaster<Cells>> {
  const { problem, frame, sources } = prepareCostAllocation(array, options);
  const device = options.device ?? 'auto';
  const backlink = options.backlink === true;
  const cells = problem.values.length;
  const progress = new ProgressReporter('costAllocation', options.onProgress, [
    { name: 'settle', weight: 1, unit: 'cells' },
  ]);
  progress.stage('settle', cells);
  const onProgress = progress.active ? (fraction: number) => progress.advance(fraction * cells) : undefined;
  const { value: result, decision } = await dispatchOperation(
    'costAllocation',
    problem.values.length,
    device,
    costAllocationEngines(problem, { backlink, onProgress }),
    options.onDispatch,
  );
  const path = decision.path;
  // source ids → input rows, in place (the array is this call's own)
  const labels = result.labels;
  for (let p = 0; p < labels.length; p++) if (labels[p] >= 0) labels[p] = sources.rows[labels[p]];
  progress.finish();
  return new CostAllocationRaster({
    labels,
    cost: result.cost,
    backlink: result.backlink ?? null,
    problem,
    frame,
    sources,
    path,
    rowCount: array.length,
    crs: array.crs,
    toSeries,
    wrapCells,
  });
}
