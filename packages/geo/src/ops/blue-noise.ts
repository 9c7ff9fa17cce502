import { CvtError, type GeometryArray, GeometryBuilder, GeometryType } from '@geoframe/core';
import { cvtDensity, regionMask } from '../cvt/cvt-density.js';
import { type CvtRegionInput, cvtRegion, inRegion } from '../cvt/cvt-region.js';
import { SeededStream } from '../cvt/seeded-stream.js';
import type { GeoSeries } from '../geo-series.js';
import { type CentroidalVoronoiOptions, computeCentroidalVoronoi, cvtGrid } from './centroidal-voronoi.js';

/** Options of `GeoSeries.sampleBlueNoise`. */
export interface BlueNoiseOptions extends Omit<CentroidalVoronoiOptions, 'region'> {
  /** Where to sample: a box or (multi)polygons (required). */
  region: CvtRegionInput;
  /** Seed of the random start (default 1): the same seed gives the same points. */
  seed?: number;
}

/** Proposals per requested point before giving up (a density that is almost all zero). */
const MAX_TRIES_PER_POINT = 10_000;

/**
 * `n` points spread as blue noise over the region under the density: a seeded random start by
 * rejection on the density (sampled on a 256-pixel grid of the region, nearest pixel), then a
 * CVT of it (default 50 Lloyd iterations, exact mode) — the points repel like a CVT's sites,
 * dense where ρ is high.
 *
 * @throws CvtError for n < 1 or not an integer, a missing or empty region, a zero-mass density
 */
export async function sampleBlueNoise(
  n: number,
  options: BlueNoiseOptions,
  toSeries: (array: GeometryArray) => GeoSeries,
): Promise<GeoSeries> {
  if (!Number.isInteger(n) || n < 1) throw new CvtError(`sampleBlueNoise needs an integer n ≥ 1, got ${n}`);
  if (options?.region === undefined) throw new CvtError('sampleBlueNoise needs options {region, …}');
  const { seed = 1, ...cvt } = options;
  const region = cvtRegion(options.region, new Float64Array(0));
  const grid = cvtGrid(region, 256);
  const mask = regionMask(region, grid);
  const rho = cvtDensity(options.density, region).pixels(grid, mask);
  let top = 0;
  for (let p = 0; p < rho.length; p++) top = Math.max(top, rho[p]);
  if (!(top > 0)) throw new CvtError('the region has zero mass under the density');
  const [xmin, ymin, xmax, ymax] = grid.bounds;
  const random = new SeededStream(seed);
  const points = new GeometryBuilder(GeometryType.Point);
  let found = 0;
  for (let tries = 0; found < n; tries++) {
    if (tries > MAX_TRIES_PER_POINT * n)
      throw new CvtError('sampleBlueNoise: the density is too concentrated to sample by rejection');
    const x = xmin + (xmax - xmin) * random.next();
    const y = ymin + (ymax - ymin) * random.next();
    const c = Math.min(grid.width - 1, Math.floor(((x - xmin) / (xmax - xmin)) * grid.width));
    const r = Math.min(grid.height - 1, Math.floor(((ymax - y) / (ymax - ymin)) * grid.height));
    if (random.next() * top >= rho[r * grid.width + c] || !inRegion(region, x, y)) continue;
    points.appendPoint(x, y);
    found++;
  }
  const start = points.finish();
  const result = await computeCentroidalVoronoi(
    start,
    { iterations: 50, ...cvt },
    toSeries,
    (cells) => cells,
  );
  return result.sites;
}
