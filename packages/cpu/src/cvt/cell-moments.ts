/**
 * Per-cell integrals of the CVT, relative to the cell's site x: mass m = ∫ρ, first moment
 * s = ∫ρ(p − x) and energy e = ∫ρ‖p − x‖². Then zᵢ = x + s/m and ∂F/∂x = −2s. Working relative to
 * the site keeps the sums small where coordinates are large (huge offsets).
 */
export interface CellMoments {
  mass: Float64Array;
  sx: Float64Array;
  sy: Float64Array;
  energy: Float64Array;
}

/** Zeroed moments for `n` cells. */
export function cellMoments(n: number): CellMoments {
  return {
    mass: new Float64Array(n),
    sx: new Float64Array(n),
    sy: new Float64Array(n),
    energy: new Float64Array(n),
  };
}

/** Rings `[first, last)` of `ringOffsets` over interleaved `coords`: one cell's boundary. */
export interface RingSpan {
  coords: Float64Array;
  ringOffsets: Int32Array;
  first: number;
  last: number;
}

/**
 * Exact moments for ρ = `weight` (constant) over the rings (exteriors counter-clockwise, holes
 * clockwise), added to cell `i`: Green's theorem on every edge (a, b) relative to (x, y), with
 * c = a × b: ∫1 = Σc/2, ∫u = Σ(aᵤ + bᵤ)c/6, ∫u² = Σ(aᵤ² + aᵤbᵤ + bᵤ²)c/12.
 */
export function addUniformMoments(
  span: RingSpan,
  x: number,
  y: number,
  weight: number,
  out: CellMoments,
  i: number,
): void {
  const { coords: c, ringOffsets } = span;
  let a = 0;
  let sx = 0;
  let sy = 0;
  let e = 0;
  for (let r = span.first; r < span.last; r++) {
    const lo = ringOffsets[r];
    const hi = ringOffsets[r + 1];
    for (let k = lo; k < hi - 1; k++) {
      const ax = c[2 * k] - x;
      const ay = c[2 * k + 1] - y;
      const bx = c[2 * k + 2] - x;
      const by = c[2 * k + 3] - y;
      const cross = ax * by - bx * ay;
      a += cross;
      sx += (ax + bx) * cross;
      sy += (ay + by) * cross;
      e += (ax * ax + ax * bx + bx * bx + ay * ay + ay * by + by * by) * cross;
    }
  }
  out.mass[i] += (weight * a) / 2;
  out.sx[i] += (weight * sx) / 6;
  out.sy[i] += (weight * sy) / 6;
  out.energy[i] += (weight * e) / 12;
}
