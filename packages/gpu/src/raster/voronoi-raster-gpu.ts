import type { RasterGrid, RasterLabels } from '@geoframe/core';
import { GpuValidationError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { GpuProfiler } from '../runtime/profiler.js';
import { runExclusive } from '../runtime/run-queue.js';
import { type PendingRead, submitForRead } from '../runtime/staging.js';
import { bucketSites } from './exact-buckets.js';
import { TIE_CANDIDATES } from './exact-gpu-kernels.js';
import { HostSpans } from './host-spans.js';
import { redecideFromCandidates, redecideNearTies } from './near-ties-cpu.js';
import { type RasterGpuOptions, type RasterGpuStats, RasterPlan, TIE_PREFIX } from './raster-plan.js';

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
    let counts: Uint32Array | null = null;
    let tieCount = 0;
    let listed = 0;
    let unique = 0;
    let ties: Uint32Array = new Uint32Array(0);
    let candidateCount: Uint32Array = new Uint32Array(0);
    let candidates: Uint32Array = new Uint32Array(0);
    const waited = performance.now();
    const reading = pending!.read((range, offsets) => {
      parts.forEach((part, k) => {
        const words = new Uint32Array(range, offsets[k], part.bytes / 4);
        if (part.kind === 'labels') labels.set(new Int32Array(range, offsets[k], pixels));
        else if (part.kind === 'distance') distance!.set(new Float32Array(range, offsets[k], pixels));
        else if (part.kind === 'counts') counts = words.slice();
        else if (part.kind === 'tie-count') {
          tieCount = Math.min(words[0], pixels);
          listed = Math.min(tieCount, TIE_PREFIX);
        } else if (part.kind === 'ties') ties = words.slice(0, listed);
        else if (part.kind === 'candidate-count') candidateCount = words.slice(0, listed);
        else if (part.kind === 'candidates') candidates = words.slice(0, listed * TIE_CANDIDATES);
        else unique = words[0];
      });
    });
    const read = await reading.catch(async (cause) => {
      await validated();
      throw cause;
    });
    await validated();
    spans.add('wait for the GPU', performance.now() - waited - read.copyMs);
    spans.add('copy out', read.copyMs);
    spans.restart();
    const profile = options.profiler ? await options.profiler.profile() : null;
    const stats = plan.statsOf(counts);
    if (profile) {
      stats.kernelMs = profile.totalMs;
      stats.kernelPasses = profile.passes.map((p) => ({ name: p.name, ms: p.ms }));
    }
    if (plan.exact) {
      stats.sitesUsed = unique;
      stats.nearTies = tieCount;
      const out = { labels, distance, labelOf: options.labelOf };
      const overflow: number[] = [];
      let changed = redecideFromCandidates(
        plan.setup,
        sites,
        ties,
        candidateCount,
        candidates,
        TIE_CANDIDATES,
        out,
        overflow,
      );
      // near-ties past the listed prefix, or with more candidates than listed: host buckets (rare)
      if (tieCount > listed) for (const p of (await plan.readNearTies()).subarray(listed)) overflow.push(p);
      if (overflow.length > 0) {
        const buckets = bucketSites(plan.setup, sites);
        const rest = Uint32Array.from(overflow);
        changed += redecideNearTies(plan.setup, sites, buckets, rest, labels, distance, options.labelOf);
      }
      stats.nearTiesChanged = changed;
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
