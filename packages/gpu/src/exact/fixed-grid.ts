import type { Box } from '@geoframe/core';

/** Bits of magnitude a grid value may use: every |value| < 2^58 (plus the sign). */
export const GRID_VALUE_BITS = 58;

/**
 * Sites and clip box on one integer grid, the GPU Voronoi pipeline's exact coordinates.
 *
 * One unit is `u = 2^exponent`; a coordinate v becomes the integer `round(v / u)` (half toward
 * +∞, `Math.round`), stored as a two's-complement i64 in two u32 words, low word first. The
 * origin is 0 (no translation), so the grid value of a coordinate does not depend on the other
 * coordinates except through the exponent.
 */
export interface FixedGrid {
  /** e: one grid unit is 2^e. */
  exponent: number;
  /** 4 words per site: x.lo, x.hi, y.lo, y.hi — the WGSL `vec4<u32>` fixed point. */
  sites: Uint32Array;
  /** minX, minY, maxX, maxY as i64 words (8 words): `box_min` = words 0..3, `box_max` = 4..7. */
  box: Uint32Array;
  /**
   * Number of sites with a coordinate the grid rounds (not a multiple of the unit): those below
   * 2^-6 of the largest magnitude whose f64 carries bits below the unit. Harmless unless two
   * distinct sites round to one grid point, which needs them within a unit of each other near
   * the origin while the box (e.g. a large `extendTo`) or far sites set a coarse unit.
   */
  inexactSites: number;
}

/**
 * Puts the sites and the clip box on the finest grid whose values fit in 58 bits plus sign.
 *
 * The exponent e is the smallest integer with `max |v| < 2^(e+58)` over every site and box
 * coordinate, so grid values are below 2^58 in magnitude, differences of two below 2^59, and the
 * unit is 32 times finer than f64's ulp at the largest coordinate. Every coordinate of magnitude
 * at least 2^(e+52) (at least 2^-6 of the largest) is therefore represented exactly — in practice
 * the box corners and all but the sites very close to the origin; smaller coordinates are
 * rounded to the nearest unit (ties toward +∞), an error of at most 2^-59 of the largest
 * coordinate, so two distinct f64 sites can only fall on one grid point when both are within
 * 2^-6 of the largest magnitude of the origin and within 2^-58 of it of each other.
 * Conversion is exact power-of-two scaling plus `Math.round`: no bit above the unit is lost.
 *
 * All coordinates zero (one site at the origin, a point box) gives exponent 0.
 *
 * @param sites interleaved x, y; finite (uniqueness is the caller's business)
 * @param box the clip box; finite
 * @throws RangeError for an odd-length `sites` or a non-finite coordinate (naming it)
 */
export function fixedGrid(sites: Float64Array, box: Box): FixedGrid {
  if (sites.length % 2 !== 0) throw new RangeError(`fixedGrid: odd coordinate count ${sites.length}`);
  const corners = [box.minX, box.minY, box.maxX, box.maxY];
  let max = 0;
  for (let k = 0; k < corners.length; k++) {
    const v = corners[k];
    if (!Number.isFinite(v)) throw new RangeError(`fixedGrid: box coordinate ${k} is ${v}`);
    max = Math.max(max, Math.abs(v));
  }
  for (let k = 0; k < sites.length; k++) {
    const v = sites[k];
    if (!Number.isFinite(v)) throw new RangeError(`fixedGrid: site ${k >> 1} has coordinate ${v}`);
    const a = Math.abs(v);
    if (a > max) max = a;
  }
  const exponent = max === 0 ? 0 : floorLog2(max) - (GRID_VALUE_BITS - 1);
  const out = new Uint32Array(2 * sites.length);
  let inexactSites = 0;
  let lastInexact = -1;
  for (let k = 0; k < sites.length; k++) {
    const g = toGrid(sites[k], exponent);
    if (scale(g, exponent) !== sites[k] && k >> 1 !== lastInexact) {
      inexactSites++;
      lastInexact = k >> 1;
    }
    writeWords(g, out, 2 * k);
  }
  const boxWords = new Uint32Array(8);
  for (let k = 0; k < 4; k++) writeWords(toGrid(corners[k], exponent), boxWords, 2 * k);
  return { exponent, sites: out, box: boxWords, inexactSites };
}

/** floor(log2(v)) for a finite v > 0, exact (subnormals included). */
export function floorLog2(v: number): number {
  let k = Math.floor(Math.log2(v));
  while (pow2(k) > v) k--;
  while (pow2(k + 1) <= v) k++;
  return k;
}

/** 2^k as a double for any integer k (0 below 2^-1074, Infinity from 2^1024). */
function pow2(k: number): number {
  if (k < -1022) return 2 ** (k + 200) * 2 ** -200;
  return 2 ** k;
}

/** v · 2^k, exact whenever the result is a normal double (two steps keep the factors finite). */
function scale(v: number, k: number): number {
  const half = Math.trunc(k / 2);
  return v * 2 ** half * 2 ** (k - half);
}

/**
 * The grid value round(v / 2^exponent) as a number (|result| < 2^58, so exact). A coordinate too
 * small to scale to a normal double rounds to 0 anyway.
 */
export function toGrid(v: number, exponent: number): number {
  const r = Math.round(scale(v, -exponent));
  return r === 0 ? 0 : r; // no -0
}

/** Writes integer `v` (|v| < 2^63, exact as a double) as two's-complement i64 words at `at`. */
function writeWords(v: number, out: Uint32Array, at: number): void {
  const hi = Math.floor(v / 4294967296);
  out[at] = (v - hi * 4294967296) >>> 0;
  out[at + 1] = hi >>> 0;
}

/** The i64 at words `at`, `at + 1` (low first) as a BigInt. */
export function wordsToBigInt(words: ArrayLike<number>, at = 0): bigint {
  return BigInt.asIntN(64, (BigInt(words[at + 1] >>> 0) << 32n) | BigInt(words[at] >>> 0));
}

/** Writes `v` as two's-complement i64 words (low first) at `at`; `v` is taken modulo 2^64. */
export function bigIntToWords(v: bigint, out: Uint32Array, at = 0): Uint32Array {
  const u = BigInt.asUintN(64, v);
  out[at] = Number(u & 0xffffffffn);
  out[at + 1] = Number(u >> 32n);
  return out;
}

/** Site `i` of a grid as BigInt grid values [x, y]. */
export function fixedSiteBigInt(grid: FixedGrid, i: number): [bigint, bigint] {
  return [wordsToBigInt(grid.sites, 4 * i), wordsToBigInt(grid.sites, 4 * i + 2)];
}

/** The grid box as BigInt grid values [minX, minY, maxX, maxY]. */
export function fixedBoxBigInt(grid: FixedGrid): [bigint, bigint, bigint, bigint] {
  const b = grid.box;
  return [wordsToBigInt(b, 0), wordsToBigInt(b, 2), wordsToBigInt(b, 4), wordsToBigInt(b, 6)];
}

/**
 * The coordinate of grid value `v` (a BigInt, or the i64 words at `at` of an array): v · 2^exponent,
 * correctly rounded to the nearest double (ties to even; an exact value when |v| < 2^53).
 * For tests and host-side checks; the GPU uses `fixed_to_f64`.
 */
export function fixedToNumber(exponent: number, v: bigint | ArrayLike<number>, at = 0): number {
  const big = typeof v === 'bigint' ? v : wordsToBigInt(v, at);
  return bigIntTimesPow2(big, exponent);
}

/** v · 2^e correctly rounded (ties to even) to a double, with exact integer arithmetic. */
export function bigIntTimesPow2(v: bigint, e: number): number {
  if (v === 0n) return 0;
  if (v < 0n) return -bigIntTimesPow2(-v, e);
  const length = v.toString(2).length; // v in [2^(length-1), 2^length)
  const top = length - 1 + e; // the value's binary exponent
  // keep 53 significant bits (fewer for subnormals: the unit is 2^-1074)
  const unit = Math.max(top - 52, -1074);
  const shift = unit - e; // value = v · 2^e = (v / 2^shift) · 2^unit
  let m: bigint;
  if (shift <= 0) m = v << BigInt(-shift);
  else {
    const s = BigInt(shift);
    m = v >> s;
    const rest = v - (m << s);
    const half = 1n << (s - 1n);
    if (rest > half || (rest === half && (m & 1n) === 1n)) m += 1n;
  }
  // m ≤ 2^53, exactly representable; scale by 2^unit in steps that stay exact
  return scale(Number(m), unit);
}
