/** Exact BigInt references for the fixed-point WGSL library's tests. */

/** A seeded source of random BigInts and doubles (mulberry-style 32-bit mixing). */
export class RandomBig {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  }
  /** A double in [0, 1). */
  next(): number {
    return this.u32() / 2 ** 32;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** A uniform signed BigInt with |v| < 2^bits. */
  signed(bits: number): bigint {
    let v = 0n;
    for (let k = 0; k < bits; k += 32) v = (v << 32n) | BigInt(this.u32());
    v &= (1n << BigInt(bits)) - 1n;
    return this.u32() & 1 ? -v : v;
  }
  /** A signed BigInt with a random number of bits in [1, bits]: spans all magnitudes. */
  anyMagnitude(bits: number): bigint {
    return this.signed(1 + this.int(bits));
  }
}

/** Writes i64 `v` as two u32 words (low first) at `at`. */
export function put64(out: Uint32Array, at: number, v: bigint): void {
  const u = BigInt.asUintN(64, v);
  out[at] = Number(u & 0xffffffffn);
  out[at + 1] = Number(u >> 32n);
}

/** The i64 at words `at`, `at + 1`. */
export function get64(words: ArrayLike<number>, at: number): bigint {
  return BigInt.asIntN(64, (BigInt(words[at + 1] >>> 0) << 32n) | BigInt(words[at] >>> 0));
}

/** A fixed point as BigInts. */
export type BigPoint = readonly [bigint, bigint];

/** Writes a fixed point (4 words) at `at`. */
export function putPoint(out: Uint32Array, at: number, p: BigPoint): void {
  put64(out, at, p[0]);
  put64(out, at + 2, p[1]);
}

/** The fixed point at words `at .. at + 3`. */
export function getPoint(words: ArrayLike<number>, at: number): BigPoint {
  return [get64(words, at), get64(words, at + 2)];
}

/** floor(n / d) for BigInts, d ≠ 0. */
export function floorDiv(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates toward zero
  return n < 0n && q * d !== n ? q - 1n : q;
}

/** Sign of a BigInt as -1, 0, 1. */
export function sign(v: bigint): number {
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

/** Exact orientation: sign of cross(b − a, c − a). */
export function orientBig(a: BigPoint, b: BigPoint, c: BigPoint): number {
  return sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}

/** Exact incircle sign (Shewchuk's: +1 when d is inside the circle of counter-clockwise a, b, c). */
export function incircleBig(a: BigPoint, b: BigPoint, c: BigPoint, d: BigPoint): number {
  const [adx, ady, bdx, bdy, cdx, cdy] = [
    a[0] - d[0],
    a[1] - d[1],
    b[0] - d[0],
    b[1] - d[1],
    c[0] - d[0],
    c[1] - d[1],
  ];
  const lift = (x: bigint, y: bigint) => x * x + y * y;
  return sign(
    lift(adx, ady) * (bdx * cdy - bdy * cdx) +
      lift(bdx, bdy) * (cdx * ady - cdy * adx) +
      lift(cdx, cdy) * (adx * bdy - ady * bdx),
  );
}

/**
 * The exact circumcenter of a, b, c as rationals [nx, ny, d] (d > 0), from the origin-based
 * determinant formula; null for a degenerate (collinear) triangle.
 */
export function circumcenterRational(a: BigPoint, b: BigPoint, c: BigPoint): [bigint, bigint, bigint] | null {
  const [ax, ay] = a;
  const [bx, by] = b;
  const [cx, cy] = c;
  let d = 2n * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
  if (d === 0n) return null;
  const a2 = ax * ax + ay * ay;
  const b2 = bx * bx + by * by;
  const c2 = cx * cx + cy * cy;
  let nx = a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by);
  let ny = a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax);
  if (d < 0n) {
    d = -d;
    nx = -nx;
    ny = -ny;
  }
  return [nx, ny, d];
}

const FAR = 1n << 62n;

/**
 * What `circumcenter_fixed` must return: floor of each exact coordinate, `far` with saturation at
 * ±2^62 when a floor lies outside [−2^62, 2^62); null for degenerate triangles (checked apart).
 */
export function circumcenterFixedReference(
  a: BigPoint,
  b: BigPoint,
  c: BigPoint,
): { p: BigPoint; far: boolean } | null {
  const r = circumcenterRational(a, b, c);
  if (r === null) return null;
  let far = false;
  const coordinate = (n: bigint) => {
    const f = floorDiv(n, r[2]);
    if (f >= FAR) {
      far = true;
      return FAR;
    }
    if (f < -FAR) {
      far = true;
      return -FAR;
    }
    return f;
  };
  const p: BigPoint = [coordinate(r[0]), coordinate(r[1])];
  return { p, far };
}

/** The bits of a double as [low word, high word]. */
export function doubleWords(v: number): [number, number] {
  const w = new Uint32Array(new Float64Array([v]).buffer);
  return [w[0], w[1]];
}

/**
 * v · 2^e correctly rounded to a double, as a reference independent of the library's: the
 * correctly rounded Number(v) scaled exactly by powers of two while the result is normal; for
 * results in the subnormal range the multiple of 2^-1074 is rounded (ties to even) with BigInt.
 */
export function timesPow2Reference(v: bigint, e: number): number {
  if (v === 0n) return 0;
  const mag = v < 0n ? -v : v;
  const bits = mag.toString(2).length;
  const top = bits - 1 + e;
  if (top >= -1022) {
    if (e >= 0) return Number(v << BigInt(e)); // Number() rounds to nearest even, overflows to ±∞
    // Number(v) is correctly rounded; scaling it down by 2^-e stays normal (top ≥ -1022), so exact
    let x = Number(v);
    let k = -e;
    while (k > 0) {
      const step = Math.min(k, 600);
      x *= 2 ** -step;
      k -= step;
    }
    return x;
  }
  // subnormal: round(|v| · 2^(e + 1074)) units of 2^-1074
  const shift = -(e + 1074);
  let units: bigint;
  if (shift <= 0) units = mag << BigInt(-shift);
  else {
    const s = BigInt(shift);
    units = mag >> s;
    const rest = mag - (units << s);
    const half = 1n << (s - 1n);
    if (rest > half || (rest === half && (units & 1n) === 1n)) units += 1n;
  }
  const x = Number(units) * 2 ** -537 * 2 ** -537;
  return v < 0n ? -x : x;
}

/** An extended rational: n / d with d > 0, or ±∞ (`inf` −1 / +1). */
interface Param {
  n: bigint;
  d: bigint;
  inf: number;
}

const ratio = (n: bigint, d: bigint): Param => (d < 0n ? { n: -n, d: -d, inf: 0 } : { n, d, inf: 0 });
const infinite = (s: number): Param => ({ n: 0n, d: 1n, inf: s });
const less = (a: Param, b: Param): boolean =>
  a.inf !== 0 || b.inf !== 0 ? a.inf < b.inf : a.n * b.d < b.n * a.d;

/** One edge for {@link clipBisectorReference}: sites i, j and the ends' third sites, vertices, flags. */
export interface ClipCase {
  si: BigPoint;
  sj: BigPoint;
  hasA: boolean;
  ka: BigPoint;
  a: BigPoint;
  aInside: boolean;
  hasB: boolean;
  kb: BigPoint;
  b: BigPoint;
  bInside: boolean;
}

/** What `clip_bisector` returns. */
export interface ClipOutcome {
  flags: number;
  p0: BigPoint;
  p1: BigPoint;
  side0: number;
  side1: number;
}

export const NO_SIDE = 0xffffffff;

/**
 * The semantics of `clip_bisector` with BigInt rationals, computed another way: an end's
 * parameter from the exact circumcenter C (origin formula) as ((C − M)·d) / |d|², the point as
 * M + t·d, clamping and the nearest side by exact rational comparison.
 */
export function clipBisectorReference(
  c: ClipCase,
  box: readonly [bigint, bigint, bigint, bigint],
): ClipOutcome {
  const none: ClipOutcome = { flags: 0, p0: [0n, 0n], p1: [0n, 0n], side0: NO_SIDE, side1: NO_SIDE };
  const aIn = c.hasA && c.aInside;
  const bIn = c.hasB && c.bInside;
  if (aIn && bIn) return { ...none, flags: 1, p0: c.a, p1: c.b };
  const [minX, minY, maxX, maxY] = box;
  // M = S / 2, direction d
  const S: BigPoint = [c.si[0] + c.sj[0], c.si[1] + c.sj[1]];
  const d: BigPoint = [c.si[1] - c.sj[1], c.sj[0] - c.si[0]];
  if (d[0] === 0n && d[1] === 0n) return none;
  const dd = d[0] * d[0] + d[1] * d[1];
  const vertexParam = (k: BigPoint, side: number): Param => {
    const cc = circumcenterRational(c.si, c.sj, k);
    if (cc === null) return infinite(side);
    const [nx, ny, cd] = cc;
    // ((C − S/2)·d) / dd = ((2C − S)·d) / (2 dd) with C = (nx, ny) / cd
    return ratio((2n * nx - S[0] * cd) * d[0] + (2n * ny - S[1] * cd) * d[1], 2n * cd * dd);
  };
  const slab = (lo: bigint, hi: bigint, s: bigint, dir: bigint): [Param, Param] => {
    // crossing x = X at t = (X − s/2) / dir
    const at = (X: bigint) => ratio(2n * X - s, 2n * dir);
    if (dir > 0n) return [at(lo), at(hi)];
    if (dir < 0n) return [at(hi), at(lo)];
    return s < 2n * lo || s > 2n * hi ? [infinite(1), infinite(-1)] : [infinite(-1), infinite(1)];
  };
  const [x0, x1] = slab(minX, maxX, S[0], d[0]);
  const [y0, y1] = slab(minY, maxY, S[1], d[1]);
  const t0 = less(x0, y0) ? y0 : x0;
  const t1 = less(y1, x1) ? y1 : x1;
  let lo = infinite(-1);
  if (!aIn) {
    if (c.hasA) lo = vertexParam(c.ka, -1);
    if (less(lo, t0)) lo = t0;
  }
  let hi = infinite(1);
  if (!bIn) {
    if (c.hasB) hi = vertexParam(c.kb, 1);
    if (less(t1, hi)) hi = t1;
  }
  if (!aIn && !bIn && !less(lo, hi)) return none;
  if ((!aIn && lo.inf !== 0) || (!bIn && hi.inf !== 0)) return none;
  const point = (t: Param): [BigPoint, number] => {
    // x = S.x / 2 + t·d.x as a rational over den = 2 t.d
    const den = 2n * t.d;
    let X = S[0] * t.d + 2n * t.n * d[0];
    let Y = S[1] * t.d + 2n * t.n * d[1];
    const clamp = (v: bigint, l: bigint, h: bigint) => (v < l * den ? l * den : v > h * den ? h * den : v);
    X = clamp(X, minX, maxX);
    Y = clamp(Y, minY, maxY);
    const distances = [Y - minY * den, maxX * den - X, maxY * den - Y, X - minX * den];
    let side = 0;
    for (let k = 1; k < 4; k++) if (distances[k] < distances[side]) side = k;
    const fx = floorDiv(X, den);
    const fy = floorDiv(Y, den);
    const p: BigPoint =
      side === 0 ? [fx, minY] : side === 1 ? [maxX, fy] : side === 2 ? [fx, maxY] : [minX, fy];
    if (side === 0 && p[0] === maxX) side = 1;
    else if (side === 1 && p[1] === maxY) side = 2;
    else if (side === 2 && p[0] === minX) side = 3;
    else if (side === 3 && p[1] === minY) side = 0;
    return [p, side];
  };
  const out: ClipOutcome = { ...none, flags: 1 };
  if (aIn) out.p0 = c.a;
  else {
    [out.p0, out.side0] = point(lo);
    out.flags |= 2;
  }
  if (bIn) out.p1 = c.b;
  else {
    [out.p1, out.side1] = point(hi);
    out.flags |= 4;
  }
  return out;
}
