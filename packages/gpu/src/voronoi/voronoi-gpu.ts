import type { Box } from '@geoframe/core';
import {
  type DelaunayStage,
  emptyLines,
  emptyPolygons,
  type LineBuffers,
  type PolygonBuffers,
} from '../delaunay/delaunay-stage.js';
import { DevicePolygons } from '../resident/device-polygons.js';
import { GpuOutOfMemoryError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { MemoryScope } from '../runtime/memory-scope.js';
import { runExclusive } from '../runtime/run-queue.js';
import { cellsStage } from './cell-stage.js';
import { edgesStage } from './edge-stage.js';
import { keptCellsStage } from './kept-cell-stage.js';
import { PipelineRun } from './pipeline-run.js';
import type { PreparedSites, VoronoiGpuOptions, VoronoiGpuStats } from './voronoi-options.js';

export type {
  CellsOutput,
  PreparedSites,
  StageTime,
  VoronoiGpuOptions,
  VoronoiGpuStats,
} from './voronoi-options.js';
export { cellsOutput } from './voronoi-options.js';

/**
 * The Voronoi cell of every site, clipped to `box`, computed by the GPU pipeline: the same
 * contract and output layout as the CPU's `voronoiCells` (one closed counter-clockwise ring per
 * site, in site order, starting at its lowest vertex; GEOS semantics). Stages:
 *
 * 1. Hilbert order of the sites (GPU keys and radix sort).
 * 2. Delaunay triangulation of the ordered sites: the GPU's per-site stars (or the CPU's exact one,
 *    see {@link DelaunayStage}).
 * 3. Circumcentres: exact rationals rounded to the fixed-point grid, one thread per triangle.
 * 4. Cells by count–scan–scatter: per site its fan is walked once to size a scratch slot
 *    (scan), then walked again to write the ring there — simple cells copy their circumcentres,
 *    cells on the hull or crossing the box clip each bisector exactly against the box — and
 *    finished (merged duplicates, exact convexity); ring lengths are scanned in the caller's order.
 * 5. Emit: each ring is converted to f64 (a point equal to the one before it dropped, as counted
 *    with the ring lengths) and written to its final place, rotated and closed, in
 *    the same submission as stage 4 (into an output sized by a guess, emitted again at the exact
 *    size in the rare case it is too small), and the ring offsets and coordinates come back in
 *    one readback.
 *
 * Inputs with no triangle (0–2 sites, all collinear) are answered by the CPU's `voronoiCells`
 * (nothing to parallelise). Same preconditions as `voronoiCells`: unique finite sites, a box
 * containing them with positive width and height when there are two or more.
 */
async function voronoiCellsGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: VoronoiGpuOptions = {},
): Promise<{ cells: PolygonBuffers; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, sites, options);
  const n = run.stats.sites;
  if (n === 0) return { cells: emptyPolygons(), stats: run.stats };
  if (n < 3) return { cells: run.withoutTriangles('cells').voronoiCells(sites, box), stats: run.stats };
  return withDeviceErrors(
    ctx,
    'voronoiCellsGpu',
    async (scope) => {
      run.scope = scope;
      const prepared = await run.prepare(box, true);
      if (prepared === null) {
        return { cells: run.withoutTriangles('cells').voronoiCells(sites, box), stats: run.stats };
      }
      return { cells: await cellsStage(run, await run.frontStages(prepared)), stats: run.stats };
    },
    () => run.lap('device error scope'),
  );
}

/**
 * {@link voronoiCellsGpuAlone} with the cells left on the device (adr/0032): the same cells, in
 * the same rows, as device-resident polygons the caller owns (`destroy()` frees them). Inputs with
 * no triangle are answered by the CPU and put on the device. As on the host path, no ring
 * repeats a point (the emit drops a point equal in f64 to the one before it).
 */
async function voronoiCellsGpuOnDeviceAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: VoronoiGpuOptions = {},
): Promise<{ cells: DevicePolygons; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, sites, options);
  const n = run.stats.sites;
  const fromCpu = async () => {
    const cells = n === 0 ? emptyPolygons() : run.withoutTriangles('cells').voronoiCells(sites, box);
    return { cells: await DevicePolygons.fromHost(ctx, cells.coords, cells.ringOffsets), stats: run.stats };
  };
  if (n < 3) return fromCpu();
  return withDeviceErrors(
    ctx,
    'voronoiCellsGpu (kept on the device)',
    async (scope) => {
      run.scope = scope;
      const prepared = await run.prepare(box);
      if (prepared === null) return fromCpu();
      return { cells: await keptCellsStage(run, await run.frontStages(prepared)), stats: run.stats };
    },
    () => run.lap('device error scope'),
  );
}

/**
 * {@link voronoiCellsGpuOnDeviceAlone}, queued on the context with its other runs (one at a time,
 * see `runExclusive`).
 */
export function voronoiCellsGpuOnDevice(
  ...args: Parameters<typeof voronoiCellsGpuOnDeviceAlone>
): ReturnType<typeof voronoiCellsGpuOnDeviceAlone> {
  return runExclusive(args[0], () => voronoiCellsGpuOnDeviceAlone(...args));
}

/**
 * Runs `work` inside an `out-of-memory` error scope: an allocation the device could not make
 * becomes a {@link GpuOutOfMemoryError} (which `'auto'` dispatch answers with the CPU) instead of
 * an uncaptured error and a later failure elsewhere. `work` may close the scope after its last
 * device call (and reopen it), so its verdict comes while the GPU finishes.
 */
async function withDeviceErrors<T>(
  ctx: GpuContext,
  label: string,
  work: (scope: MemoryScope) => Promise<T>,
  checked?: () => void,
): Promise<T> {
  const scope = new MemoryScope(ctx.device);
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await work(scope) };
  } catch (error) {
    outcome = { error };
  }
  await scope.check(label);
  checked?.();
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

/**
 * Stages 1–2 of {@link voronoiCellsGpu} alone (Hilbert order on the GPU, Delaunay; the cells'
 * output array prepared meanwhile), for benchmarks that time the rest with
 * {@link voronoiCellsPrepared}. Null for collinear sites.
 */
async function prepareVoronoiSitesAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: Pick<VoronoiGpuOptions, 'cpu' | 'onFallback'> = {},
): Promise<PreparedSites | null> {
  return new PipelineRun(ctx, sites, options).prepare(box, true);
}

/**
 * Stages 3–5 of {@link voronoiCellsGpu} on prepared sites (see {@link prepareVoronoiSites}; the
 * box is the one they were prepared with).
 */
async function voronoiCellsPreparedAlone(
  ctx: GpuContext,
  prepared: PreparedSites,
  options: VoronoiGpuOptions = {},
): Promise<{ cells: PolygonBuffers; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, prepared.sites, options);
  return withDeviceErrors(ctx, 'voronoiCellsPrepared', async () => ({
    cells: await cellsStage(run, await run.frontStages(prepared)),
    stats: run.stats,
  }));
}

/**
 * Every Voronoi edge once, clipped to `box`, by the GPU pipeline: the same contract as the CPU's
 * `voronoiEdges` (edges between two cells run with the cell of the lower site index on their
 * left; edges shrinking to a point or missing the box are left out), the same stages 1–3 as
 * {@link voronoiCellsGpu}, then one thread per half-edge clips its edge exactly, a scan places
 * the visible ones and one readback brings them back.
 */
async function voronoiEdgesGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  box: Box,
  options: VoronoiGpuOptions = {},
): Promise<{ edges: LineBuffers; stats: VoronoiGpuStats }> {
  const run = new PipelineRun(ctx, sites, options);
  const n = run.stats.sites;
  if (n < 2) return { edges: emptyLines(), stats: run.stats };
  if (n < 3) return { edges: run.withoutTriangles('edges').voronoiEdges(sites, box), stats: run.stats };
  return withDeviceErrors(ctx, 'voronoiEdgesGpu', async () => {
    const prepared = await run.prepare(box);
    if (prepared === null) {
      return { edges: run.withoutTriangles('edges').voronoiEdges(sites, box), stats: run.stats };
    }
    return { edges: await edgesStage(run, await run.frontStages(prepared)), stats: run.stats };
  });
}

/**
 * {@link voronoiCellsGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiCellsGpu(
  ...args: Parameters<typeof voronoiCellsGpuAlone>
): ReturnType<typeof voronoiCellsGpuAlone> {
  return runExclusive(args[0], () => voronoiCellsGpuAlone(...args));
}

/**
 * {@link voronoiEdgesGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiEdgesGpu(
  ...args: Parameters<typeof voronoiEdgesGpuAlone>
): ReturnType<typeof voronoiEdgesGpuAlone> {
  return runExclusive(args[0], () => voronoiEdgesGpuAlone(...args));
}

/**
 * {@link voronoiCellsPreparedAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiCellsPrepared(
  ...args: Parameters<typeof voronoiCellsPreparedAlone>
): ReturnType<typeof voronoiCellsPreparedAlone> {
  return runExclusive(args[0], () => voronoiCellsPreparedAlone(...args));
}

/**
 * {@link prepareVoronoiSitesAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function prepareVoronoiSites(
  ...args: Parameters<typeof prepareVoronoiSitesAlone>
): ReturnType<typeof prepareVoronoiSitesAlone> {
  return runExclusive(args[0], () => prepareVoronoiSitesAlone(...args));
}
