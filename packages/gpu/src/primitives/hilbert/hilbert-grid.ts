import { InvalidGeometryError } from '@geoframe/core';

/** Bits per axis of a Hilbert grid: 16 gives one u32 key per point, 32 gives two (`[hi, lo]`). */
export type HilbertBits = 16 | 32;

/** A box `[xmin, ymin, xmax, ymax]` (finite, `xmin <= xmax`, `ymin <= ymax`). */
export type HilbertBounds = readonly [number, number, number, number];

/** Options of the Hilbert key functions. */
export interface HilbertOptions {
  /** Bits per axis of the grid: 2^bits cells along x and along y. */
  bits: HilbertBits;
  /**
   * The box the grid covers; default the points' own bounding box. Points outside it land in the
   * nearest edge cell (coordinates are clamped to the grid).
   */
  bounds?: HilbertBounds;
}

/**
 * The bounding box `[xmin, ymin, xmax, ymax]` of interleaved points `xy`, after checking that
 * every coordinate is finite. An empty input gives `[0, 0, 0, 0]`.
 *
 * @throws InvalidGeometryError naming the first point index with a NaN or infinite coordinate.
 * @throws RangeError when `xy` has an odd length.
 */
export function hilbertBounds(xy: Float64Array): [number, number, number, number] {
  const n = pointCount(xy);
  if (n === 0) return [0, 0, 0, 0];
  let xmin = Number.POSITIVE_INFINITY;
  let ymin = Number.POSITIVE_INFINITY;
  let xmax = Number.NEGATIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  // branch-free min and max (a NaN propagates, an infinity stays): 2–3× faster than compares and
  // a per-point finiteness test on large inputs; the rare bad input is then scanned for its row
  for (let k = 0; k < 2 * n; k += 2) {
    xmin = Math.min(xmin, xy[k]);
    xmax = Math.max(xmax, xy[k]);
    ymin = Math.min(ymin, xy[k + 1]);
    ymax = Math.max(ymax, xy[k + 1]);
  }
  if (!Number.isFinite(xmin - xmax) || !Number.isFinite(ymin - ymax)) {
    for (let i = 0; i < n; i++) {
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      // one test catches NaN and ±Infinity: x - x is NaN for all three
      if (x - x !== 0 || y - y !== 0) throw nonFinite(i, x, y);
    }
  }
  return [xmin, ymin, xmax, ymax];
}

/**
 * The grid cells of interleaved points `xy` (the quantization step of the Hilbert keys, done in
 * f64 on the CPU): per axis `q = floor((v - min) / (max - min) * 2^bits)`, clamped to
 * `[0, 2^bits - 1]`, each axis scaled to fill the grid. The map is monotone per axis (a larger
 * coordinate never gets a smaller cell), the box's min lands in cell 0 and its max in the last
 * cell. A zero-width axis (all points equal there) puts every point in cell 0, or, with caller
 * `bounds`, points above the box in the last cell. Subtraction and division run on halved values so
 * that boxes as wide as ±Number.MAX_VALUE do not overflow; halving is exact for all but subnormal
 * values, so elsewhere the cells are those of the unhalved formula.
 *
 * Output: for 16 bits one u32 per point, `x | y << 16`; for 32 bits two, `x, y`.
 *
 * @throws InvalidGeometryError naming the point index of a NaN or infinite coordinate (every point
 *   is checked, also when `bounds` are given).
 * @throws RangeError for bad `bits`, bad `bounds` or an odd-length `xy`.
 */
export function quantizeHilbertGrid(xy: Float64Array, options: HilbertOptions): Uint32Array {
  const bits = checkBits(options.bits);
  const [xmin, ymin, xmax, ymax] = resolveBounds(xy, options.bounds);
  const n = xy.length >> 1;
  const cells = 2 ** bits;
  const top = cells - 1;
  const x0 = xmin / 2;
  const y0 = ymin / 2;
  const spanX = xmax / 2 - x0;
  const spanY = ymax / 2 - y0;
  const out = new Uint32Array(bits === 16 ? n : 2 * n);
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    let qx: number;
    let qy: number;
    if (spanX > 0) qx = Math.min(top, Math.max(0, Math.floor(((x / 2 - x0) / spanX) * cells)));
    else qx = x > xmin ? top : 0;
    if (spanY > 0) qy = Math.min(top, Math.max(0, Math.floor(((y / 2 - y0) / spanY) * cells)));
    else qy = y > ymin ? top : 0;
    if (bits === 16) out[i] = qx | (qy << 16);
    else {
      out[2 * i] = qx;
      out[2 * i + 1] = qy;
    }
  }
  return out;
}

/** Caller bounds checked (points still checked for finiteness), or the points' own box. */
function resolveBounds(xy: Float64Array, bounds: HilbertBounds | undefined): HilbertBounds {
  if (bounds === undefined) return hilbertBounds(xy);
  const [xmin, ymin, xmax, ymax] = bounds;
  if (![xmin, ymin, xmax, ymax].every(Number.isFinite) || !(xmin <= xmax && ymin <= ymax)) {
    throw new RangeError(`Hilbert bounds [${bounds.join(', ')}] are not a finite box with min <= max`);
  }
  hilbertBounds(xy);
  return bounds;
}

/** `bits` checked to be 16 or 32. */
export function checkBits(bits: number): HilbertBits {
  if (bits !== 16 && bits !== 32) throw new RangeError(`Hilbert bits must be 16 or 32, not ${bits}`);
  return bits;
}

function pointCount(xy: Float64Array): number {
  if (xy.length % 2 !== 0) throw new RangeError(`xy has odd length ${xy.length}: expected x, y pairs`);
  return xy.length >> 1;
}

/** The error for point `i` with a NaN or infinite coordinate (x or y, whichever is). */
export function nonFinite(i: number, x: number, y: number): InvalidGeometryError {
  const [axis, value] = x - x !== 0 ? ['x', x] : ['y', y];
  return new InvalidGeometryError(
    i,
    `point ${i} has a non-finite ${axis} coordinate (${value}); Hilbert keys need finite points`,
  );
}
