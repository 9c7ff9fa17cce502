import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { FIXED_POINT } from './fixed-point-wgsl.js';
import { WIDE_INT } from './wide-int-wgsl.js';
/**
 * The exact clip of one Voronoi edge against the grid box, in WGSL: the fixed-point twin of the
 * CPU's `clipEdge`. Needs the wide-int and fixed-point WGSL before it (the combined `FIXED_WGSL`
 * has all) and reads the box from `grid_box_min` / `grid_box_max` (set by `grid_init`).
 *
 * `clip_bisector(si, sj, has_a, ka, a, a_inside, has_b, kb, b, b_inside) -> ClipResult`:
 * the edge of site i's cell shared with site j lies on their bisector M + t·d, with
 * M = (si + sj) / 2 and d = (sj − si) turned 90° counter-clockwise = (si.y − sj.y, sj.x − si.x)
 * (cell i on its left). It runs from vertex a, the circumcenter of (i, j, ka), to vertex b, the
 * circumcenter of (i, j, kb); a missing end (has_a / has_b false) makes a ray or a whole line.
 * a_inside / b_inside are the stored per-vertex flags (only meaningful with has_a / has_b).
 *
 * - Both ends inside: the edge (a, b) as given, flags = CLIP_VISIBLE.
 * - Otherwise every parameter is an exact rational: an end's t = ((sk − si)·(sk − sj)) /
 *   (2·cross(sj − si, sk − si)) (never the rounded vertex; a degenerate triangle puts its end at
 *   −∞ for a, +∞ for b), the box's entry/exit t from the slabs (X − Mx)/dx, (Y − My)/dy, and
 *   lo = a_inside ? t_a : max(t_a, t_entry), hi = b_inside ? t_b : min(t_b, t_exit), as `clipEdge`.
 *   With both ends outside, nothing is visible unless lo < hi (exactly); an outside end whose
 *   clipped parameter is infinite (the line misses the box) also gives nothing; si = sj too.
 * - An outside end becomes the exact point M + t·d, clamped into the box and moved onto its
 *   nearest side (ties: bottom, right, top, left, as `clipEdge`): that coordinate is exactly the
 *   side's, the other is the floor of the exact rational (a grid value inside the box). The
 *   point depends only on the exact rational value, so the neighbouring cell — called with
 *   (sj, si), the ends swapped — gets bitwise-identical points (its p1 is this p0 and vice versa).
 * - flags: CLIP_VISIBLE (1) | CLIP_ENTERS (2, p0 on the boundary) | CLIP_EXITS (4, p1 on the
 *   boundary); 0 when nothing is visible. side0 / side1: the box side of p0 / p1 when it is a
 *   boundary point (0 bottom y = minY, 1 right x = maxX, 2 top y = maxY, 3 left x = minX; a
 *   corner belongs to the side it starts counter-clockwise: (maxX, minY) → 1, (maxX, maxY) → 2,
 *   (minX, maxY) → 3, (minX, minY) → 0), CLIP_NO_SIDE otherwise.
 *
 * Bounds: grid values below 2^58 (as `fixedGrid` makes them); every product stays within 256 bits.
 */
export const CLIP_BISECTOR_WGSL = /* wgsl */ `
const CLIP_VISIBLE: u32 = 1u;
const CLIP_ENTERS: u32 = 2u;
const CLIP_EXITS: u32 = 4u;
const CLIP_NO_SIDE: u32 = 0xffffffffu;

struct ClipResult {
  flags: u32,
  p0: vec4<u32>,
  p1: vec4<u32>,
  side0: u32,
  side1: u32,
}

// an extended rational: n / d with d > 0 when inf == 0, else -inf (-1) or +inf (+1)
struct ClipParam {
  n: vec4<u32>,
  d: vec4<u32>,
  inf: i32,
}

fn clip_param_infinite(s: i32) -> ClipParam {
  return ClipParam(vec4<u32>(0u), vec4<u32>(1u, 0u, 0u, 0u), s);
}

// n / d for d != 0, with the sign moved into n
fn clip_param_ratio(n: vec4<u32>, d: vec4<u32>) -> ClipParam {
  if (i128_is_neg(d)) {
    return ClipParam(i128_neg(n), i128_neg(d), 0);
  }
  return ClipParam(n, d, 0);
}

fn clip_param_less(a: ClipParam, b: ClipParam) -> bool {
  if (a.inf != 0 || b.inf != 0) {
    return a.inf < b.inf;
  }
  return w8_cmp(i128_mul(a.n, b.d), i128_mul(b.n, a.d)) < 0;
}

// t of the circumcenter of (si, sj, sk) on the bisector; degenerate triangles give inf_side · ∞
fn clip_vertex_param(si: vec4<u32>, sj: vec4<u32>, sk: vec4<u32>, inf_side: i32) -> ClipParam {
  let ix = i64_sub(sk.xy, si.xy);
  let iy = i64_sub(sk.zw, si.zw);
  let jx = i64_sub(sk.xy, sj.xy);
  let jy = i64_sub(sk.zw, sj.zw);
  let ex = i64_sub(sj.xy, si.xy);
  let ey = i64_sub(sj.zw, si.zw);
  let n = i128_add(i64_mul(ix, jx), i64_mul(iy, jy));
  let d = i128_shl1(i128_sub(i64_mul(ex, iy), i64_mul(ey, ix)));
  if (i128_is_zero(d)) {
    return clip_param_infinite(inf_side);
  }
  return clip_param_ratio(n, d);
}

// (2 · side − s) / (2 · dir): where the line crosses the side's line (dir != 0)
fn clip_slab_param(side: vec2<u32>, s: vec2<u32>, dir: vec2<u32>) -> ClipParam {
  let n = i64_sub(i64_add(side, side), s);
  return clip_param_ratio(i128_from_i64(n), i128_from_i64(i64_add(dir, dir)));
}

// the point at finite parameter t, clamped into the box, on its nearest side
struct ClipPoint {
  p: vec4<u32>,
  side: u32,
}

fn clip_boundary_point(t: ClipParam, sx: vec2<u32>, sy: vec2<u32>, dx: vec2<u32>, dy: vec2<u32>) -> ClipPoint {
  // P = (S · t.d + 2 · t.n · dir) / (2 · t.d), numerators below 2^181, denominator below 2^122
  let q = i128_shl1(t.d);
  let n2 = i128_shl1(t.n);
  var x = w8_add(i128_mul(i128_from_i64(sx), t.d), i128_mul(n2, i128_from_i64(dx)));
  var y = w8_add(i128_mul(i128_from_i64(sy), t.d), i128_mul(n2, i128_from_i64(dy)));
  let lx = i128_mul(i128_from_i64(grid_box_min.xy), q);
  let ly = i128_mul(i128_from_i64(grid_box_min.zw), q);
  let hx = i128_mul(i128_from_i64(grid_box_max.xy), q);
  let hy = i128_mul(i128_from_i64(grid_box_max.zw), q);
  if (w8_cmp(x, lx) < 0) {
    x = lx;
  } else if (w8_cmp(x, hx) > 0) {
    x = hx;
  }
  if (w8_cmp(y, ly) < 0) {
    y = ly;
  } else if (w8_cmp(y, hy) > 0) {
    y = hy;
  }
  // nearest side, the first of bottom, right, top, left on ties
  var side = 0u;
  var least = w8_sub(y, ly);
  let right = w8_sub(hx, x);
  if (w8_cmp(right, least) < 0) {
    side = 1u;
    least = right;
  }
  let top = w8_sub(hy, y);
  if (w8_cmp(top, least) < 0) {
    side = 2u;
    least = top;
  }
  if (w8_cmp(w8_sub(x, lx), least) < 0) {
    side = 3u;
  }
  // one division whatever the side (each inlined copy of the wide division costs the driver's
  // compiler seconds): the free coordinate's floor
  var along = y;
  if (side == 0u || side == 2u) {
    along = x;
  }
  let free = w8_div_floor(along, q);
  var p: vec4<u32>;
  switch (side) {
    case 0u: {
      p = vec4<u32>(free, grid_box_min.zw);
    }
    case 1u: {
      p = vec4<u32>(grid_box_max.xy, free);
    }
    case 2u: {
      p = vec4<u32>(free, grid_box_max.zw);
    }
    default: {
      p = vec4<u32>(grid_box_min.xy, free);
    }
  }
  // a corner belongs to the side it starts counter-clockwise
  if (side == 0u && all(p.xy == grid_box_max.xy)) {
    side = 1u;
  } else if (side == 1u && all(p.zw == grid_box_max.zw)) {
    side = 2u;
  } else if (side == 2u && all(p.xy == grid_box_min.xy)) {
    side = 3u;
  } else if (side == 3u && all(p.zw == grid_box_min.zw)) {
    side = 0u;
  }
  return ClipPoint(p, side);
}

fn clip_bisector(
  si: vec4<u32>,
  sj: vec4<u32>,
  has_a: bool,
  ka: vec4<u32>,
  a: vec4<u32>,
  a_inside: bool,
  has_b: bool,
  kb: vec4<u32>,
  b: vec4<u32>,
  b_inside: bool,
) -> ClipResult {
  var r = ClipResult(0u, vec4<u32>(0u), vec4<u32>(0u), CLIP_NO_SIDE, CLIP_NO_SIDE);
  let a_in = has_a && a_inside;
  let b_in = has_b && b_inside;
  if (a_in && b_in) {
    r.flags = CLIP_VISIBLE;
    r.p0 = a;
    r.p1 = b;
    return r;
  }
  // doubled midpoint S = si + sj and direction d
  let sx = i64_add(si.xy, sj.xy);
  let sy = i64_add(si.zw, sj.zw);
  let dx = i64_sub(si.zw, sj.zw);
  let dy = i64_sub(sj.xy, si.xy);
  if (i64_is_zero(dx) && i64_is_zero(dy)) {
    return r;
  }
  // entry and exit parameters of the box
  var t0 = clip_param_infinite(-1);
  var t1 = clip_param_infinite(1);
  let two_min_x = i64_add(grid_box_min.xy, grid_box_min.xy);
  let two_max_x = i64_add(grid_box_max.xy, grid_box_max.xy);
  let two_min_y = i64_add(grid_box_min.zw, grid_box_min.zw);
  let two_max_y = i64_add(grid_box_max.zw, grid_box_max.zw);
  let sdx = i64_sign(dx);
  if (sdx > 0) {
    t0 = clip_slab_param(grid_box_min.xy, sx, dx);
    t1 = clip_slab_param(grid_box_max.xy, sx, dx);
  } else if (sdx < 0) {
    t0 = clip_slab_param(grid_box_max.xy, sx, dx);
    t1 = clip_slab_param(grid_box_min.xy, sx, dx);
  } else if (i64_lt(sx, two_min_x) || i64_lt(two_max_x, sx)) {
    t0 = clip_param_infinite(1);
    t1 = clip_param_infinite(-1);
  }
  let sdy = i64_sign(dy);
  if (sdy != 0) {
    let y0 = clip_slab_param(select(grid_box_max.zw, grid_box_min.zw, sdy > 0), sy, dy);
    let y1 = clip_slab_param(select(grid_box_min.zw, grid_box_max.zw, sdy > 0), sy, dy);
    if (clip_param_less(t0, y0)) {
      t0 = y0;
    }
    if (clip_param_less(y1, t1)) {
      t1 = y1;
    }
  } else if (i64_lt(sy, two_min_y) || i64_lt(two_max_y, sy)) {
    t0 = clip_param_infinite(1);
    t1 = clip_param_infinite(-1);
  }
  var lo = clip_param_infinite(-1);
  if (!a_in) {
    if (has_a) {
      lo = clip_vertex_param(si, sj, ka, -1);
    }
    if (clip_param_less(lo, t0)) {
      lo = t0;
    }
  }
  var hi = clip_param_infinite(1);
  if (!b_in) {
    if (has_b) {
      hi = clip_vertex_param(si, sj, kb, 1);
    }
    if (clip_param_less(t1, hi)) {
      hi = t1;
    }
  }
  if (!a_in && !b_in && !clip_param_less(lo, hi)) {
    return r;
  }
  if ((!a_in && lo.inf != 0) || (!b_in && hi.inf != 0)) {
    return r;
  }
  r.flags = CLIP_VISIBLE;
  r.p0 = a;
  r.p1 = b;
  // the outside ends, through one call site of the boundary point (a loop the compiler cannot
  // unroll: its count is not a constant), since every inlined copy multiplies compile time
  var end = select(1u, 0u, !a_in);
  let last = select(0u, 1u, !b_in);
  for (; end <= last; end++) {
    var t = lo;
    if (end == 1u) {
      t = hi;
    }
    let c = clip_boundary_point(t, sx, sy, dx, dy);
    if (end == 0u) {
      r.p0 = c.p;
      r.side0 = c.side;
      r.flags |= CLIP_ENTERS;
    } else {
      r.p1 = c.p;
      r.side1 = c.side;
      r.flags |= CLIP_EXITS;
    }
  }
  return r;
}
`;

/** {@link CLIP_BISECTOR_WGSL} as a module. */
export const CLIP_BISECTOR: WgslModule = wgslModule('exact/clip-bisector', CLIP_BISECTOR_WGSL, [
  WIDE_INT,
  FIXED_POINT,
]);
