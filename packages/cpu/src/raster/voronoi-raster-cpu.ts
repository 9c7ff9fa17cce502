import { RASTER_MODES, type RasterGrid, type RasterLabels, type RasterMode } from '@geoframe/core';
import { exactRaster } from './exact-raster.js';
import { facetJumpFlood, levelOf } from './facet-jfa.js';
import { jumpFlood, jumpFloodSteps } from './jump-flood.js';
import { rasterDistance } from './raster-distance.js';
import { rasterFrame, sitePixels } from './raster-frame.js';
import { seedLevel, sitePixelIndices } from './seed-raster.js';

/** Options of {@link voronoiRasterCpu}. */
export interface VoronoiRasterCpuOptions {
  mode: RasterMode;
  /** Also return the distance from each pixel centre to its site (coordinate units, f32). */
  distance?: boolean;
  /** Facet-JFA only: the coarse level p (blocks of 2^p pixels per side); automatic when absent. */
  coarseLevel?: number;
}

/** Work counters: passes over the grid (or a level of it) and pixel visits summed over them. */
export interface RasterStats {
  passes: number;
  processed: number;
}

/**
 * The raster Voronoi diagram on the CPU: labels every pixel (voxel) of `grid` with the index of a
 * site of `sites` (interleaved, `dims` = 2: x, y; 3: x, y, z), −1 where there is none. The grid
 * convention is {@link RasterGrid}'s (row 0 at the top, centres at half-pixel offsets).
 *
 * Modes:
 * - `'exact'`: the site nearest to the pixel centre in f64, ties to the lower index, over every
 *   finite site (inside the bounds or not); a ring search over a uniform grid of site buckets.
 * - `'jfa'`: jump flooding (Rong & Tan), gather style: passes with step k = N/2, N/4, …, 1
 *   (N = the next power of two ≥ max(width, height[, depth])); each pixel reads the labels of
 *   itself and its 8 (3D: 26) neighbours at ±k from the previous buffer and keeps the nearest
 *   site. `'jfa+1'` adds one step-1 pass at the end, `'1+jfa'` one at the start.
 * - `'facet-jfa'`: JFA on a coarse grid, then per finer level one step-1 refinement of the
 *   pixels not yet marked interior (see `facetJumpFlood` for exactly what runs); `coarseLevel`
 *   overrides the automatic coarsest collision-free level.
 *
 * Seeding (JFA family): a site seeds the pixel containing it, col = floor((x − xmin)/pixelWidth),
 * row = floor((ymax − y)/pixelHeight), slice = floor((z − zmin)/pixelDepth), clamped into the grid;
 * sites outside the bounds seed nothing. Several sites in one pixel: the one nearest to the pixel
 * centre wins, ties to the lower index. Candidates are compared by the squared distance from the
 * pixel centre to the site in f32 "pixel units" (one unit = one pixel width on every axis, every
 * operation rounded to f32 — see `RasterFrame`), ties to the lower index. No seeded site: all −1.
 *
 * `distance`: the Euclidean distance in coordinate units from each pixel centre to its labelled
 * site (+∞ where −1). `stats.processed` counts pixel visits over all passes (Facet-JFA visits
 * only unmarked pixels), `stats.passes` the passes ('exact': one).
 *
 * @throws RangeError for a bad grid (non-integer or non-positive sizes, bounds not finite or
 *   empty, bounds not matching `dims`), an unknown mode, or a `coarseLevel` out of range.
 */
export function voronoiRasterCpu(
  sites: Float64Array,
  dims: 2 | 3,
  grid: RasterGrid,
  options: VoronoiRasterCpuOptions,
): RasterLabels & { stats: RasterStats } {
  const frame = rasterFrame(dims, grid);
  const mode = options.mode;
  if (!RASTER_MODES.includes(mode)) {
    throw new RangeError(
      `raster mode must be one of ${RASTER_MODES.join(', ')}, got ${JSON.stringify(mode)}`,
    );
  }
  let labels: Int32Array;
  let stats: RasterStats;
  if (mode === 'exact') {
    labels = exactRaster(sites, frame);
    stats = { passes: 1, processed: labels.length };
  } else {
    const px = sitePixels(sites, frame);
    const pixelOfSite = sitePixelIndices(sites, frame);
    if (mode === 'facet-jfa') {
      const run = facetJumpFlood(pixelOfSite, frame, px, options.coarseLevel);
      labels = run.labels;
      stats = { passes: run.passes, processed: run.processed };
    } else {
      const level = levelOf(frame, 1);
      const seeds = seedLevel(pixelOfSite, frame, px, level.centres, 1, level.nx, level.ny, level.nz);
      const steps = jumpFloodSteps(mode, level);
      const run = jumpFlood(seeds, level, px, steps);
      labels = run.labels;
      stats = { passes: steps.length, processed: run.processed };
    }
  }
  const result: RasterLabels & { stats: RasterStats } = { labels, stats };
  if (options.distance) result.distance = rasterDistance(sites, frame, labels);
  return result;
}
