import type { CellMoments, RingSpan } from './cell-moments.js';

// Dunavant's 7-point rule, exact for polynomials of degree 5 on a triangle: barycentric points
// and weights (summing to 1), three orbits.
const A1 = 0.05971587178977;
const B1 = 0.470142064105115;
const A2 = 0.797426985353087;
const B2 = 0.101286507323456;
const W0 = 0.225;
const W1 = 0.132394152788506;
const W2 = 0.125939180544827;
/** Barycentric (λ₁, λ₂) of the seven points (λ₀ = 1 − λ₁ − λ₂) and their weights. */
const L1 = [1 / 3, A1, B1, B1, A2, B2, B2];
const L2 = [1 / 3, B1, A1, B1, B2, A2, B2];
const W = [W0, W1, W1, W1, W2, W2, W2];

/** Most halvings of a fan triangle's sides (4⁶ sub-triangles). */
const MAX_LEVEL = 6;

/** Density ρ(x, y) ≥ 0 in the caller's coordinates. */
export type DensityAt = (x: number, y: number) => number;

/**
 * Moments of ρ over the rings by quadrature, added to cell `i`: every edge (a, b) makes a signed
 * triangle (x, a, b) with the site (their signed sum is the region, holes included), split
 * regularly into 4^L sub-triangles so that every side is at most `h` (L ≤ 6), each integrated by
 * Dunavant's degree-5 rule. The error is that of a degree-5 rule on triangles of side h.
 */
export function addQuadratureMoments(
  span: RingSpan,
  x: number,
  y: number,
  rho: DensityAt,
  h: number,
  out: CellMoments,
  i: number,
): void {
  const { coords: c, ringOffsets } = span;
  for (let r = span.first; r < span.last; r++) {
    for (let k = ringOffsets[r]; k < ringOffsets[r + 1] - 1; k++) {
      const ax = c[2 * k] - x;
      const ay = c[2 * k + 1] - y;
      const bx = c[2 * k + 2] - x;
      const by = c[2 * k + 3] - y;
      const cross = ax * by - bx * ay;
      if (cross === 0) continue;
      const side = Math.sqrt(Math.max(ax * ax + ay * ay, bx * bx + by * by, (ax - bx) ** 2 + (ay - by) ** 2));
      const level = side > h ? Math.min(MAX_LEVEL, Math.ceil(Math.log2(side / h))) : 0;
      const parts = 2 ** level;
      fanTriangle(ax, ay, bx, by, cross / 2, parts, x, y, rho, out, i);
    }
  }
}

/** The triangle (0, a, b) of signed `area`, split into k² sub-triangles. */
function fanTriangle(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  area: number,
  k: number,
  x: number,
  y: number,
  rho: DensityAt,
  out: CellMoments,
  i: number,
): void {
  const sub = area / (k * k);
  const ux = ax / k;
  const uy = ay / k;
  const vx = bx / k;
  const vy = by / k;
  let m = 0;
  let sx = 0;
  let sy = 0;
  let e = 0;
  // sub-triangle with corners p, p + u, p + v (up) or p + u, p + u + v, p + v (down)
  const add = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => {
    for (let t = 0; t < 7; t++) {
      const l1 = L1[t];
      const l2 = L2[t];
      const l0 = 1 - l1 - l2;
      const tx = l0 * px + l1 * qx + l2 * rx;
      const ty = l0 * py + l1 * qy + l2 * ry;
      const w = W[t] * rho(x + tx, y + ty);
      m += w;
      sx += w * tx;
      sy += w * ty;
      e += w * (tx * tx + ty * ty);
    }
  };
  for (let a = 0; a < k; a++) {
    for (let b = 0; a + b < k; b++) {
      const px = a * ux + b * vx;
      const py = a * uy + b * vy;
      add(px, py, px + ux, py + uy, px + vx, py + vy);
      if (a + b < k - 1) add(px + ux, py + uy, px + ux + vx, py + uy + vy, px + vx, py + vy);
    }
  }
  out.mass[i] += m * sub;
  out.sx[i] += sx * sub;
  out.sy[i] += sy * sub;
  out.energy[i] += e * sub;
}
