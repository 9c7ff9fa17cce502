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
// rows of the other three of four (ascending), or the other two of three
fn sos_others4(r: u32) -> vec3<u32> {
  return vec3<u32>(select(0u, 1u, r == 0u), select(1u, 2u, r <= 1u), select(2u, 3u, r <= 2u));
}

// rank of row r among indices (ties by row): its position in increasing site index
fn sos_rank4(idx: vec4<u32>, r: u32) -> u32 {
  var rank = 0u;
  for (var j = 0u; j < 4u; j++) {
    if (idx[j] < idx[r] || (idx[j] == idx[r] && j < r)) {
      rank++;
    }
  }
  return rank;
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
  var pts = array<vec4<u32>, 4>(a, b, c, d);
  let idx = vec4<u32>(ia, ib, ic, id);
  var order = array<u32, 4>(0u, 1u, 2u, 3u);
  for (var r = 0u; r < 4u; r++) {
    order[sos_rank4(idx, r)] = r;
  }
  for (var k = 0u; k < 4u; k++) {
    let r = order[k];
    let o = sos_others4(r);
    let v = orient_sign(pts[o.x], pts[o.y], pts[o.z]);
    if (v != 0) {
      return select(-v, v, (r & 1u) == 0u);
    }
  }
  // all four collinear: the first y term, then (vertical line) the first x term
  let r = order[0];
  let o = sos_others4(r);
  let vy = sos_lifted_minor(pts[o.x], pts[o.y], pts[o.z], false);
  if (vy != 0) {
    return select(vy, -vy, (r & 1u) == 0u);
  }
  let vx = sos_lifted_minor(pts[o.x], pts[o.y], pts[o.z], true);
  return select(-vx, vx, (r & 1u) == 0u);
}

fn orient_sos(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>, ia: u32, ib: u32, ic: u32) -> i32 {
  let s = orient_sign(a, b, c);
  if (s != 0) {
    return s;
  }
  var pts = array<vec4<u32>, 3>(a, b, c);
  let idx = vec4<u32>(ia, ib, ic, 0xffffffffu);
  var order = array<u32, 3>(0u, 1u, 2u);
  for (var r = 0u; r < 3u; r++) {
    order[sos_rank4(idx, r)] = r; // the padding row ranks last
  }
  for (var k = 0u; k < 3u; k++) {
    let r = order[k];
    let p = pts[select(0u, 1u, r == 0u)];
    let q = pts[select(1u, 2u, r <= 1u)];
    let v = i64_sign(i64_sub(p.xy, q.xy));
    if (v != 0) {
      return select(v, -v, (r & 1u) == 0u);
    }
  }
  let r = order[0];
  let p = pts[select(0u, 1u, r == 0u)];
  let q = pts[select(1u, 2u, r <= 1u)];
  let v = i64_sign(i64_sub(p.zw, q.zw));
  if (v != 0) {
    return select(-v, v, (r & 1u) == 0u);
  }
  // coincident sites: the term ξ(first)·η(second), coefficient ±1: the parity of the rows
  // listed in index order
  let inversions = select(0u, 1u, order[0] > order[1]) + select(0u, 1u, order[0] > order[2])
    + select(0u, 1u, order[1] > order[2]);
  return select(-1, 1, (inversions & 1u) == 0u);
}
`;
