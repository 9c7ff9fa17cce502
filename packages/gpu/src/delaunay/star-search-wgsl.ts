import { HALFEDGE_WGSL } from '../voronoi/cells/walk-kernels.js';
import { FIXED_WGSL } from '../voronoi/fixed/fixed-wgsl.js';
import { DELAUNAY_PREDICATES_WGSL } from './predicates/predicates-wgsl.js';

/*
 * Per-site Delaunay stars (ADR 0013). One thread per site i builds the cyclic counter-clockwise
 * list of its Delaunay neighbours by inserting the sites of the bucket grid ring by ring around
 * its cell. The list may hold the marker NONE (the vertex at infinity): a pair (a, NONE) or
 * (NONE, b) is an infinite triangle, an open wedge of the star. Conflicts:
 * - finite (i, a, b): `incircle_sos(i, a, b, l) > 0` (exact, ties by index);
 * - (i, a, ∞): l strictly left of i→a, or on the line strictly between i and a;
 * - (i, ∞, b): l strictly right of i→b, or on the line strictly between i and b.
 * The orientation tests are exact and unperturbed: with `incircle_sos` that is the lifted-weight
 * perturbation only, whose triangulation has every site on a hull edge as a vertex and no flat
 * triangle. The conflicting triangles are contiguous; the neighbours strictly inside the run are
 * replaced by l. A single neighbour a (the star [a, NONE]) is a half-plane, handled on its own:
 * a candidate on the line through i and a either splits it into a strip (opposite side),
 * replaces a (between) or is dropped (beyond).
 */

/**
 * Most entries (neighbours and infinity markers) a star may hold (the stars buffer's stride and
 * the tail pass's capacity); more flags the site.
 */
export const STAR_CAPACITY = 48;
/**
 * Entries of a first-pass star (a thread's private arrays scale with it); a star that needs more
 * starts again in the tail pass with {@link STAR_CAPACITY}.
 */
export const STAR_FIRST_CAPACITY = 12;
/** Star info ring field of a star the tail pass must build from scratch (it overflowed). */
export const STAR_RESTART = 0xffffff;
/** Threads per workgroup of the star kernels. */
export const STAR_WORKGROUP_SIZE = 64;

/** Star status: final (its neighbours are the site's Delaunay neighbours). */
export const STAR_FINAL = 1;
/** Star status: more than {@link STAR_CAPACITY} entries were needed. */
export const STAR_OVERFLOW = 2;
/** Star status: still open or too large after the ring limit. */
export const STAR_RING_LIMIT = 4;
/** Star status: the predicates gave a non-contiguous or otherwise impossible conflict set. */
export const STAR_INCONSISTENT = 8;
/** Star status: more candidates than the budget were examined. */
export const STAR_BUDGET = 16;
/** Star info flag (beside the status): the hull's vertices were inserted as candidates. */
export const STAR_HULL_SEEDED = 128;

/**
 * Words of the star statistics buffer: sites not final, sum of rings, largest ring, finite
 * conflict tests, tests not decided by the float filter, candidates examined, sites whose star
 * disagrees with a neighbour's (written by the count kernel), most candidates of one site, sites
 * that searched more than 4 rings, grid cells visited (tested against the pending regions) summed
 * over sites, most cells one site visited, finality checks (each recomputes the star's pending
 * regions) summed over sites, most of one site, cheap finality checks of an unchanged star
 * (narrowing its pending regions) summed over sites, sites handed from the first pass to the
 * cooperative tail pass, half-plane conflict regions computed, half-plane regions clipped by the
 * hull (a loop over the hull's vertices each).
 */
export const STAR_STATS_WORDS = 17;

/** Constants and helpers of every star kernel. */
export const STAR_COMMON_WGSL = /* wgsl */ `
${HALFEDGE_WGSL}
${FIXED_WGSL}
${DELAUNAY_PREDICATES_WGSL}
const STRIDE: u32 = ${STAR_CAPACITY}u; // words a star in the stars buffer
const STATUS_FINAL: u32 = ${STAR_FINAL}u;
const STATUS_OVERFLOW: u32 = ${STAR_OVERFLOW}u;
const STATUS_RING_LIMIT: u32 = ${STAR_RING_LIMIT}u;
const STATUS_INCONSISTENT: u32 = ${STAR_INCONSISTENT}u;
const STATUS_BUDGET: u32 = ${STAR_BUDGET}u;
const HULL_SEEDED: u32 = ${STAR_HULL_SEEDED}u;
const RESTART: u32 = ${STAR_RESTART}u;
const STATUS_BITS: u32 = ${STAR_HULL_SEEDED - 1}u;
`;

/**
 * What both star passes share, for stars of at most `capacity` entries (≤ {@link STAR_CAPACITY}),
 * `lanes` stars a workgroup (their arrays in workgroup memory, a star per `slot`): params, bindings 0–8, a star's private state, the insertion, the
 * conflict regions and finality checks, the cells of a ring and the statistics. Params: sites,
 * grid width, grid height, shift (a cell is 2^shift grid units), min x (i64), min y (i64), ring
 * limit, candidate budget, hull count, the largest hull whose vertices an open star may take as
 * candidates, tail (1: the first pass hands stars unfinished at its ring limit to the tail pass;
 * those over its capacity go there always).
 * Bindings: 1 fixed sites (`vec4u`), 2 cell starts (scanned counts, cells + 1), 3 site indices by
 * cell, 4 hull neighbours (`vec2u` (prev + 1, next + 1) on the convex hull, zero elsewhere), 5
 * stars (`STRIDE` words a site), 6 star info (`vec2u` (length, status | hull seeded | ring << 8)), 7
 * statistics (atomic words, cleared), 8 hull triples (site, prev, next) counter-clockwise.
 */
export const starSearchWgsl = (capacity: number, lanes: number): string => /* wgsl */ `${STAR_COMMON_WGSL}
const CAP: u32 = ${capacity}u; // entries a star may hold in this pass
const LANES: u32 = ${lanes}u; // stars a workgroup holds
struct Params {
  sites: u32, grid_w: u32, grid_h: u32, shift: u32,
  min_x: vec2u, min_y: vec2u,
  max_ring: u32, max_candidates: u32, hull_count: u32, hull_seed_limit: u32, tail: u32,
  hull_clip_limit: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read> cell_start: array<u32>;
@group(0) @binding(3) var<storage, read> cell_sites: array<u32>;
@group(0) @binding(4) var<storage, read> hull_nbr: array<vec2u>;
@group(0) @binding(5) var<storage, read_write> stars: array<u32>;
@group(0) @binding(6) var<storage, read_write> star_info: array<vec2u>;
@group(0) @binding(7) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read> hull_triples: array<u32>;

// A star's arrays live in workgroup memory, entry t of lane slot at t * LANES + slot: lanes at
// different entries still hit distinct banks, where private arrays (in local memory) made every
// divergent access its own memory transaction (ADR 0013)
var<private> slot: u32;
var<workgroup> star_s: array<u32, CAP * LANES>;
// per pair (star[t], star[t + 1]): its conflict region, computed when the pair forms
var<workgroup> reg_of_s: array<vec4f, CAP * LANES>;
var<private> f_site: vec2f; // the site's position inside its cell, in cells
var<private> len: u32;
var<private> tests: u32;
var<private> filtered_out: u32;
var<private> seen: u32;
var<private> cells_visited: u32;
var<private> final_checks: u32;
var<private> final_narrowings: u32;
var<private> half_planes: u32;
var<private> hull_clips: u32;
var<private> edits: u32; // changes of a closed star (to know when its pending regions are stale)
var<private> checked_edits: u32; // edits at the last full finality check
var<private> hull_seeded: bool;
var<private> prev_hull: u32;
var<private> next_hull: u32;
// conflict regions still meeting unsearched cells after the last ring, and their bounding box
var<workgroup> pend_s: array<vec4f, CAP * LANES>;
var<workgroup> pend_box_s: array<vec4f, CAP * LANES>; // each region's bounding box (grid and hull clipped)
var<workgroup> pend_ab_s: array<vec2u, CAP * LANES>; // each region's triangle (i, a, b): a and b
var<private> npend: u32;
var<private> pend_lo: vec2f;
var<private> pend_hi: vec2f;
const NO_SKIP: u32 = 0xffffffffu; // npend: the star has an open wedge to close, visit every cell

// 2R < r cells, conservatively: false whenever unsure (it only decides when to stop searching)
const RADIUS_SLACK: f32 = 3.814697265625e-6; // 2^-18, covers conversion and product roundings
const RADIUS_MARGIN: f32 = 1.0009765625; // 1 + 2^-10
const CELL_MARGIN: f32 = 0.0009765625; // 2^-10 cells: the site's position inside its cell

fn nxt(t: u32) -> u32 {
  return select(t + 1u, 0u, t + 1u == len);
}

fn prv(t: u32) -> u32 {
  return select(t - 1u, len - 1u, t == 0u);
}

// l strictly between p and q, all three on one line (distinct): lexicographic order is line order
fn strictly_between(p: vec4u, l: vec4u, q: vec4u) -> bool {
  return (fixed_less(p, l) && fixed_less(l, q)) || (fixed_less(q, l) && fixed_less(l, p));
}

// the conflict region of pair t: (0, 0, 0, -1) for an infinite pair (every site may conflict)
fn pair_region(pi: vec4u, t: u32) -> vec4f {
  let a = star_s[t * LANES + slot];
  let b = star_s[nxt(t) * LANES + slot];
  if (a == NONE || b == NONE) {
    return vec4f(0.0, 0.0, 0.0, -1.0);
  }
  var box: vec4f;
  return conflict_region(pi, sites[a], sites[b], f_site, &box);
}

fn fill_regions(pi: vec4u) {
  for (var t = 0u; t < len; t++) {
    reg_of_s[t * LANES + slot] = pair_region(pi, t);
  }
}

// l (at lp) conflicts with pair t exactly (the pair's region let it through)
fn conflicts(i: u32, pi: vec4u, t: u32, l: u32, pl: vec4u) -> bool {
  let a = star_s[t * LANES + slot];
  let b = star_s[nxt(t) * LANES + slot];
  if (a == NONE) {
    let pb = sites[b];
    let o = orient_sign(pi, pl, pb);
    return o > 0 || (o == 0 && strictly_between(pi, pl, pb));
  }
  let pa = sites[a];
  if (b == NONE) {
    let o = orient_sign(pi, pa, pl);
    return o > 0 || (o == 0 && strictly_between(pi, pl, pa));
  }
  let pb = sites[b];
  tests += 1u;
  let s = incircle_sign_path(pi, pa, pb, pl);
  if (s.y != 0) {
    filtered_out += 1u;
  }
  if (s.x != 0) {
    return s.x > 0;
  }
  return incircle_sos(pi, pa, pb, pl, i, a, b, l) > 0;
}

fn bit_of(mask: vec2u, t: u32) -> bool {
  return select((mask.y >> (t - 32u)) & 1u, (mask.x >> t) & 1u, t < 32u) != 0u;
}

// inserts candidate l into the star; returns status bits of a failure (0 when fine)
fn insert(i: u32, pi: vec4u, l: u32) -> u32 {
  let pl = sites[l];
  let lp = f_site + cells_between(pi, pl);
  if (len == 0u) {
    star_s[0 * LANES + slot] = l;
    star_s[1 * LANES + slot] = NONE;
    len = 2u;
    fill_regions(pi);
    return 0u;
  }
  if (len == 2u) {
    // the half-plane [a, NONE]
    let a = star_s[0 * LANES + slot];
    let pa = sites[a];
    let o = orient_sign(pi, pa, pl);
    if (o > 0) {
      star_s[1 * LANES + slot] = l;
      star_s[2 * LANES + slot] = NONE;
      len = 3u;
    } else if (o < 0) {
      star_s[2 * LANES + slot] = l;
      len = 3u;
    } else if (fixed_less(pl, pi) != fixed_less(pa, pi)) {
      star_s[2 * LANES + slot] = l;
      star_s[3 * LANES + slot] = NONE;
      len = 4u;
    } else if (strictly_between(pi, pl, pa)) {
      star_s[0 * LANES + slot] = l;
    }
    fill_regions(pi);
    return 0u;
  }
  // two steps, so that a warp's threads run each together: the pairs whose region l meets (a
  // float test, every pair), then the exact test on those only (a thread has one or two)
  var maybe = vec2u(0u, 0u);
  for (var t = 0u; t < len; t++) {
    let region = reg_of_s[t * LANES + slot];
    if (region.w < 0.0 || region_meets(region, lp, lp)) {
      if (t < 32u) {
        maybe.x |= 1u << t;
      } else {
        maybe.y |= 1u << (t - 32u);
      }
    }
  }
  var mask = vec2u(0u, 0u);
  while (any(maybe != vec2u(0u))) {
    var t: u32;
    if (maybe.x != 0u) {
      t = firstTrailingBit(maybe.x);
      maybe.x &= maybe.x - 1u;
    } else {
      t = 32u + firstTrailingBit(maybe.y);
      maybe.y &= maybe.y - 1u;
    }
    if (conflicts(i, pi, t, l, pl)) {
      if (t < 32u) {
        mask.x |= 1u << t;
      } else {
        mask.y |= 1u << (t - 32u);
      }
    }
  }
  let total = countOneBits(mask.x) + countOneBits(mask.y);
  if (total == 0u) {
    return 0u;
  }
  if (total == len) {
    return STATUS_INCONSISTENT;
  }
  var s = 0u;
  for (var t = 0u; t < len; t++) {
    if (bit_of(mask, t) && !bit_of(mask, prv(t))) {
      s = t;
      break;
    }
  }
  var k = 0u;
  var t = s;
  while (bit_of(mask, t)) {
    k++;
    t = nxt(t);
  }
  if (k != total) {
    return STATUS_INCONSISTENT;
  }
  // entries s+1 .. s+k-1 leave; l goes between entries s and s+k
  let keep = len - k + 1u;
  if (keep + 1u > CAP) {
    return STATUS_OVERFLOW;
  }
  let p = star_s[s * LANES + slot];
  let q = star_s[t * LANES + slot];
  if (p != NONE && orient_sign(pi, sites[p], pl) <= 0) {
    return STATUS_INCONSISTENT;
  }
  if (q != NONE && orient_sign(pi, pl, sites[q]) <= 0) {
    return STATUS_INCONSISTENT;
  }
  // in place: the pairs between kept entries keep their regions (a pair moves with its first
  // entry), (p, l) and (l, q) are new
  var fresh: u32;
  if (t <= s) {
    // the run wraps round the end (or ends there): keep entries t..s, then l
    let m = s - t + 1u;
    for (var j = 0u; j < m; j++) {
      star_s[j * LANES + slot] = star_s[(t + j) * LANES + slot];
      reg_of_s[j * LANES + slot] = reg_of_s[(t + j) * LANES + slot];
    }
    star_s[m * LANES + slot] = l;
    len = m + 1u;
    fresh = m - 1u;
  } else if (t == s + 1u) {
    // nothing leaves: open a slot after s
    for (var j = len; j > t; j--) {
      star_s[j * LANES + slot] = star_s[(j - 1u) * LANES + slot];
      reg_of_s[j * LANES + slot] = reg_of_s[(j - 1u) * LANES + slot];
    }
    star_s[t * LANES + slot] = l;
    len += 1u;
    fresh = s;
  } else {
    // entries s+1 .. t-1 leave: l takes s+1, the entries from t on move down
    let d = t - s - 2u;
    star_s[(s + 1u) * LANES + slot] = l;
    for (var j = t; j < len; j++) {
      star_s[(j - d) * LANES + slot] = star_s[j * LANES + slot];
      reg_of_s[(j - d) * LANES + slot] = reg_of_s[j * LANES + slot];
    }
    len -= d;
    fresh = s;
  }
  // the two new pairs (p, l) and (l, q), at fresh and after it
  reg_of_s[fresh * LANES + slot] = pair_region(pi, fresh);
  reg_of_s[nxt(fresh) * LANES + slot] = pair_region(pi, nxt(fresh));
  edits++;
  return 0u;
}

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
  let cross_low = abs(t1 - t2) - cross_err;
  // the half-plane is the tighter bound for large circles (the disk's error margins grow with its
  // radius); it needs an obtuse angle at m
  let obtuse = l_pq * l_pq > (l_pm * l_pm + l_mq * l_mq) * RADIUS_MARGIN && l_pm * l_mq > 0.0;
  var disk = vec4f(0.0, 0.0, 0.0, -1.0);
  if (cross_low > 0.0) {
    // circumcentre relative to m: (v2.y·|v1|² − v1.y·|v2|², v1.x·|v2|² − v2.x·|v1|²) / (2·cross)
    let l1 = dot(v1, v1);
    let l2 = dot(v2, v2);
    let nx = v2.y * l1 - v1.y * l2;
    let ny = v1.x * l2 - v2.x * l1;
    let two_cross = 2.0 * (t1 - t2);
    let ux = nx / two_cross;
    let uy = ny / two_cross;
    let n_err = RADIUS_SLACK * (abs(v2.y) * l1 + abs(v1.y) * l2 + abs(v1.x) * l2 + abs(v2.x) * l1);
    let err = RADIUS_MARGIN * (n_err + (abs(nx) + abs(ny)) * cross_err / cross_low) / (2.0 * cross_low)
      + RADIUS_SLACK * (abs(ux) + abs(uy)) + CELL_MARGIN;
    let radius = sqrt(ux * ux + uy * uy);
    let rho = RADIUS_MARGIN * radius + 2.0 * err;
    if (rho < 1e15) {
      disk = vec4f(origin + vec2f(ux, uy), rho, 0.0);
      *disk_box = vec4f(disk.xy - vec2f(rho), disk.xy + vec2f(rho));
      if (!obtuse || radius < 4.0 * l_pq) {
        return disk;
      }
    }
  }
  if (!obtuse) {
    return disk; // not bounded by the float formula and not flat: not expected
  }
  // a large circle through an obtuse m: the exact cross product, the cap's depth, the line pq
  let dx1 = i64_sub(pp.xy, pm.xy);
  let dy1 = i64_sub(pp.zw, pm.zw);
  let dx2 = i64_sub(pq.xy, pm.xy);
  let dy2 = i64_sub(pq.zw, pm.zw);
  let sh = i32(params.shift);
  let cross = abs(i128_to_f32_scaled(i128_sub(i64_mul(dx1, dy2), i64_mul(dy1, dx2)), 2 * sh));
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

// 1 final, 0 not yet, -1 impossible (a complete star of the wrong shape)
fn star_final(pi: vec4u, r: i32, cx: i32, cy: i32, f: vec2f, hull: vec2u, complete: bool) -> i32 {
  final_checks++;
  var infinite = 0u;
  var at = 0u;
  for (var t = 0u; t < len; t++) {
    if (star_s[t * LANES + slot] == NONE) {
      infinite++;
      at = t;
    }
  }
  let fail = select(0, -1, complete);
  npend = NO_SKIP;
  if (len < 3u) {
    return fail;
  }
  if (hull.x != 0u) {
    // a hull site keeps exactly one open wedge, from its previous to its next hull neighbour
    if (infinite != 1u || star_s[(prv(at)) * LANES + slot] != hull.x - 1u || star_s[(nxt(at)) * LANES + slot] != hull.y - 1u) {
      return fail;
    }
  } else if (infinite != 0u) {
    return fail;
  }
  if (complete) {
    return 1;
  }
  // the regions that still meet unsearched cells; only cells meeting one of them need a visit
  // (the union of a closed star's circumdisks only shrinks as sites are inserted)
  npend = 0u;
  pend_lo = vec2f(1e30);
  pend_hi = vec2f(-1e30);
  for (var t = 0u; t < len; t++) {
    let a = star_s[t * LANES + slot];
    let b = star_s[(nxt(t)) * LANES + slot];
    if (a == NONE || b == NONE) {
      continue;
    }
    // a disk's box is the disk's; a half-plane's comes with its computation
    var region = reg_of_s[t * LANES + slot];
    var disk_box = vec4f(region.xy - vec2f(region.z), region.xy + vec2f(region.z));
    if (region.w != 0.0) {
      region = conflict_region(pi, sites[a], sites[b], f, &disk_box);
    }
    if (region.w < 0.0) {
      npend = NO_SKIP;
      return 0;
    }
    let grid_lo = vec2f(f32(-cx), f32(-cy));
    let grid_hi = vec2f(f32(i32(params.grid_w) - cx), f32(i32(params.grid_h) - cy));
    let grid_box = region_box(region, grid_lo, grid_hi);
    let clip = hull_clip_box(region, pi, f);
    // a half-plane region is still inside its disk's box when the disk is known
    let box = vec4f(max(max(grid_box.xy, clip.xy), disk_box.xy), min(min(grid_box.zw, clip.zw), disk_box.zw));
    if (all(box.xy <= box.zw) && !region_searched(region, box, r, cx, cy)) {
      pend_s[npend * LANES + slot] = region;
      pend_box_s[npend * LANES + slot] = box;
      pend_ab_s[npend * LANES + slot] = vec2u(a, b);
      npend++;
      pend_lo = min(pend_lo, box.xy);
      pend_hi = max(pend_hi, box.zw);
    }
  }
  return select(0, 1, npend == 0u);
}

// For a closed star unchanged since its last \`star_final\`: keeps the pending regions that still
// meet cells outside rings 0..r, exactly the set \`star_final\` would find (the same regions and
// boxes; a region searched at ring r − 1 stays searched). 1 when none is left (final), else 0.
fn narrow_pending(r: i32, cx: i32, cy: i32) -> i32 {
  final_narrowings++;
  var kept = 0u;
  pend_lo = vec2f(1e30);
  pend_hi = vec2f(-1e30);
  for (var k = 0u; k < npend; k++) {
    let region = pend_s[k * LANES + slot];
    let box = pend_box_s[k * LANES + slot];
    if (!region_searched(region, box, r, cx, cy)) {
      pend_s[kept * LANES + slot] = region;
      pend_box_s[kept * LANES + slot] = box;
      pend_ab_s[kept * LANES + slot] = pend_ab_s[k * LANES + slot];
      kept++;
      pend_lo = min(pend_lo, box.xy);
      pend_hi = max(pend_hi, box.zw);
    }
  }
  npend = kept;
  return select(0, 1, kept == 0u);
}

// cell (dx, dy) from the site's cell may hold a site in conflict with the star
fn cell_needed(dx: i32, dy: i32) -> bool {
  if (npend == NO_SKIP) {
    return true;
  }
  let lo = vec2f(f32(dx), f32(dy));
  let hi = lo + vec2f(1.0);
  if (any(hi < pend_lo) || any(lo > pend_hi)) {
    return false;
  }
  for (var k = 0u; k < npend; k++) {
    if (region_meets_in(pend_s[k * LANES + slot], pend_box_s[k * LANES + slot], vec4f(lo, hi))) {
      return true;
    }
  }
  return false;
}

// l (at p, in cells from the corner of the site's cell) lies strictly inside the circumdisk of a
// pending triangle, exactly (ties by index): the closed star's disks only shrink as it gains
// sites, so a site outside all of them conflicts with none of the star's later triangles either
fn in_pending_exactly(i: u32, pi: vec4u, l: u32, p: vec2f) -> bool {
  let pl = sites[l];
  for (var k = 0u; k < npend; k++) {
    if (region_meets_in(pend_s[k * LANES + slot], pend_box_s[k * LANES + slot], vec4f(p, p))) {
      let ab = pend_ab_s[k * LANES + slot];
      let pa = sites[ab.x];
      let pb = sites[ab.y];
      let s = incircle_sign_path(pi, pa, pb, pl);
      if (s.x > 0 || (s.x == 0 && incircle_sos(pi, pa, pb, pl, i, ab.x, ab.y, l) > 0)) {
        return true;
      }
    }
  }
  return false;
}

// position p (in cells from the corner of the site's cell) lies in a pending region
fn in_pending(p: vec2f) -> bool {
  for (var k = 0u; k < npend; k++) {
    if (region_meets_in(pend_s[k * LANES + slot], pend_box_s[k * LANES + slot], vec4f(p, p))) {
      return true;
    }
  }
  return false;
}

fn in_star(l: u32) -> bool {
  for (var t = 0u; t < len; t++) {
    if (star_s[t * LANES + slot] == l) {
      return true;
    }
  }
  return false;
}

// l is neither the site nor a neighbour inserted already (its hull neighbours, the hull's
// vertices once seeded)
fn fresh_candidate(i: u32, l: u32) -> bool {
  return !(l == i || l == prev_hull || l == next_hull || (hull_seeded && hull_nbr[l].x != 0u));
}

// l may conflict with the star: it is open, or l lies in a pending region
fn may_conflict(pi: vec4u, f: vec2f, l: u32) -> bool {
  return npend == NO_SKIP || in_pending(f + cells_between(pi, sites[l]));
}

// a star's start: its site's cell, its hull neighbours (NONE off the hull), counters cleared
fn begin_star(i: u32, pi: vec4u) -> SiteCell {
  let at = site_cell(pi);
  f_site = at.f;
  let hull = hull_nbr[i];
  prev_hull = hull.x - 1u;
  next_hull = hull.y - 1u;
  clear_counters();
  return at;
}

// inserts the sites of cell (cx + dx, cy + dy) when it may hold a conflicting one; returns the
// failure status (0 when fine)
fn visit_cell(i: u32, pi: vec4u, f: vec2f, cx: i32, cy: i32, dx: i32, dy: i32) -> u32 {
  cells_visited++;
  if (!cell_needed(dx, dy)) {
    return 0u;
  }
  let c = u32(cy + dy) * params.grid_w + u32(cx + dx);
  for (var k = cell_start[c]; k < cell_start[c + 1u]; k++) {
    let l = cell_sites[k];
    if (!fresh_candidate(i, l)) {
      continue;
    }
    seen++;
    if (seen > params.max_candidates) {
      return STATUS_BUDGET;
    }
    if (!may_conflict(pi, f, l)) {
      continue; // outside every pending region: no conflict possible
    }
    let status = insert(i, pi, l);
    if (status != 0u) {
      return status;
    }
  }
  return 0u;
}


// the site's bucket cell, and its position inside it in cells (the low bits below the shift)
struct SiteCell { c: vec2i, f: vec2f }

fn site_cell(pi: vec4u) -> SiteCell {
  let dx = i64_sub(pi.xy, params.min_x);
  let dy = i64_sub(pi.zw, params.min_y);
  let back = 64u - params.shift;
  let sh = i32(params.shift);
  let c = vec2i(i32(u64_shr(dx, params.shift).x), i32(u64_shr(dy, params.shift).x));
  let f = vec2f(i64_to_f32_scaled(u64_shr(u64_shl(dx, back), back), sh),
                i64_to_f32_scaled(u64_shr(u64_shl(dy, back), back), sh));
  return SiteCell(c, f);
}

// The cells of ring r around the site's cell (cx, cy) to visit: inside the grid and, once the star
// is closed, inside the bounding box of the pending regions and, on each side of the ring, within
// the span of cells the pending regions cross there. In visiting order: row −r (top), row r
// (bottom), column −r (left) and column r (right) without their corners; each side a run of cells
// from its start.
struct RingCells {
  r: i32,
  top_x0: i32, bottom_x0: i32, left_y0: i32, right_y0: i32,
  top: u32, bottom: u32, left: u32, right: u32,
}

// The cells [lo, hi] of the row of cells at = dy (y in [at, at + 1]; vertical: the column at = dx,
// coordinates swapped) that a pending region may meet: the hull of every pending region's span,
// conservative (the regions are float supersets; each visited cell is tested again).
fn side_span(vertical: bool, at: i32) -> vec2i {
  let y0 = f32(at);
  let y1 = y0 + 1.0;
  var lo = 1e9;
  var hi = -1e9;
  for (var k = 0u; k < npend; k++) {
    var region = pend_s[k * LANES + slot];
    var box = pend_box_s[k * LANES + slot];
    if (vertical) {
      region = vec4f(region.yx, region.zw);
      box = box.yxwz;
    }
    if (box.w < y0 || box.y > y1) {
      continue;
    }
    var a = box.x;
    var b = box.z;
    if (region.w == 0.0) {
      // a disk: its chord at the strip's nearest height
      let d = max(0.0, max(y0 - region.y, region.y - y1));
      if (d > region.z) {
        continue;
      }
      let half = sqrt(region.z * region.z - d * d);
      a = max(a, region.x - half);
      b = min(b, region.x + half);
    } else if (region.w == 1.0 && region.x != 0.0) {
      // {p : n·p ≤ c}: x on one side of (c − n.y·y) / n.x, y where that reaches furthest
      let reach = (region.z - min(region.y * y0, region.y * y1)) / region.x;
      if (region.x > 0.0) {
        b = min(b, reach);
      } else {
        a = max(a, reach);
      }
    }
    if (a <= b) {
      lo = min(lo, a);
      hi = max(hi, b);
    }
  }
  if (lo > hi) {
    return vec2i(1, 0);
  }
  return vec2i(i32(floor(clamp(lo, -1e8, 1e8))) - 1, i32(floor(clamp(hi, -1e8, 1e8))));
}

fn ring_cells(r: i32, cx: i32, cy: i32) -> RingCells {
  var xlo = -cx;
  var xhi = i32(params.grid_w) - 1 - cx;
  var ylo = -cy;
  var yhi = i32(params.grid_h) - 1 - cy;
  if (npend != NO_SKIP) {
    let lo = vec2i(floor(clamp(pend_lo, vec2f(-1e8), vec2f(1e8)))) - vec2i(1);
    let hi = vec2i(floor(clamp(pend_hi, vec2f(-1e8), vec2f(1e8))));
    xlo = max(xlo, lo.x);
    ylo = max(ylo, lo.y);
    xhi = min(xhi, hi.x);
    yhi = min(yhi, hi.y);
  }
  // per side: [first, last] cell along it
  var top = vec2i(max(-r, xlo), min(r, xhi));
  var bottom = top;
  var left = vec2i(max(1 - r, ylo), min(r - 1, yhi));
  var right = left;
  if (npend != NO_SKIP && r > 0) {
    let t = side_span(false, -r);
    let b = side_span(false, r);
    let l = side_span(true, -r);
    let g = side_span(true, r);
    top = vec2i(max(top.x, t.x), min(top.y, t.y));
    bottom = vec2i(max(bottom.x, b.x), min(bottom.y, b.y));
    left = vec2i(max(left.x, l.x), min(left.y, l.y));
    right = vec2i(max(right.x, g.x), min(right.y, g.y));
  }
  let count = vec4i(top.y - top.x, bottom.y - bottom.x, left.y - left.x, right.y - right.x) + vec4i(1);
  let n = vec4u(max(count, vec4i(0)));
  return RingCells(
    r,
    top.x,
    bottom.x,
    left.x,
    right.x,
    select(0u, n.x, -r >= ylo && -r <= yhi),
    select(0u, n.y, r > 0 && r >= ylo && r <= yhi),
    select(0u, n.z, -r >= xlo && -r <= xhi),
    select(0u, n.w, r > 0 && r >= xlo && r <= xhi),
  );
}

fn ring_size(g: RingCells) -> u32 {
  return g.top + g.bottom + g.left + g.right;
}

// the k-th cell of the ring, (dx, dy) from the site's cell
fn ring_cell(g: RingCells, k: u32) -> vec2i {
  if (k < g.top) {
    return vec2i(g.top_x0 + i32(k), -g.r);
  }
  var j = k - g.top;
  if (j < g.bottom) {
    return vec2i(g.bottom_x0 + i32(j), g.r);
  }
  j -= g.bottom;
  if (j < g.left) {
    return vec2i(-g.r, g.left_y0 + i32(j));
  }
  return vec2i(g.r, g.right_y0 + i32(j - g.left));
}

// rings 0..r around (cx, cy) cover the grid
fn ring_covers_grid(r: i32, cx: i32, cy: i32) -> bool {
  return cx <= r && cy <= r && cx + r + 1 >= i32(params.grid_w) && cy + r + 1 >= i32(params.grid_h);
}

// After ring r: STATUS_FINAL, a failure status, or 0 to search on. While the closed star has not
// changed, only its pending regions are narrowed to the ones still meeting unsearched cells (a
// full check recomputes every region, O(star × hull) for half-planes: once a ring, it made
// far-searching stars slow).
fn after_ring(i: u32, pi: vec4u, r: i32, cx: i32, cy: i32, f: vec2f, hull: vec2u) -> u32 {
  let complete = ring_covers_grid(r, cx, cy);
  var verdict: i32;
  if (npend != NO_SKIP && edits == checked_edits) {
    verdict = select(narrow_pending(r, cx, cy), 1, complete);
  } else {
    verdict = star_final(pi, r, cx, cy, f, hull, complete);
    checked_edits = edits;
  }
  if (verdict == 0 && npend == NO_SKIP && r >= 2 && !hull_seeded && params.hull_count <= params.hull_seed_limit) {
    // still open after two rings: a site near a long hull edge, whose star closes only with
    // sites far along the boundary; the hull's vertices close it at once (it is inside them)
    hull_seeded = true;
    for (var k = 0u; k < params.hull_count; k++) {
      let l = hull_triples[3u * k];
      if (l != i && !in_star(l)) {
        let status = insert(i, pi, l);
        if (status != 0u) {
          return status;
        }
      }
    }
    verdict = star_final(pi, r, cx, cy, f, hull, complete);
    checked_edits = edits;
  }
  if (verdict > 0) {
    return STATUS_FINAL;
  }
  return select(0u, STATUS_INCONSISTENT, verdict < 0);
}

// the star, its length and status (with the hull-seeded flag) and the last ring searched
fn store_star(i: u32, status: u32, ring: u32) {
  let base = i * STRIDE;
  for (var t = 0u; t < len; t++) {
    stars[base + t] = star_s[t * LANES + slot];
  }
  star_info[i] = vec2u(len, status | select(0u, HULL_SEEDED, hull_seeded) | (min(ring, 0xffffffu) << 8u));
}

fn clear_counters() {
  tests = 0u;
  filtered_out = 0u;
  seen = 0u;
  cells_visited = 0u;
  edits = 0u;
  checked_edits = 0u;
  final_checks = 0u;
  final_narrowings = 0u;
  half_planes = 0u;
  hull_clips = 0u;
}

// statistics summed per workgroup first (one global atomic per word and workgroup)
var<workgroup> wg_stats: array<atomic<u32>, ${STAR_STATS_WORDS}>;

fn clear_stats(lid: u32) {
  if (lid < ${STAR_STATS_WORDS}u) {
    atomicStore(&wg_stats[lid], 0u);
  }
}

// a site's work: rings searched in this pass, the last ring, whether it stays unfinished
fn add_stats(rings: u32, ring: u32, failed: bool) {
  if (failed) {
    atomicAdd(&wg_stats[0], 1u);
  }
  atomicAdd(&wg_stats[1], rings);
  atomicMax(&wg_stats[2], ring);
  atomicAdd(&wg_stats[3], tests);
  atomicAdd(&wg_stats[4], filtered_out);
  atomicAdd(&wg_stats[5], seen);
  atomicMax(&wg_stats[7], seen);
  atomicAdd(&wg_stats[9], cells_visited);
  atomicMax(&wg_stats[10], cells_visited);
  atomicAdd(&wg_stats[11], final_checks);
  atomicMax(&wg_stats[12], final_checks);
  atomicAdd(&wg_stats[13], final_narrowings);
  atomicAdd(&wg_stats[15], half_planes);
  atomicAdd(&wg_stats[16], hull_clips);
}

// after a workgroup barrier: the workgroup's sums and maxima into the global words
fn flush_stats(lid: u32) {
  if (lid < ${STAR_STATS_WORDS}u) {
    let v = atomicLoad(&wg_stats[lid]);
    if (v != 0u) {
      if (lid == 2u || lid == 7u || lid == 10u || lid == 12u) {
        atomicMax(&stats[lid], v);
      } else {
        atomicAdd(&stats[lid], v);
      }
    }
  }
}
`;
