import { type Box, GeoframeError } from '@geoframe/core';
import type { PolygonBuffers } from '../delaunay/buffers.js';

/**
 * The smallest nonzero |coordinate| allowed relative to the largest one (2^-220 ≈ 6e-67): the
 * exact predicates multiply four coordinate differences, and their error terms must stay above
 * the underflow threshold (see adr/0021).
 */
export const RANGE_RATIO = 2 ** -220;

/** Largest |coordinate| at which the world-side arithmetic (squared bisector lengths) runs unscaled. */
const HIGH = 2 ** 100;
/** Smallest nonzero |coordinate| at which the world-side arithmetic runs unscaled. */
const LOW = 2 ** -400;
/** Largest |box coordinate| relative to the largest |site coordinate| (2^380 ≈ 2.5e114). */
const BOX_RATIO = 2 ** 380;

/**
 * A power-of-two scale that brings the sites (and their clip box) into a range where every
 * product the Voronoi and Delaunay stages form is a normal float: multiplying by 2^k is exact
 * (it changes no predicate and no rounding) as long as nothing under- or overflows, so the
 * cells in the frame, scaled back by 2^-k, are the cells of the input.
 */
export interface SafeFrame {
  /** 2^k; 1 when the input is already safe (then `sites` and `box` are the caller's). */
  scale: number;
  /** The sites times `scale` (a copy when `scale` ≠ 1). */
  sites: Float64Array;
  /** The box times `scale`. */
  box: Box;
}

/**
 * Checks that `sites` (finite) can be triangulated exactly, and scales them and `box` into a
 * safe range when needed (largest |site coordinate| near 2^20).
 *
 * @throws GeoframeError `COORDINATE_RANGE` when no exact answer is possible: a nonzero
 * coordinate smaller than 2^-220 of the largest (the predicates would underflow), all
 * coordinates below 2^-1000, or a box more than 2^380 times larger than the sites.
 */
export function safeFrame(sites: Float64Array, box: Box | null): SafeFrame {
  const { largest, smallest } = magnitudes(sites);
  const unit = box ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  if (largest === 0) return { scale: 1, sites, box: unit };
  checkRange(largest, smallest);
  const boxLargest = Math.max(
    Math.abs(unit.minX),
    Math.abs(unit.minY),
    Math.abs(unit.maxX),
    Math.abs(unit.maxY),
  );
  if (boxLargest > BOX_RATIO * largest) {
    throw new GeoframeError(
      'COORDINATE_RANGE',
      `the clip box reaches ${boxLargest}, more than 2^380 times the largest site coordinate (${largest}): the cells cannot be computed exactly`,
    );
  }
  if (largest <= HIGH && smallest >= LOW && boxLargest <= 2 ** 20 * HIGH)
    return { scale: 1, sites, box: unit };
  const scale = 2 ** (20 - Math.floor(Math.log2(largest)));
  const scaled = new Float64Array(sites.length);
  for (let k = 0; k < sites.length; k++) scaled[k] = sites[k] * scale;
  const scaledBox = {
    minX: unit.minX * scale,
    minY: unit.minY * scale,
    maxX: unit.maxX * scale,
    maxY: unit.maxY * scale,
  };
  return { scale, sites: scaled, box: scaledBox };
}

/**
 * Checks only the predicates' range condition of {@link safeFrame} (for the triangulation,
 * whose local frame already scales by a power of two).
 */
export function checkSiteRange(sites: Float64Array): void {
  const { largest, smallest } = magnitudes(sites);
  if (largest > 0) checkRange(largest, smallest);
}

function magnitudes(sites: Float64Array): { largest: number; smallest: number } {
  let largest = 0;
  let smallest = Number.POSITIVE_INFINITY;
  for (let k = 0; k < sites.length; k++) {
    const a = Math.abs(sites[k]);
    if (a > largest) largest = a;
    if (a < smallest && a > 0) smallest = a;
  }
  return { largest, smallest };
}

function checkRange(largest: number, smallest: number): void {
  if (largest < 2 ** -1000) {
    throw new GeoframeError(
      'COORDINATE_RANGE',
      `every site coordinate is below 2^-1000 (largest ${largest}): too close to the float underflow to compute cells exactly`,
    );
  }
  if (smallest < RANGE_RATIO * largest) {
    throw new GeoframeError(
      'COORDINATE_RANGE',
      `site coordinates span too many orders of magnitude (smallest nonzero ${smallest}, largest ${largest}; at most 2^220 ≈ 1.7e66 apart): the exact predicates would underflow`,
    );
  }
}

/**
 * The frame's output back in the caller's units: `coords` times 1/scale, in place. Exact unless
 * a value falls below 2^-1022 (subnormal), where it rounds to the subnormal grid; returns
 * whether that happened (then consecutive points may have become equal).
 */
export function unscale(coords: Float64Array, scale: number): boolean {
  if (scale === 1) return false;
  const inverse = 1 / scale;
  let rounded = false;
  for (let k = 0; k < coords.length; k++) {
    const v = coords[k] * inverse;
    if (v * scale !== coords[k]) rounded = true;
    coords[k] = v;
  }
  return rounded;
}

/**
 * Runs `cells` on the sites and box in their {@link safeFrame} and brings its rings back to the
 * caller's units. Where scaling back rounded a value onto the subnormal grid, repeated points
 * are dropped; a ring left with fewer than 4 points is an error naming its site.
 */
export function cellsInSafeFrame(
  sites: Float64Array,
  box: Box,
  cells: (sites: Float64Array, box: Box) => PolygonBuffers,
): PolygonBuffers {
  const frame = safeFrame(sites, box);
  return cellsBack(cells(frame.sites, frame.box), frame.scale);
}

/** {@link cellsInSafeFrame} for an asynchronous `cells`. */
export async function cellsInSafeFrameAsync(
  sites: Float64Array,
  box: Box,
  cells: (sites: Float64Array, box: Box) => Promise<PolygonBuffers>,
): Promise<PolygonBuffers> {
  const frame = safeFrame(sites, box);
  return cellsBack(await cells(frame.sites, frame.box), frame.scale);
}

function cellsBack(out: PolygonBuffers, scale: number): PolygonBuffers {
  if (!unscale(out.coords, scale)) return out;
  const { coords, ringOffsets } = out;
  const n = ringOffsets.length - 1;
  const offsets = new Int32Array(n + 1);
  let to = 0;
  for (let i = 0; i < n; i++) {
    const from = ringOffsets[i];
    const end = ringOffsets[i + 1];
    const first = to;
    for (let p = from; p < end; p++) {
      const x = coords[2 * p];
      const y = coords[2 * p + 1];
      if (to > first && coords[2 * to - 2] === x && coords[2 * to - 1] === y) continue;
      coords[2 * to] = x;
      coords[2 * to + 1] = y;
      to++;
    }
    if (to > first && to - first < 4) {
      throw new GeoframeError(
        'COORDINATE_RANGE',
        `site ${i}: its cell collapses when its coordinates are rounded to the subnormal range (below 2^-1022)`,
      );
    }
    offsets[i + 1] = to;
  }
  return { coords: coords.slice(0, 2 * to), ringOffsets: offsets };
}
