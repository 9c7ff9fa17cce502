import {
  type Box,
  type CostAllocation,
  type CostGridProblem,
  type CvtIteration,
  type CvtRasterProblem,
  type CvtRun,
  type DeviceOption,
  type DispatchEvent,
  GeoframeError,
  type GpuRunReport,
  isRecoverableGpuError,
  type RasterGrid,
  type RasterMode,
} from '@geoframe/core';
import {
  availableThreads,
  type CellSource,
  costAllocationCpu,
  cvtRasterCpu,
  delaunay,
  type LineBuffers,
  type MomentSource,
  type PolygonBuffers,
  preparedFloat32Array,
  preparedFloat64Array,
  preparedInt32Array,
  type RasterStats,
  type RobustTriangulation,
  type SourcedMoments,
  type Triangulation,
  triangulateOrdered,
  triangulatePresortedParallel,
  voronoiCells,
  voronoiCellsParallel,
  voronoiEdges,
  voronoiRasterCpu,
  type WorkProgress,
} from '@geoframe/cpu';
import {
  type CpuStages,
  type CpuTriangulation,
  costAllocationGpu,
  cvtCellMomentsGpu,
  cvtRasterGpu,
  DevicePolygons,
  delaunayGpu,
  getGpuContext,
  voronoiCellsGpu,
  voronoiCellsGpuOnDevice,
  voronoiEdgesGpu,
  voronoiRasterGpu,
  warmUpVoronoi,
} from '@geoframe/gpu';

import type { HostLaps } from '../voronoi/host-laps.js';
import { copyRings, expandRings, withoutRepeatedPointsParallel } from '../voronoi/output-check.js';
import { keptCellsMayRepeat, voronoiCellsGpuMayRepeat } from '../voronoi/sites-may-repeat.js';
import { type EnginePair, stickyDispatch } from './dispatch-operation.js';

// The one module where the GPU and CPU engines meet (adr/0001, adr/0019): the GPU pipelines get
// their CPU stages from here, and every dispatched operation plans and runs through here.

/** Fewest sites for which the CPU Delaunay stage splits its exact verification over threads. */
export const PARALLEL_DELAUNAY_FROM = 200_000;

function plain(tri: RobustTriangulation): CpuTriangulation {
  return { triangles: tri.triangles, halfedges: tri.halfedges, flips: tri.flips };
}

/**
 * The CPU Delaunay stage the GPU pipeline hands off to: delaunator on the sites in their given
 * (curve) order, verified and repaired with exact predicates (adr/0004), keeping their numbering;
 * the verification's float filter on worker threads from `parallelFrom` sites. Null when there is
 * no triangle (fewer than three sites, or all collinear, decided exactly).
 */
export async function cpuDelaunayStage(
  sites: Float64Array,
  parallelFrom = PARALLEL_DELAUNAY_FROM,
): Promise<CpuTriangulation | null> {
  const threads = sites.length >> 1 >= parallelFrom ? await availableThreads() : 1;
  if (threads < 2) {
    const ordered = triangulateOrdered(sites, false);
    return ordered === null ? null : plain(ordered.tri);
  }
  const tri = await triangulatePresortedParallel(sites, threads);
  return tri === null ? null : plain(tri);
}

/** The CPU engine's stages, as the GPU pipelines take them. */
export const CPU_STAGES: CpuStages = {
  delaunay: (sites) => cpuDelaunayStage(sites),
  voronoiCells,
  voronoiEdges,
  outputArray: preparedFloat64Array,
  expandRings,
  copyRings,
};

/**
 * The options the GPU pipelines get from geo: the CPU stages, and a stage fallback reported to
 * the dispatcher (one `fallback` event naming the stage).
 */
export function gpuStages(report: GpuRunReport): {
  cpu: CpuStages;
  onFallback: (stage: string, reason: string) => void;
} {
  return { cpu: CPU_STAGES, onFallback: (stage, reason) => report.stageFallback(stage, reason) };
}

/**
 * The warm-up of the Voronoi and Delaunay paths (one for both: they share the exact star
 * kernels, whose first compilation on a cold driver cache takes tens of seconds).
 */
const VORONOI_WARM_UP: NonNullable<EnginePair<unknown>['warmUp']> = {
  name: 'voronoi',
  run: (ctx) => warmUpVoronoi(ctx, { cpu: CPU_STAGES }),
};

/**
 * Voronoi cells of unique sites clipped to `box`: the GPU pipeline, or the CPU on worker threads
 * (`onProgress` hears the CPU's share done; `laps` times the host passes for the walltime bench).
 */
export function voronoiCellEngines(
  xy: Float64Array,
  box: Box,
  laps?: HostLaps,
  onProgress?: WorkProgress,
  distinct?: () => Promise<Float64Array>,
): EnginePair<PolygonBuffers> {
  return {
    // the GPU's emit drops repeated points already; the pass finds none and checks the rings
    gpu: async (ctx, report) => {
      // `distinct`: the sites may repeat, the GPU checks them (adr/0015)
      const { cells, stats } = distinct
        ? await voronoiCellsGpuMayRepeat(ctx, xy, box, gpuStages(report), distinct)
        : await voronoiCellsGpu(ctx, xy, box, gpuStages(report));
      laps?.lap('planned, GPU pipeline');
      laps?.parts(stats.stages);
      const rings = await withoutRepeatedPointsParallel(cells);
      laps?.lap('repeated points (workers)');
      return rings;
    },
    // on the CPU, worker threads write the rings of large diagrams (output identical to voronoiCells')
    cpu: async () => voronoiCellsParallel(distinct ? await distinct() : xy, box, { onProgress }),
    warmUp: VORONOI_WARM_UP,
  };
}

/**
 * Voronoi cells kept on the device (adr/0032): the GPU pipeline's; where the GPU declines (a
 * precision guard, under 'gpu' too), the CPU's cells put on the device.
 */
export function voronoiCellDeviceEngines(
  xy: Float64Array,
  box: Box,
  distinct?: () => Promise<Float64Array>,
): EnginePair<DevicePolygons> {
  return {
    gpu: async (ctx, report) =>
      (distinct
        ? await keptCellsMayRepeat(ctx, xy, box, gpuStages(report), distinct)
        : await voronoiCellsGpuOnDevice(ctx, xy, box, gpuStages(report))
      ).cells,
    cpu: async () => {
      const cells = await voronoiCellsParallel(distinct ? await distinct() : xy, box);
      return DevicePolygons.fromHost(await getGpuContext(), cells.coords, cells.ringOffsets);
    },
    warmUp: VORONOI_WARM_UP,
  };
}

/** Voronoi edges of unique sites clipped to `box` (`onProgress` hears the CPU's share done). */
export function voronoiEdgeEngines(
  xy: Float64Array,
  box: Box,
  onProgress?: WorkProgress,
): EnginePair<LineBuffers> {
  return {
    gpu: async (ctx, report) => (await voronoiEdgesGpu(ctx, xy, box, gpuStages(report))).edges,
    cpu: () => voronoiEdges(xy, box, onProgress),
    warmUp: VORONOI_WARM_UP,
  };
}

/**
 * The Delaunay triangulation of unique sites: the GPU's stars (the CPU's exact triangulation
 * where they cannot be certified, reported as a stage fallback), or the CPU's (`onProgress` hears
 * the CPU's share done).
 */
export function delaunayEngines(xy: Float64Array, onProgress?: WorkProgress): EnginePair<Triangulation> {
  return {
    gpu: async (ctx, report) => {
      const out = await delaunayGpu(ctx, xy, { cpuDelaunay: (sites) => cpuDelaunayStage(sites) });
      if (out === null) {
        report.stageFallback(
          'delaunay',
          'no triangle (fewer than 3 sites, or all collinear): the CPU answered',
        );
        return delaunay(xy);
      }
      if (out.stats.path === 'cpu') {
        report.stageFallback('delaunay', `${out.stats.fallbackReason}: the CPU triangulated (exact)`);
      }
      return { ...out, hull: new Uint32Array(0) };
    },
    cpu: () => delaunay(xy, onProgress),
    warmUp: VORONOI_WARM_UP,
  };
}

/** What a raster run gives, on either engine. */
export interface RasterRun {
  labels: Int32Array;
  distance?: Float32Array | null;
  stats: RasterStats;
}

/**
 * The raster Voronoi diagram of `sites` (stride `dims`) on `grid`, labelled with `rows[site]`
 * (the input rows, ascending): on the GPU by its last pass, on the CPU afterwards; nothing to do
 * where every row is a site.
 */
export function rasterEngines(
  sites: Float64Array,
  dims: 2 | 3,
  grid: RasterGrid,
  run: { mode: RasterMode; distance?: boolean; coarseLevel?: number },
  rows: Int32Array,
): EnginePair<RasterRun> {
  const identity = rows.length === 0 || rows[rows.length - 1] === rows.length - 1;
  return {
    gpu: async (ctx) => {
      const labelOf = identity ? undefined : rows;
      const resultArrays = { labels: preparedInt32Array, distance: preparedFloat32Array };
      const { labels, distance, stats } = await voronoiRasterGpu(ctx, sites, dims, grid, {
        ...run,
        labelOf,
        resultArrays,
      });
      return { labels, distance, stats: { passes: stats.passes, processed: stats.pixelsProcessed } };
    },
    cpu: async () => {
      const out = await voronoiRasterCpu(sites, dims, grid, run);
      const labels = out.labels;
      if (!identity) for (let p = 0; p < labels.length; p++) if (labels[p] >= 0) labels[p] = rows[labels[p]];
      return out;
    },
  };
}

/** Cost allocation on a grid: the GPU's tiled relaxation, or the CPU's multi-source Dijkstra. */
export function costAllocationEngines(
  problem: CostGridProblem,
  run: { backlink: boolean; onProgress?: (fraction: number) => void },
): EnginePair<CostAllocation> {
  return {
    gpu: (ctx) =>
      costAllocationGpu(ctx, problem, { backlink: run.backlink, outputArray: preparedFloat64Array }),
    cpu: () => costAllocationCpu(problem, { backlink: run.backlink, onProgress: run.onProgress }),
  };
}

/**
 * The raster CVT (kernel 'centroidalVoronoi', rows = pixels): the GPU engine, or the CPU's. Any
 * failure of the GPU engine that is not already a typed GPU error becomes a GPU decline, so that
 * 'auto' answers it on the CPU with a fallback event naming it (adr/0027).
 */
export function cvtRasterEngines(
  problem: CvtRasterProblem,
  onIteration?: (step: CvtIteration) => void,
): EnginePair<CvtRun> {
  return {
    gpu: async (ctx) => {
      try {
        return await cvtRasterGpu(ctx, problem, { onIteration });
      } catch (error) {
        if (isRecoverableGpuError(error)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new GeoframeError('GPU_DECLINED', `the GPU raster CVT failed: ${message}`, { cause: error });
      }
    },
    cpu: () => cvtRasterCpu(problem, { onIteration }),
  };
}

/**
 * The exact CVT's cell source: Voronoi cells through the dispatcher (kernel 'voronoiPolygons',
 * GPU or CPU). The first evaluation plans and emits its decision to `listener`; once a run is
 * on the CPU it stays there without further events, and a GPU run reports only fallbacks.
 */
export function cvtCellSource(device: DeviceOption, listener?: (event: DispatchEvent) => void): CellSource {
  const dispatch = stickyDispatch<PolygonBuffers>(device, listener);
  return (xy, box) => dispatch(xy.length >> 1, voronoiCellEngines(xy, box));
}

/**
 * The exact CVT's uniform-density moments, dispatched as {@link cvtCellSource} is: on the GPU the
 * cells stay on the device and only their moments come back, with the rings of the cells the
 * region's boundary may reach (adr/0027); on the CPU, every cell for the host to integrate.
 */
export function cvtMomentSource(
  device: DeviceOption,
  listener?: (event: DispatchEvent) => void,
): MomentSource {
  const dispatch = stickyDispatch<SourcedMoments>(device, listener);
  return (xy, box, interior, raw) =>
    dispatch(xy.length >> 1, {
      gpu: async (ctx, report) => {
        const { cells } = await voronoiCellsGpuOnDevice(ctx, xy, box, gpuStages(report));
        try {
          return await cvtCellMomentsGpu(cells, xy, interior, raw);
        } finally {
          cells.destroy();
        }
      },
      cpu: async () => ({ raw: null, hostRows: null, hostCells: await voronoiCellsParallel(xy, box) }),
    });
}
