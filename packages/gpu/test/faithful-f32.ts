import type { RandomBig } from './fixed-reference.js';

// A CPU model of WGSL's f32 for replaying kernels' float filters and error bounds: every + − ×
// returns either float around the exact value (faithful rounding, chosen by an adversary),
// products may be fused into the next addition, division and square root land anywhere within
// their accuracy in ULPs, and results below the normal range may be flushed to zero.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The next f32 above (dir 1) or below (dir −1) the f32 `y`. */
export function nextF32(y: number, dir: 1 | -1): number {
  if (y === 0) return dir * 2 ** -149;
  f32[0] = y;
  u32[0] += y > 0 === dir > 0 ? 1 : -1;
  return f32[0];
}

/** An adversary choosing, for each operation, one of the results WGSL allows. */
export class Faithful {
  constructor(
    private readonly rng: RandomBig,
    private readonly mode: 'up' | 'down' | 'random',
    readonly flush: boolean,
  ) {}
  /** A coin the adversary flips (fuse or not, which order). */
  random(): boolean {
    return this.rng.int(2) === 1;
  }
  int(n: number): number {
    return this.rng.int(n);
  }
  private up(): boolean {
    return this.mode === 'up' || (this.mode === 'random' && this.random());
  }
  /** A faithful f32 rounding of `x` (x is exact, or an f64 rounding of the exact value: see below). */
  round(x: number): number {
    // x is either exact (products of two f32 are exact in f64) or the f64 nearest of a sum; no f32
    // lies strictly between a real and its f64 nearest, so the f32 bracket of x is the exact one's
    const nearest = Math.fround(x);
    let result = nearest;
    if (nearest !== x) {
      const other = nextF32(nearest, nearest < x ? 1 : -1);
      result = (this.up() ? Math.max : Math.min)(nearest, other);
    }
    if (this.flush && result !== 0 && Math.abs(result) < 2 ** -126 && this.random()) return 0;
    return result;
  }
  mul(a: number, b: number): number {
    return this.round(a * b);
  }
  add(a: number, b: number): number {
    return this.round(a + b);
  }
  /** a·b + c, fused (one rounding) or not, as the adversary likes. */
  mulAdd(a: number, b: number, c: number): number {
    return this.random() ? this.round(a * b + c) : this.add(this.mul(a, b), c);
  }
  /** An f32 within `ulps` of `x` (WGSL: 2.5 for a quotient): the nearest moved by up to ⌊ulps⌋. */
  within(x: number, ulps: number): number {
    let result = Math.fround(x);
    const dir = this.up() ? 1 : -1;
    for (let k = 0; k < Math.floor(ulps); k++) result = nextF32(result, dir);
    return result;
  }
  div(a: number, b: number): number {
    return this.within(a / b, 2.5);
  }
  /** WGSL's sqrt inherits 1 / inverseSqrt: 2 ULPs, then a quotient's 2.5. */
  sqrt(a: number): number {
    return this.within(Math.sqrt(a), 4.5);
  }
}

/** The GPU's conversion: |v| truncated to 24 significant bits, times 2^−k, exactly. */
export function toF32Scaled(v: bigint, k: number): number {
  const m = v < 0n ? -v : v;
  if (m === 0n) return 0;
  const len = m.toString(2).length;
  const top = len > 24 ? m >> BigInt(len - 24) : m << BigInt(24 - len);
  const value = Number(top) * 2 ** (len - 24 - k);
  return v < 0n ? -value : value;
}
