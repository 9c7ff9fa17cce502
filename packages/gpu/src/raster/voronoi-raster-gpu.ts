import type { RasterGrid, RasterLabels } from '@geoframe/core';
import { GpuValidationError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { runExclusive } from '../runtime/run-queue.js';
import { type PendingRead, submitForRead } from '../runtime/staging.js';
import { HostSpans } from './host-spans.js';
import { type RasterGpuOptions, type RasterGpuStats, RasterPlan } from './raster-plan.js';
import { copyResults, redecideExact } from './raster-results.js';

/** Options of {@link voronoiRasterGpu}. */
export interface VoronoiRasterGpuOptions extends RasterGpuOptions {
  /** Times the computation's own compute passes (its round is resolved and read here); `stats.kernelMs`. */
  profiler?: GpuProfiler;
  /**
   * Where the labels (and distances) are copied to: arrays of the given length whose pages are
   * already mapped, e.g. touched by worker threads while this thread prepares and the GPU works
   * (`preparedInt32Array` of @geoframe/cpu). A fresh 64 MiB array costs more in page faults than
   * in the copy (34 against 11 ms on the H200 host). Default: arrays touched here while the GPU works.
   */
  resultArrays?: {
    labels(length: number): Promise<Int32Array>;
    distance(length: number): Promise<Float32Array>;
  };
}

/**
 * The raster (discrete) Voronoi diagram of `sites` on the GPU: per pixel (voxel) of `grid`, the
 * index of the site nearest to its centre (raster convention of `RasterGrid`: row 0 at the top,
 * `labels[(slice·height + row)·width + col]`), −1 where there is none.
 *
 * `sites` are interleaved with stride `dims` (2: x, y; 3: x, y, z with 3D bounds). Modes:
 * - 'jfa': gather-style jump flooding, steps N/2 … 1 (N: the next power of two ≥ the largest grid
 *   side), 9 neighbours in 2D, 27 in 3D; 'jfa+1' adds a step-1 pass, '1+jfa' runs one first.
 *   Seeding: a site inside the bounds seeds the pixel containing it (the one nearest to the
 *   pixel centre when several do, ties to the lower index); sites outside the bounds seed nothing.
 *   Candidates compare by squared f32 distance in scaled pixel units, ties to the lower index.
 * - 'facet-jfa': JFA on the coarsest 2^p grid where no two sites collide (`coarseLevel`
 *   overrides p), then per finer level: upsample, refine only the unmarked pixels (the children
 *   of the coarser level's boundary pixels, listed as they are found, launched by indirect
 *   dispatch) with one step-1 pass, mark pixels whose neighbours all share their label.
 *   Approximate like JFA; `stats.pixelsProcessed` shows the work.
 *
 * In 2D, the JFA passes during which neighbouring pixels hold unrelated sites carry each pixel's
 * site position next to its label (`carryPositions`), which changes their speed, not their labels.
 * - 'exact': nearest site over all sites (also outside the bounds) by a ring search over site
 *   buckets in f32 with a conservative error bound; pixels whose two best candidates are within
 *   it are re-decided on the CPU in f64 (`stats.nearTies`), so the labels equal an f64 brute force
 *   of `dx² + dy² (+ dz²)` from the documented pixel centres, ties to the lower index.
 *
 * `distance`: the Euclidean distance from each pixel centre to its labelled site in coordinate
 * units (f32; +∞ where the label is −1). 0 sites give all −1.
 *
 * @throws RangeError for a bad grid, sites or options, or a grid whose labels exceed one storage
 *   binding of the device; GpuOutOfMemoryError, GpuValidationError, GpuDeviceLostError.
 */
async function voronoiRasterGpuAlone(
  ctx: GpuContext,
  sites: Float64Array,
  dims: 2 | 3,
  grid: RasterGrid,
  options: VoronoiRasterGpuOptions,
): Promise<RasterLabels & { stats: RasterGpuStats }> {
  const spans = new HostSpans();
  // the result arrays are prepared meanwhile (elsewhere: worker threads), when the grid is sane
  const pixelCount = grid.width * grid.height * grid.depth;
  const arrays =
    options.resultArrays && Number.isSafeInteger(pixelCount) && pixelCount > 0 && pixelCount < 2 ** 31
      ? {
          labels: options.resultArrays.labels(pixelCount),
          distance: options.distance ? options.resultArrays.distance(pixelCount) : null,
        }
      : null;
  const plan = await RasterPlan.create(ctx, sites, dims, grid, options, spans);
  try {
    const device = ctx.device;
    device.pushErrorScope('validation');
    let thrown: unknown;
    let pending: PendingRead | null = null;
    const parts = plan.resultParts();
    try {
      const encoder = device.createCommandEncoder({ label: `raster ${options.mode}` });
      await plan.encode(encoder, options.profiler);
      options.profiler?.resolve(encoder);
      // the results come back with the run's own submission, through reused staging: one mapping
      pending = await submitForRead(ctx, encoder, 'raster/results', parts);
    } catch (error) {
      thrown = error;
    }
    // awaited after the mapping, not before it: no extra round trip before the wait
    const scope = device.popErrorScope();
    const validated = async () => {
      const error = await scope;
      if (error) throw new GpuValidationError(`raster ${options.mode}`, error.message);
    };
    if (thrown) {
      await validated();
      throw thrown;
    }
    spans.lap('record + submit');
    const pixels = plan.setup.pixels;
    // the result arrays' pages are faulted in before the copy (here: while the GPU works): a
    // fresh 64 MiB array costs more in page faults than in copying
    const labels = arrays ? await arrays.labels : touched(new Int32Array(pixels));
    const distance = plan.distance
      ? ((await arrays?.distance) ?? touched(new Float32Array(pixels)))
      : undefined;
    spans.lap('result arrays');
    const waited = performance.now();
    const reading = pending!.read((range, offsets) =>
      copyResults(parts, range, offsets, { labels, distance }),
    );
    const read = await reading.catch(async (cause) => {
      await validated();
      throw cause;
    });
    await validated();
    spans.add('wait for the GPU', performance.now() - waited - read.copyMs);
    spans.add('copy out', read.copyMs);
    spans.restart();
    const profile = options.profiler ? await options.profiler.profile() : null;
    const readback = read.value;
    const stats = plan.statsOf(readback.counts);
    if (profile) {
      stats.kernelMs = profile.totalMs;
      stats.kernelPasses = profile.passes.map((p) => ({ name: p.name, ms: p.ms }));
    }
    if (plan.exact) {
      stats.sitesUsed = readback.unique;
      stats.nearTies = readback.tieCount;
      const out = { labels, distance, labelOf: options.labelOf };
      stats.nearTiesChanged = await redecideExact(plan, sites, readback, out);
      spans.lap('near-ties in f64');
    } else if (plan.mode === 'exact') {
      Object.assign(stats, { sitesUsed: 0, nearTies: 0, nearTiesChanged: 0 });
    }
    stats.hostSpans = spans.list();
    return distance ? { labels, distance, stats } : { labels, stats };
  } finally {
    plan.destroy();
  }
}

/** `array` with every page written once (faulted in), so that a later copy into it only copies. */
function touched<T extends Int32Array | Float32Array>(array: T): T {
  // one write per 4 KiB page is enough; the values are overwritten by the copy
  for (let i = 0; i < array.length; i += 1024) array[i] = 0;
  return array;
}

/**
 * {@link voronoiRasterGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function voronoiRasterGpu(
  ...args: Parameters<typeof voronoiRasterGpuAlone>
): ReturnType<typeof voronoiRasterGpuAlone> {
  return runExclusive(args[0], () => voronoiRasterGpuAlone(...args));
}
