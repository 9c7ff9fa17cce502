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
  const frame = frameOfBounds(minX, minY, maxX, maxY);
  const { originX, originY, scale } = frame;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = (xy[2 * i] - originX) * scale;
    out[2 * i + 1] = (xy[2 * i + 1] - originY) * scale;
  }
  return { originX, originY, scale, xy: out };
}

/**
 * The origin and scale of the local frame of sites whose bounding box is the given one (finite),
 * with an empty `xy`: the caller maps each site to `((x - originX) * scale, (y - originY) * scale)`,
 * which gives exactly {@link localFrame}'s coordinates (the subtraction is exact, the scale a power
 * of two). Lets a pass that already reads every site build the local copy on the way.
 */
export function frameOfBounds(minX: number, minY: number, maxX: number, maxY: number): LocalFrame {
  const originX = exactOrigin(minX, maxX);
  const originY = exactOrigin(minY, maxY);
  // x - origin is exact and monotone in x, so the extremes of |x - origin| are at the bounds
  const largest = Math.max(
    Math.abs(minX - originX),
    Math.abs(maxX - originX),
    Math.abs(minY - originY),
    Math.abs(maxY - originY),
  );
  let scale = 1;
  if (largest > 0) {
    const exponent = 20 - Math.floor(Math.log2(largest));
    scale = 2 ** Math.max(-1000, Math.min(1000, exponent));
  }
  return { originX, originY, scale, xy: new Float64Array(0) };
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
