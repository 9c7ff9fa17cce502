import { type WgslModule, wgslModule } from '../../runtime/wgsl-module.js';
import { INCIRCLE } from './incircle-wgsl.js';
import { ORIENT } from './orient-wgsl.js';
/**
 * Simulation of simplicity for the Delaunay predicates, in WGSL: exact ties broken by site index
 * so that every test on distinct sites has a nonzero, consistent answer. Needs `FIXED_WGSL`,
 * {@link PREDICATE_SUPPORT_WGSL}, {@link ORIENT_WGSL} and {@link INCIRCLE_WGSL} before it.
 *
 * The perturbation. Each site i is lifted to (x_i, y_i, z_i = x_i² + y_i²) and then moved by
 * positive infinitesimals: z_i + ε_i, y_i + η_i, x_i + ξ_i, with every ε ≫ every η ≫ every ξ,
 * and within each kind a smaller site index dominates (ε_i ≫ ε_j for i < j, and so on; e.g.
 * Edelsbrunner–Mücke's powers ε^(2^k) with k ordered that way). All predicates are signs of
 * determinants of this one perturbed configuration, so they are mutually consistent: the
 * triangulation they define is the regular triangulation of the perturbed lifted points, a
 * Delaunay triangulation of the sites in which each cocircular group is triangulated one
 * definite way.
 *
 * - `incircle_sos(a, b, c, d, ia, ib, ic, id) -> i32`: the sign of the perturbed
 *   det [x y z 1] of rows a, b, c, d (the same sign convention as `incircle_sign`: +1 when d is
 *   inside the circle of counter-clockwise a, b, c). The determinant is linear in each column,
 *   so the perturbed value is D + Σ ε_r·Cz_r + Σ η_r·Cy_r + Σ ξ_r·Cx_r + products of different
 *   columns' infinitesimals, with Cz_r = (−1)^r·orient(other three rows in order) (rows 0..3 =
 *   a..d). Its sign is that of the first nonzero term in dominance order:
 *   1. D, the exact incircle;
 *   2. Cz of the rows in increasing site index: the orientation of the other three (one test on
 *      a cocircular square: no three of its corners are collinear);
 *   3. only when all four sites are collinear (all Cz vanish): Cy of the smallest-index row,
 *      (−1)^(r+1)·det [x z 1] of the others (nonzero for distinct sites on a non-vertical line:
 *      z is a non-degenerate quadratic in x there, and every product term involving an ε is
 *      smaller);
 *   4. on a vertical line: Cx of the smallest-index row, (−1)^r·det [y z 1] of the others.
 *   Never 0 for four distinct sites. Coincident sites (merged before triangulating) may give
 *   any sign or 0.
 *   Swapping two arguments (with their indices) negates the result; rotating a, b, c keeps it;
 *   incircle_sos(a, b, c, d) = −incircle_sos(b, c, d, a): of the two diagonals of a convex quad
 *   exactly one is Delaunay, decided the same way from either triangle.
 * - `incircle_sos_tie(…)`: the same where the exact incircle is already known to be 0.
 * - `orient_sos(a, b, c, ia, ib, ic) -> i32`: the sign of the perturbed det [x y 1] (the same
 *   convention as `orient_sign`, +1 counter-clockwise). Terms: D; Cy_r = (−1)^(r+1)·(x_p − x_q)
 *   for the rows in increasing site index (p < q the other two rows); then Cx of the smallest-index
 *   row, (−1)^r·(y_p − y_q); then the product term ξ·η with coefficient ±1 (coincident sites).
 *   Never 0, even for coincident sites. Needed wherever the algorithm must put a point on one side
 *   of a line through two sites it lies on: point location of an uninserted site that falls on
 *   an edge, and hull or convexity tests that meet collinear sites. It perturbs x and y exactly
 *   as `incircle_sos` does, so the two agree; the algorithm must still expect flat triangles on
 *   collinear hull runs (they are legal under the perturbation) and handle them at its boundary.
 */
export const SOS_WGSL = /* wgsl */ `
// Rows are 0..3 (a..d). Everything is selected, not indexed: private arrays indexed at run time
// spill to memory on most GPUs.

// the row of rank k given each row's rank
fn sos_row_of_rank(ranks: vec4<u32>, k: u32) -> u32 {
  return select(select(select(3u, 2u, ranks.z == k), 1u, ranks.y == k), 0u, ranks.x == k);
}

// each row's position in increasing site index (equal indices: the earlier row first)
fn sos_ranks(ia: u32, ib: u32, ic: u32, id: u32) -> vec4<u32> {
  return vec4<u32>(
    u32(ib < ia) + u32(ic < ia) + u32(id < ia),
    u32(ia <= ib) + u32(ic < ib) + u32(id < ib),
    u32(ia <= ic) + u32(ib <= ic) + u32(id < ic),
    u32(ia <= id) + u32(ib <= id) + u32(ic <= id));
}

// sign of det [u z 1] of rows p, q, r: u = x (use_y false) or y, z = x² + y², exact
fn sos_lifted_minor(p: vec4<u32>, q: vec4<u32>, r: vec4<u32>, use_y: bool) -> i32 {
  let duq = i64_sub(select(q.xy, q.zw, use_y), select(p.xy, p.zw, use_y));
  let dur = i64_sub(select(r.xy, r.zw, use_y), select(p.xy, p.zw, use_y));
  // z_q − z_p = (qx − px)(qx + px) + (qy − py)(qy + py), below 2^119
  let dzq = i128_add(i64_mul(i64_sub(q.xy, p.xy), i64_add(q.xy, p.xy)),
                     i64_mul(i64_sub(q.zw, p.zw), i64_add(q.zw, p.zw)));
  let dzr = i128_add(i64_mul(i64_sub(r.xy, p.xy), i64_add(r.xy, p.xy)),
                     i64_mul(i64_sub(r.zw, p.zw), i64_add(r.zw, p.zw)));
  return w8_sign(w8_sub(i128_mul(i128_from_i64(duq), dzr), i128_mul(dzq, i128_from_i64(dur))));
}

fn incircle_sos(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>, d: vec4<u32>,
                ia: u32, ib: u32, ic: u32, id: u32) -> i32 {
  let s = incircle_sign(a, b, c, d);
  if (s != 0) {
    return s;
  }
  return incircle_sos_tie(a, b, c, d, ia, ib, ic, id);
}

// incircle_sos where the exact incircle is known to be 0 (a caller that has just evaluated it
// saves a second copy of the whole evaluation in its kernel)
fn incircle_sos_tie(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>, d: vec4<u32>,
                    ia: u32, ib: u32, ic: u32, id: u32) -> i32 {
  let ranks = sos_ranks(ia, ib, ic, id);
  for (var k = 0u; k < 4u; k++) {
    let r = sos_row_of_rank(ranks, k);
    // the other three rows in order, and the cofactor's sign (−1)^r
    let v = orient_sign(select(a, b, r == 0u), select(b, c, r <= 1u), select(c, d, r <= 2u));
    if (v != 0) {
      return select(-v, v, (r & 1u) == 0u);
    }
  }
  // all four collinear: the first y term, then (vertical line) the first x term
  let r = sos_row_of_rank(ranks, 0u);
  let p = select(a, b, r == 0u);
  let q = select(b, c, r <= 1u);
  let t = select(c, d, r <= 2u);
  let vy = sos_lifted_minor(p, q, t, false);
  if (vy != 0) {
    return select(vy, -vy, (r & 1u) == 0u);
  }
  let vx = sos_lifted_minor(p, q, t, true);
  return select(-vx, vx, (r & 1u) == 0u);
}

fn orient_sos(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>, ia: u32, ib: u32, ic: u32) -> i32 {
  let s = orient_sign(a, b, c);
  if (s != 0) {
    return s;
  }
  let ranks = sos_ranks(ia, ib, ic, 0xffffffffu); // the padding row ranks last
  for (var k = 0u; k < 3u; k++) {
    let r = sos_row_of_rank(ranks, k);
    let v = i64_sign(i64_sub(select(a.xy, b.xy, r == 0u), select(b.xy, c.xy, r <= 1u)));
    if (v != 0) {
      return select(v, -v, (r & 1u) == 0u);
    }
  }
  let r = sos_row_of_rank(ranks, 0u);
  let v = i64_sign(i64_sub(select(a.zw, b.zw, r == 0u), select(b.zw, c.zw, r <= 1u)));
  if (v != 0) {
    return select(-v, v, (r & 1u) == 0u);
  }
  // coincident sites: the term ξ(first)·η(second), coefficient ±1: the parity of the rows
  // listed in index order
  let r0 = r;
  let r1 = sos_row_of_rank(ranks, 1u);
  let r2 = sos_row_of_rank(ranks, 2u);
  let inversions = u32(r0 > r1) + u32(r0 > r2) + u32(r1 > r2);
  return select(-1, 1, (inversions & 1u) == 0u);
}
`;

/** {@link SOS_WGSL} as a module. */
export const SOS: WgslModule = wgslModule('exact/sos', SOS_WGSL, [ORIENT, INCIRCLE]);
