import { readback } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { runExclusive } from '../runtime/run-queue.js';
import { submitAndRead } from '../runtime/staging.js';
import { type HullStage, hullStage } from './delaunay-hull-stage.js';
import type { DelaunayGpuOptions, DelaunayGpuStats, GpuDelaunayResult } from './delaunay-options.js';
import { type DelaunayRun, type GridStage, recordGrid, startRun } from './delaunay-run.js';
import { cpuStageOf, type DelaunayStage, requireCpu } from './delaunay-stage.js';
import { recordStarPasses, type StarBuffers, starBuffers } from './delaunay-star-passes.js';
import { decideGuard, type GuardInput, guardSites, recordGuard } from './guard.js';
import { GUARD_HEADER_WORDS } from './guard-kernel.js';
import { STAR_STATS_WORDS } from './star-kernels.js';
import { readStarStats } from './star-stats.js';

export type { DelaunayGpuOptions, DelaunayGpuStats, GpuDelaunayResult } from './delaunay-options.js';

/**
 * The Delaunay triangulation of `sites` on the GPU by per-site stars (ADR 0013), left in device
 * buffers: the pipeline's {@link DelaunayStage} (triangles clockwise in a y-up frame, delaunator's
 * half-edges) in this context's scratch buffers `delaunay/triangles` and `delaunay/halfedges`,
 * valid until the next call on the context.
 *
 * Sites must be unique and finite (as for the CPU's triangulation); the predicates are exact on
 * the fixed grid (ADR 0010) and cocircular ties are broken by index, so the result is a Delaunay
 * triangulation of the grid sites with every site a vertex and no flat triangle. When any star is
 * not final after the ring limit, overflows, disagrees with a neighbour, or the triangle count is
 * not 2n − 2 − h, the whole answer is the CPU's (`options.cpuDelaunay`, host arrays, stats say
 * why) unless `fallback: 'never'`, which returns the GPU buffers anyway with the failure in stats.
 *
 * Returns null when there is no triangle: fewer than 3 sites, or all collinear (exact).
 * @throws RangeError for a non-finite coordinate (naming the site).
 * Round trips: one for the hull candidates (two past 8192 of them), one for the statistics.
 */
export async function gpuDelaunayStage(
  ctx: GpuContext,
  sites: Float64Array,
  options: DelaunayGpuOptions = {},
): Promise<GpuDelaunayResult | null> {
  if (sites.length >> 1 < 3) return null;
  const run = startRun(ctx, sites, options);
  const grid = await recordGrid(run);
  const hull = await hullStage(run, grid);
  if (hull === null) return null;
  const buffers = starBuffers(run, grid, hull);
  await recordStarPasses(run, grid, hull, buffers);
  return finishStage(run, grid, hull, buffers);
}

/**
 * The guard recorded, the main submission's statistics read back, and the answer: the stars'
 * buffers, or the CPU's triangulation when a star failed (unless `fallback: 'never'`).
 */
async function finishStage(
  run: DelaunayRun,
  g: GridStage,
  hull: HullStage,
  b: StarBuffers,
): Promise<GpuDelaunayResult | null> {
  const { ctx, sites, n, options, orderOf, ordered } = run;
  const { fixed, grid, upload, guardOut, star } = g;
  const { m, h, triplesBuffer, hullStart, hullMs } = hull;
  const { encoder, pass, stats, counts, tailCount, exactArgs, nt, triangles, halfedges } = b;
  const prof = options.profiler;
  // the faithful-representation guard over the triangles touching sites the grid rounds
  const guardInput: GuardInput = {
    fixed,
    grid,
    box: options.cellsBox ?? null,
    ...(options.guard === false
      ? { xy: fixed, order: null }
      : await guardSites(
          ctx,
          sites,
          upload,
          options.input,
          options.fixed && options.order !== undefined ? orderOf : null,
        )),
  };
  const guarded = options.guard !== false;
  if (guarded)
    await recordGuard(
      ctx,
      encoder,
      { triangles, halfedges, triples: triplesBuffer, out: guardOut },
      guardInput,
      nt,
      h,
      pass('guard'),
    );
  prof?.resolve(encoder);
  // the statistics, the emitted triangle count and the guard's header in one mapping
  const words = new Uint32Array(STAR_STATS_WORDS);
  const emittedWord = new Uint32Array(1);
  const guardHeader = new Uint32Array(GUARD_HEADER_WORDS);
  const submitted = performance.now();
  await submitAndRead(ctx, encoder, 'delaunay/statistics', [
    { source: stats, target: words },
    { source: counts, sourceOffset: 4 * n, target: emittedWord },
    { source: guardOut, target: guardHeader },
  ]);
  const resultMs = performance.now() - submitted;
  const encodeMs = submitted - hullStart - hullMs;
  const emitted = emittedWord[0];
  const s = readStarStats(words);
  tailCount.destroy();
  exactArgs.destroy();

  const result: DelaunayGpuStats = {
    path: 'gpu',
    fallbackReason: null,
    sites: n,
    hullCandidates: m,
    hull: h,
    triangles: emitted,
    grid: { width: star.width, height: star.height, shift: star.shift },
    failedSites: s.failedSites,
    disagreeingSites: s.disagreeingSites,
    meanRing: s.rings / n,
    maxRing: s.maxRing,
    candidates: s.candidates,
    maxCandidates: s.maxCandidates,
    farSites: s.farSites,
    tailSites: s.tailSites,
    halfPlanes: s.halfPlanes,
    hullClips: s.hullClips,
    exactSteps: s.exactSteps,
    edits: s.edits,
    tiedSites: s.tiedSites,
    cellsVisited: s.cellsVisited,
    maxCellsVisited: s.maxCellsVisited,
    finalChecks: s.finalChecks,
    maxFinalChecks: s.maxFinalChecks,
    finalNarrowings: s.finalNarrowings,
    incircleTests: s.incircleTests,
    exactFraction: s.incircleTests > 0 ? s.undecidedTests / s.incircleTests : 0,
    hullMs,
    encodeMs,
    resultMs,
  };
  if (s.failedSites > 0) result.fallbackReason = `${s.failedSites} stars not final`;
  else if (s.disagreeingSites > 0)
    result.fallbackReason = `${s.disagreeingSites} stars disagree with a neighbour`;
  else if (emitted !== nt) result.fallbackReason = `${emitted} triangles, expected 2n - 2 - h = ${nt}`;
  result.guard = { touched: guardHeader[1], uncertain: guardHeader[0] };
  if (result.fallbackReason !== null && options.fallback !== 'never') {
    upload?.destroy();
    const triangulate =
      options.cpuDelaunay ?? requireCpu(undefined, 'delaunay on the GPU', result.fallbackReason).delaunay;
    const cpu = cpuStageOf(await triangulate(await ordered()));
    if (cpu === null) return null; // not reached: the hull said there is a triangle
    return { stage: cpu, stats: { ...result, path: 'cpu' } };
  }
  // stars that failed are answered by the CPU above, exactly: the guard speaks for the stars' own
  upload?.destroy();
  if (result.fallbackReason === null && guarded)
    await decideGuard(ctx, guardHeader, guardOut, sites, guardInput);
  return {
    stage: { triangles, halfedges, triangleCount: nt, path: 'gpu', flips: 0 },
    stats: result,
  };
}

/** A GPU Delaunay triangulation on the host: delaunator's arrays plus what happened. */
export interface DelaunayGpuOutput {
  /** Site indices, three per triangle, clockwise in a y-up frame. */
  triangles: Uint32Array;
  /** Per half-edge its twin, or −1 on the hull. */
  halfedges: Int32Array;
  stats: DelaunayGpuStats;
}

/**
 * {@link gpuDelaunayStage} with the result read back: the triangulation of `sites` (interleaved
 * xy, unique and finite; e.g. curve-ordered) in their numbering. Null when there is no triangle
 * (fewer than 3 sites or all collinear).
 */
async function delaunayGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  options: DelaunayGpuOptions = {},
): Promise<DelaunayGpuOutput | null> {
  const result = await gpuDelaunayStage(ctx, sites, options);
  if (result === null) return null;
  const { stage, stats } = result;
  if (stage.triangles instanceof Uint32Array && stage.halfedges instanceof Int32Array) {
    return { triangles: stage.triangles, halfedges: stage.halfedges, stats };
  }
  const nh = 3 * stage.triangleCount;
  const triangles = await readback(ctx, stage.triangles as GPUBuffer, new Uint32Array(nh));
  const halfedges = await readback(ctx, stage.halfedges as GPUBuffer, new Int32Array(nh));
  return { triangles, halfedges, stats };
}

/**
 * {@link delaunayGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function delaunayGpu(
  ...args: Parameters<typeof delaunayGpuAlone>
): ReturnType<typeof delaunayGpuAlone> {
  return runExclusive(args[0], () => delaunayGpuAlone(...args));
}
