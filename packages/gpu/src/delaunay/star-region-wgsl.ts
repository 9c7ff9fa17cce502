import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_COMMON } from './star-common-wgsl.js';

/**
 * The error margins of a conflict region's disk (see `disk_from` below; the tests replay it under
 * adversarial f32 rounding with these values).
 */
export const REGION_BOUNDS = {
  /** Relative error bound of the float steps of the centre's numerator and quotient: 2^-18. */
  radiusSlack: 2 ** -18,
  /** The radius's growth for a disk from the float cross product: 1 + 2^-10. */
  radiusMargin: 1 + 2 ** -10,
  /** The radius's growth for a disk from the exact cross product (its own rounding, a few ULPs, 4× over): 1 + 2^-18. */
  tightRadiusMargin: 1 + 2 ** -18,
  /** The exact cross product's relative error once truncated to 24 bits (below 2^-23, 4× over): 2^-21. */
  crossRelErr: 2 ** -21,
  /** Cells added to every disk: the site's position inside its cell: 2^-10. */
  cellMargin: 2 ** -10,
} as const;

/**
 * Conflict regions of a star's triangles (float supersets of their circumdisks, or half-planes
 * for large circles) and the tests of cells and boxes against them; they only decide where to
 * search, never the topology. Part of the star module (`starSearchModule` links it).
 */
export const STAR_REGION: WgslModule = wgslModule(
  'delaunay/star-region',
  /* wgsl */ `
const RADIUS_SLACK: f32 = ${REGION_BOUNDS.radiusSlack};
const RADIUS_MARGIN: f32 = ${REGION_BOUNDS.radiusMargin};
const CELL_MARGIN: f32 = ${REGION_BOUNDS.cellMargin};
const TIGHT_RADIUS_MARGIN: f32 = ${REGION_BOUNDS.tightRadiusMargin};
const CROSS_REL_ERR: f32 = ${REGION_BOUNDS.crossRelErr};

// v · 2^−k for an i128 v, |v| truncated to 24 significant bits (relative error below 2^−23);
// the caller keeps the exponent normal
fn i128_to_f32_scaled(v: vec4u, k: i32) -> f32 {
  let neg = i128_is_neg(v);
  let m = select(v, i128_neg(v), neg);
  var top = 3u;
  while (top > 0u && m[top] == 0u) {
    top--;
  }
  if (m[top] == 0u) {
    return 0.0;
  }
  let window = vec2u(select(0u, m[max(top, 1u) - 1u], top > 0u), m[top]);
  let wl = u64_bit_length(window);
  let len = wl + 32u * max(top, 1u) - 32u;
  var mant: u32;
  if (wl > 24u) {
    mant = u64_shr(window, wl - 24u).x;
  } else {
    mant = window.x << (24u - wl);
  }
  let biased = u32(i32(len) - 1 - k + 127);
  return bitcast<f32>(select(0u, 0x80000000u, neg) | (biased << 23u) | (mant & 0x7fffffu));
}

// exact difference q − p of two grid points, in cells (relative error below 2^−23 a coordinate)
fn cells_between(p: vec4u, q: vec4u) -> vec2f {
  let sh = i32(params.shift);
  return vec2f(i64_to_f32_scaled(i64_sub(q.xy, p.xy), sh), i64_to_f32_scaled(i64_sub(q.zw, p.zw), sh));
}

// Where a site in conflict with star triangle (i, a, b) (counter-clockwise) can lie, enlarged
// conservatively, in cells from the corner of the site's cell (f: the site's position in it).
// With m the vertex of the largest angle (opposite the longest side pq, (p, q, m) a rotation of
// (i, a, b)), computed from m, where the float formula is well conditioned unless the triangle
// is flat:
// - its circumdisk, (centre.x, centre.y, radius, 0);
// - for a large circle (radius over 4·|pq|, or a triangle too flat for the float circumcentre)
//   with an obtuse angle at m, a half-plane (whose search is then also bounded by the disk's box
//   in \`disk_box\` when the disk is known) (n.x, n.y, c, 1) holding
//   {x : n·x ≤ c}: n is the unit normal of p→q towards m; the disk lies beyond pq except for the
//   cap on m's side, at most |pq|·|cross| / (2·|pm|·|mq|) deep (c²/R with c = |pq|/2; valid as m
//   lies on the minor arc), |cross| twice the area, exact;
// - (0, 0, 0, -1) when neither can be bounded (not expected; every cell is then visited).
fn conflict_region(pi: vec4u, pa: vec4u, pb: vec4u, f: vec2f, disk_box: ptr<function, vec4f>) -> vec4f {
  *disk_box = vec4f(-1e30, -1e30, 1e30, 1e30);
  let ia = cells_between(pi, pa);
  let ib = cells_between(pi, pb);
  let ab = cells_between(pa, pb);
  let l_ia = length(ia);
  let l_ib = length(ib);
  let l_ab = length(ab);
  // rotation (p, q, m) of (i, a, b) with m opposite the longest side
  var pm = pi; // m = b: (p, q) = (i, a)
  var pp = pi;
  var pq = pa;
  var l_pq = l_ia;
  var l_pm = l_ib;
  var l_mq = l_ab;
  if (l_ab >= l_ia && l_ab >= l_ib) {
    pm = pi; // m = i: (p, q) = (a, b)
    pp = pa;
    pq = pb;
    l_pq = l_ab;
    l_pm = l_ia;
    l_mq = l_ib;
  } else if (l_ib >= l_ia) {
    pm = pa; // m = a: (p, q) = (b, i)
    pp = pb;
    pq = pi;
    l_pq = l_ib;
    l_pm = l_ab;
    l_mq = l_ia;
  } else {
    pm = pb;
  }
  let v1 = cells_between(pm, pp);
  let v2 = cells_between(pm, pq);
  let origin = f + cells_between(pi, pm);
  let t1 = v1.x * v2.y;
  let t2 = v1.y * v2.x;
  let cross_err = RADIUS_SLACK * (abs(t1) + abs(t2));
  // the half-plane is the tighter bound for large circles whose cross product the floats lose
  // (the disk's error margins grow with its radius); it needs an obtuse angle at m
  let obtuse = l_pq * l_pq > (l_pm * l_pm + l_mq * l_mq) * RADIUS_MARGIN && l_pm * l_mq > 0.0;
  var disk = disk_from(origin, v1, v2, t1 - t2, cross_err, RADIUS_MARGIN);
  if (disk.w == 0.0) {
    *disk_box = vec4f(disk.xy - vec2f(disk.z), disk.xy + vec2f(disk.z));
    if (!obtuse || disk.z < 4.0 * l_pq) {
      return disk;
    }
  }
  if (!obtuse) {
    return disk; // not bounded by the float formula and not flat: not expected
  }
  // a large circle through an obtuse m: the exact cross product; with it the disk again, whose
  // margins are then a few units in 2^18 of its radius (the float cross product's error, relative
  // to a small cross product, is what made them grow with the square of the radius) ...
  let dx1 = i64_sub(pp.xy, pm.xy);
  let dy1 = i64_sub(pp.zw, pm.zw);
  let dx2 = i64_sub(pq.xy, pm.xy);
  let dy2 = i64_sub(pq.zw, pm.zw);
  let sh = i32(params.shift);
  let signed_cross = i128_to_f32_scaled(i128_sub(i64_mul(dx1, dy2), i64_mul(dy1, dx2)), 2 * sh);
  let cross = abs(signed_cross);
  let exact_disk = disk_from(origin, v1, v2, signed_cross, CROSS_REL_ERR * cross, TIGHT_RADIUS_MARGIN);
  if (exact_disk.w == 0.0) {
    *disk_box = vec4f(exact_disk.xy - vec2f(exact_disk.z), exact_disk.xy + vec2f(exact_disk.z));
    // ... which is kept while they stay under a cell (a disk of radius up to ~2^16 cells): it
    // follows the circle where the half-plane runs along the hull to its chord's far crossing
    if (exact_disk.z - sqrt(dot(exact_disk.xy - origin, exact_disk.xy - origin)) < 1.0) {
      return exact_disk;
    }
  }
  // ... or the half-plane: the cap's depth, the line pq
  let depth = RADIUS_MARGIN * l_pq * cross / (2.0 * l_pm * l_mq);
  let d = cells_between(pp, pq);
  let n = vec2f(-d.y, d.x) / length(d); // left of p→q: towards m
  let pc = f + cells_between(pi, pp);
  let slack = CELL_MARGIN + RADIUS_SLACK * (abs(pc.x) + abs(pc.y) + f32(params.grid_w + params.grid_h));
  let c = dot(n, pc) + depth + slack;
  if (!(abs(c) < 1e15)) {
    return disk;
  }
  half_planes++;
  return vec4f(n, c, 1.0);
}

// The circumdisk of (m, m + v1, m + v2) (origin: m in cells from the site's cell corner) enlarged
// to hold the exact one: two_cross ≈ 2 × its exact value (v1 × v2) within cross_err, the offsets
// v1, v2 relative to 2^−23 a coordinate; (centre, radius, 0), or w = −1 when the cross product's
// sign is uncertain or the disk too large for floats. Centre relative to m:
// (v2.y·|v1|² − v1.y·|v2|², v1.x·|v2|² − v2.x·|v1|²) / (2·cross); its error bound err is on the L1
// norm (so on the Euclidean one), and the true disk lies within radius + 2·err of the centre.
fn disk_from(origin: vec2f, v1: vec2f, v2: vec2f, cross: f32, cross_err: f32, margin: f32) -> vec4f {
  let cross_low = abs(cross) - cross_err;
  if (!(cross_low > 0.0)) {
    return vec4f(0.0, 0.0, 0.0, -1.0);
  }
  let l1 = dot(v1, v1);
  let l2 = dot(v2, v2);
  let nx = v2.y * l1 - v1.y * l2;
  let ny = v1.x * l2 - v2.x * l1;
  let two_cross = 2.0 * cross;
  let ux = nx / two_cross;
  let uy = ny / two_cross;
  let n_err = RADIUS_SLACK * (abs(v2.y) * l1 + abs(v1.y) * l2 + abs(v1.x) * l2 + abs(v2.x) * l1);
  let err = RADIUS_MARGIN * (n_err + (abs(nx) + abs(ny)) * cross_err / cross_low) / (2.0 * cross_low)
    + RADIUS_SLACK * (abs(ux) + abs(uy)) + CELL_MARGIN;
  let radius = sqrt(ux * ux + uy * uy);
  let rho = margin * radius + 2.0 * err;
  if (!(rho < 1e15)) {
    return vec4f(0.0, 0.0, 0.0, -1.0);
  }
  return vec4f(origin + vec2f(ux, uy), rho, 0.0);
}

// the region meets the closed rectangle [lo, hi] (touching counts)
fn region_meets(region: vec4f, lo: vec2f, hi: vec2f) -> bool {
  if (region.w == 0.0) {
    let d = clamp(region.xy, lo, hi) - region.xy;
    return dot(d, d) <= region.z * region.z;
  }
  let n = region.xy;
  let corner = vec2f(select(lo.x, hi.x, n.x < 0.0), select(lo.y, hi.y, n.y < 0.0));
  return dot(n, corner) <= region.z;
}

// one edge u → v of a convex polygon clipped by the half-plane region {x : n·x ≤ c}: its start when
// inside and its crossing of the line grow the box b (lo in .xy, hi in .zw)
fn box_add_edge(region: vec4f, u: vec2f, v: vec2f, b: ptr<function, vec4f>) {
  let su = dot(region.xy, u) - region.z;
  let sv = dot(region.xy, v) - region.z;
  if (su <= 0.0) {
    *b = vec4f(min((*b).xy, u), max((*b).zw, u));
  }
  if ((su < 0.0) != (sv < 0.0) && su != sv) {
    let x = u + (v - u) * clamp(su / (su - sv), 0.0, 1.0);
    *b = vec4f(min((*b).xy, x), max((*b).zw, x));
  }
}

// bounding box (lo, hi) of the region inside the rectangle [lo, hi] (lo > hi when they miss):
// a disk's box clipped, or the rectangle clipped by the half-plane (its corners inside and the
// crossings of its sides)
fn region_box(region: vec4f, lo: vec2f, hi: vec2f) -> vec4f {
  if (region.w == 0.0) {
    return vec4f(max(lo, region.xy - vec2f(region.z)), min(hi, region.xy + vec2f(region.z)));
  }
  let corners = array<vec2f, 4>(lo, vec2f(hi.x, lo.y), hi, vec2f(lo.x, hi.y));
  var b = vec4f(vec2f(1e30), vec2f(-1e30));
  for (var k = 0u; k < 4u; k++) {
    box_add_edge(region, corners[k], corners[(k + 1u) % 4u], &b);
  }
  // the crossing is rounded: widen by a little (only decides which cells are tested)
  return vec4f(b.xy - vec2f(CELL_MARGIN), b.zw + vec2f(CELL_MARGIN));
}

// The region meets no grid cell outside the searched block (rings 0..r around the site's cell
// (cx, cy)): the unsearched part of the grid is up to four strips around the block. Then no
// unseen site can conflict with the triangle.
fn region_searched(region: vec4f, box: vec4f, r: i32, cx: i32, cy: i32) -> bool {
  let rf = f32(r);
  let w = i32(params.grid_w);
  let h = i32(params.grid_h);
  if (cx - r > 0 && region_meets_in(region, box, vec4f(-1e30, -1e30, -rf, 1e30))) {
    return false;
  }
  if (cx + r + 1 < w && region_meets_in(region, box, vec4f(rf + 1.0, -1e30, 1e30, 1e30))) {
    return false;
  }
  if (cy - r > 0 && region_meets_in(region, box, vec4f(-1e30, -1e30, 1e30, -rf))) {
    return false;
  }
  if (cy + r + 1 < h && region_meets_in(region, box, vec4f(-1e30, rf + 1.0, 1e30, 1e30))) {
    return false;
  }
  return true;
}

// the region meets the rectangle a ∩ b (rectangles as (lo, hi))
fn region_meets_in(region: vec4f, a: vec4f, b: vec4f) -> bool {
  let lo = max(a.xy, b.xy);
  let hi = min(a.zw, b.zw);
  return all(lo <= hi) && region_meets(region, lo, hi);
}

// The bounding box of a half-plane region inside the convex hull (its vertices inside the
// half-plane and the crossings of its edges), for hulls of at most params.hull_clip_limit vertices;
// otherwise everything. Cells outside the hull hold no site, so only this part of a large circle
// near the boundary needs searching.
fn hull_clip_box(region: vec4f, pi: vec4u, f: vec2f) -> vec4f {
  let everything = vec4f(-1e30, -1e30, 1e30, 1e30);
  let hn = params.hull_count;
  if (region.w != 1.0 || hn > params.hull_clip_limit) {
    return everything;
  }
  hull_clips++;
  var b = vec4f(vec2f(1e30), vec2f(-1e30));
  let first = f + cells_between(pi, sites[hull_triples[0]]);
  var u = first;
  for (var k = 0u; k < hn; k++) {
    let v = select(f + cells_between(pi, sites[hull_triples[3u * (k + 1u)]]), first, k + 1u == hn);
    box_add_edge(region, u, v, &b);
    u = v;
  }
  let slack = vec2f(CELL_MARGIN + RADIUS_SLACK * f32(params.grid_w + params.grid_h));
  return vec4f(b.xy - slack, b.zw + slack);
}

// The bounding box of what a star pair's conflict region (\`conflict_region\`, with its disk's box)
// may still hold outside rings 0..r around the site's cell (cx, cy): inside the grid, the hull
// (half-planes) and the disk's box; empty (lo > hi) when nothing unsearched can conflict.
fn unsearched_box(region: vec4f, disk_box: vec4f, pi: vec4u, f: vec2f, r: i32, cx: i32, cy: i32) -> vec4f {
  let grid_lo = vec2f(f32(-cx), f32(-cy));
  let grid_hi = vec2f(f32(i32(params.grid_w) - cx), f32(i32(params.grid_h) - cy));
  let grid_box = region_box(region, grid_lo, grid_hi);
  let clip = hull_clip_box(region, pi, f);
  // a half-plane region is still inside its disk's box when the disk is known
  let box = vec4f(max(max(grid_box.xy, clip.xy), disk_box.xy), min(min(grid_box.zw, clip.zw), disk_box.zw));
  if (any(box.xy > box.zw) || region_searched(region, box, r, cx, cy)) {
    return vec4f(1.0, 1.0, 0.0, 0.0);
  }
  return box;
}
`,
  [STAR_COMMON],
);
