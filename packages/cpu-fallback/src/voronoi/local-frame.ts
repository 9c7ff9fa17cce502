/**
 * A local coordinate frame for triangulating: `local = (world - origin) * scale`, where the
 * subtraction is exact (Sterbenz: the origin is only moved when every coordinate lies within a
 * factor of two of it) and the scale is a power of two (exact). Distinct world sites therefore
 * stay distinct, and coordinates around 1e7 with spacing 1 become small integers.
 */
export interface LocalFrame {
  originX: number;
  originY: number;
  /** Power of two that brings the largest |local coordinate| into [2^20, 2^21). */
  scale: number;
  /** Interleaved local xy (a new buffer; the caller's is never modified). */
  xy: Float64Array;
}

/** Builds the local frame of the sites `xy` (finite, at least one site). */
export function localFrame(xy: Float64Array): LocalFrame {
  const n = xy.length >> 1;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i];
    const y = xy[2 * i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const originX = exactOrigin(minX, maxX);
  const originY = exactOrigin(minY, maxY);
  const local = new Float64Array(2 * n);
  let largest = 0;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i] - originX;
    const y = xy[2 * i + 1] - originY;
    local[2 * i] = x;
    local[2 * i + 1] = y;
    const m = Math.max(Math.abs(x), Math.abs(y));
    if (m > largest) largest = m;
  }
  let scale = 1;
  if (largest > 0) {
    const exponent = 20 - Math.floor(Math.log2(largest));
    scale = 2 ** Math.max(-1000, Math.min(1000, exponent));
    if (scale !== 1) for (let k = 0; k < 2 * n; k++) local[k] *= scale;
  }
  return { originX, originY, scale, xy: local };
}

/**
 * An origin `o` with `x - o` exact for every x in [lo, hi]: by Sterbenz' lemma that holds when
 * all x lie in [o/2, 2o] (same sign); otherwise 0 (no shift: the data already straddles 0).
 */
function exactOrigin(lo: number, hi: number): number {
  if (lo > 0 && hi <= 2 * lo) return lo;
  if (hi < 0 && lo >= 2 * hi) return hi;
  return 0;
}
