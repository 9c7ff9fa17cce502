import { CvtError, type GeometryArray, type RasterGrid } from '@geoframe/core';
import { type DensityAt, densityPieces, type ExactDensity, fillRings, regionPolygons } from '@geoframe/cpu';
import type { Raster2D } from '../raster/geotiff-io.js';
import type { CvtRegion, HoldsArray } from './cvt-region.js';

/** A frame-like holder of polygons with named columns (a GeoDataFrame). */
interface HoldsColumns {
  readonly geometry: HoldsArray;
  get(name: string): unknown;
}

/** Weights on polygons: ρ = the weight of the polygon(s) holding the point (summed where they overlap), else 0. */
export interface PolygonDensity {
  polygons: HoldsArray | GeometryArray | HoldsColumns;
  /** One weight per polygon row, or the name of a column of `polygons` (a GeoDataFrame). */
  weights: ArrayLike<number> | string;
}

/** `density` as the user gives it. */
export type CvtDensityInput = Raster2D | ((x: number, y: number) => number) | PolygonDensity;

/** The density prepared for both modes. */
export interface CvtDensity {
  /** For the exact mode. */
  exact: ExactDensity;
  /** ρ at the pixel centres of `grid` times the region's `mask` (raster mode). */
  pixels(grid: RasterGrid, mask: Uint8Array): Float32Array;
}

/**
 * Checks and prepares the density: a raster (`readRaster`'s `{values, width, height, bounds}`,
 * nearest-pixel values, 0 outside it), a function (x, y) → ρ, or weights on polygons; uniform when
 * absent. Negative, NaN or infinite values are errors naming where (a raster's col and row, a
 * polygon's row; a function's point when it is evaluated).
 */
export function cvtDensity(input: CvtDensityInput | undefined, region: CvtRegion): CvtDensity {
  if (input === undefined) {
    return { exact: { kind: 'uniform' }, pixels: (_grid, mask) => Float32Array.from(mask) };
  }
  if (typeof input === 'function') return functionDensity(input, region);
  if (typeof input === 'object' && input !== null && 'polygons' in input)
    return polygonDensity(input, region);
  if (typeof input === 'object' && input !== null && 'values' in input) return rasterDensity(input, region);
  throw new CvtError(
    'density must be a raster {values, width, height, bounds}, a function (x, y) => ρ, or {polygons, weights}',
  );
}

function functionDensity(at: DensityAt, region: CvtRegion): CvtDensity {
  const diagonal = Math.hypot(region.box.maxX - region.box.minX, region.box.maxY - region.box.minY);
  return {
    exact: { kind: 'function', at, h: diagonal / 128 },
    pixels: (grid, mask) => sampled(grid, mask, at),
  };
}

function rasterDensity(raster: Raster2D, region: CvtRegion): CvtDensity {
  const { values, width, height, bounds } = raster;
  if (!(values instanceof Float32Array) || values.length !== width * height || bounds?.length !== 4) {
    throw new CvtError(
      'density raster must have Float32Array values of width × height and bounds [xmin, ymin, xmax, ymax]',
    );
  }
  const [xmin, ymin, xmax, ymax] = bounds;
  if (![xmin, ymin, xmax, ymax].every(Number.isFinite) || !(xmax > xmin && ymax > ymin)) {
    throw new CvtError(`density raster bounds must be finite with max > min, got [${bounds.join(', ')}]`);
  }
  for (let p = 0; p < values.length; p++) {
    const v = values[p];
    if (!(v >= 0) || v === Number.POSITIVE_INFINITY) {
      throw new CvtError(
        `density raster at col ${p % width}, row ${Math.floor(p / width)} is ${v}: it must be finite and ≥ 0`,
      );
    }
  }
  const pw = (xmax - xmin) / width;
  const ph = (ymax - ymin) / height;
  const at: DensityAt = (x, y) => {
    const c = Math.floor((x - xmin) / pw);
    const r = Math.floor((ymax - y) / ph);
    return c >= 0 && c < width && r >= 0 && r < height ? values[r * width + c] : 0;
  };
  const diagonal = Math.hypot(region.box.maxX - region.box.minX, region.box.maxY - region.box.minY);
  return {
    exact: { kind: 'function', at, h: Math.min(diagonal / 128, Math.max(pw, ph)) },
    pixels: (grid, mask) => sampled(grid, mask, at),
  };
}

function polygonDensity(input: PolygonDensity, region: CvtRegion): CvtDensity {
  const holder = input.polygons as Partial<HoldsColumns & HoldsArray>;
  const array: GeometryArray =
    holder.geometry !== undefined
      ? holder.geometry.array
      : holder.array !== undefined
        ? holder.array
        : (input.polygons as GeometryArray);
  let weights: ArrayLike<number>;
  if (typeof input.weights === 'string') {
    if (typeof holder.get !== 'function')
      throw new CvtError('density weights given by name need polygons as a GeoDataFrame');
    const column = holder.get(input.weights) as { toArray?: () => ArrayLike<number> };
    if (typeof column?.toArray !== 'function')
      throw new CvtError(`density weights column "${input.weights}" is not numeric`);
    weights = Array.from(column.toArray(), Number);
  } else {
    weights = input.weights;
  }
  const pieces = densityPieces(array, weights, region.clip);
  return {
    exact: { kind: 'pieces', pieces },
    pixels: (grid) => {
      const sum = new Float64Array(grid.width * grid.height);
      for (let k = 0; k < pieces.weights.length; k++) {
        fillRings(pieces.polygons[k].flat(), grid, pieces.weights[k], sum);
      }
      return Float32Array.from(sum);
    },
  };
}

/** ρ at every pixel centre, 0 off the mask; values checked. */
function sampled(grid: RasterGrid, mask: Uint8Array, at: DensityAt): Float32Array {
  const [xmin, , , ymax] = grid.bounds;
  const pw = (grid.bounds[2] - xmin) / grid.width;
  const ph = (ymax - grid.bounds[1]) / grid.height;
  const out = new Float32Array(grid.width * grid.height);
  for (let r = 0, p = 0; r < grid.height; r++) {
    const y = ymax - (r + 0.5) * ph;
    for (let c = 0; c < grid.width; c++, p++) {
      if (mask[p] === 0) continue;
      const x = xmin + (c + 0.5) * pw;
      const v = at(x, y);
      if (!(v >= 0) || v === Number.POSITIVE_INFINITY) {
        throw new CvtError(`density at (${x}, ${y}) is ${v}: it must be finite and ≥ 0`);
      }
      out[p] = v;
    }
  }
  return out;
}

/** The region's mask on `grid`: 1 where the pixel centre is inside. */
export function regionMask(region: CvtRegion, grid: RasterGrid): Uint8Array {
  const mask = new Uint8Array(grid.width * grid.height);
  if (region.isBox) return mask.fill(1);
  const fill = new Float64Array(mask.length);
  const polys = regionPolygons(region.clip) as [number, number][][][];
  fillRings(polys.flat(), grid, 1, fill);
  for (let p = 0; p < mask.length; p++) mask[p] = fill[p] > 0 ? 1 : 0;
  return mask;
}
