import { FIXED_POINT } from '../exact/fixed-point-wgsl.js';
import { PREDICATE_SUPPORT } from '../exact/predicates/predicate-support-wgsl.js';
import { HALFEDGE, threadEntry } from '../mesh/halfedge-wgsl.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';

/** Words of one guard record: kind (0 triangle, 1 hull turn), three sites, three opposite sites. */
export const GUARD_RECORD_WORDS = 8;

/** Words before the records: uncertain count, touched count, two spare. */
export const GUARD_HEADER_WORDS = 4;

/** Records read back at most; more uncertain triangles decline the run (adr/0020). */
export const GUARD_CAPACITY = 4096;

/**
 * The faithful-representation guard (adr/0020), one thread per triangle and then one per hull
 * vertex. Only triangles (hull turns) with a site whose f64 coordinates the grid rounds are looked
 * at: every predicate on exactly represented sites equals the predicate on the input. For those,
 * the thread certifies with a float bound that the f64 input gives the grid's answer — the
 * triangle's orientation, each edge's empty-circle test against the opposite site, and with
 * `geometry` the circumcentre moved by less than the tolerance and inside the box — and otherwise
 * appends the triangle to a short list the host decides exactly.
 *
 * Bindings: 1 grid sites (curve order), 2 triangles, 3 half-edges, 4 hull triples (site, previous,
 * next), 5 f64 sites (caller order, `vec4u` of bits), 6 order (curve → caller), 7 output (header,
 * then records of caller indices), 8 grid uniforms. Params: triangles, hull size, exponent,
 * capacity, use order, geometry, tolerance in grid units (f32 bits).
 */
export const GUARD_KERNEL = defineKernel({
  name: 'delaunay/guard',
  bindings: { fixed: 1, triangles: 2, halfedges: 3, triples: 4, xy: 5, order: 6, out: 7, grid_uniforms: 8 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE, FIXED_POINT, PREDICATE_SUPPORT)}
struct Params {
  triangles: u32, hull: u32, exponent: i32, capacity: u32,
  use_order: u32, geometry: u32, tol_bits: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> fixed: array<vec4u>;
@group(0) @binding(2) var<storage, read> triangles: array<u32>;
@group(0) @binding(3) var<storage, read> halfedges: array<i32>;
@group(0) @binding(4) var<storage, read> triples: array<u32>;
@group(0) @binding(5) var<storage, read> xy: array<vec4u>;
@group(0) @binding(6) var<storage, read> order: array<u32>;
@group(0) @binding(7) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(8) var<uniform> grid_uniforms: GridUniforms;

fn caller(k: u32) -> u32 {
  return select(k, order[k], params.use_order != 0u);
}

// whether an f64 (bits lo, hi) is an integer multiple of 2^e: its lowest set bit is at or above e
fn f64_on_grid(bits: vec2u, e: i32) -> bool {
  let biased = i32((bits.y >> 20u) & 0x7ffu);
  // the significand with its implicit bit (none for zero and subnormals)
  let m = vec2u(bits.x, (bits.y & 0xfffffu) | select(0u, 0x100000u, biased != 0));
  if (m.x == 0u && m.y == 0u) {
    return true; // ±0
  }
  return max(biased, 1) - 1075 + i32(i64_trailing_zeros(m)) >= e;
}

fn site_exact(k: u32) -> bool {
  let v = xy[caller(k)];
  return f64_on_grid(v.xy, params.exponent) && f64_on_grid(v.zw, params.exponent);
}

fn bit_len(v: vec2u) -> i32 {
  return i32(u64_bit_length(i64_abs(v)));
}

// a difference of two grid points as f32 pairs scaled by 2^-k
fn scaled(d: vec4u, k: i32) -> vec2f {
  return vec2f(i64_to_f32_scaled(d.xy, k), i64_to_f32_scaled(d.zw, k));
}

fn diff(a: vec4u, b: vec4u) -> vec4u {
  return vec4u(i64_sub(a.xy, b.xy), i64_sub(a.zw, b.zw));
}

fn l1(v: vec2f) -> f32 {
  return abs(v.x) + abs(v.y);
}

// sign of cross(u, v) certified for the input (each difference within eps of the grid's), else 0
fn certified_cross(u: vec2f, v: vec2f, eps: f32) -> i32 {
  let det = u.x * v.y - u.y * v.x;
  let err = 0x1p-18 * (abs(u.x * v.y) + abs(u.y * v.x)) + 4.0 * eps * (l1(u) + l1(v)) + 8.0 * eps * eps;
  if (abs(det) > err) {
    return f32_sign(det);
  }
  return 0;
}

// the scale putting the largest of these differences near 1
fn scale_of(a: vec4u, b: vec4u, c: vec4u) -> i32 {
  return max(max(max(bit_len(a.xy), bit_len(a.zw)), max(bit_len(b.xy), bit_len(b.zw))),
             max(bit_len(c.xy), bit_len(c.zw)));
}

// the orientation of a, b, c agrees on the grid and the input, and is not flat
fn orient_certified(a: vec4u, b: vec4u, c: vec4u) -> bool {
  let du = diff(b, a);
  let dv = diff(c, a);
  let k = scale_of(du, dv, du);
  let eps = 1.4142136 * exp2(f32(-k));
  let s = certified_cross(scaled(du, k), scaled(dv, k), eps);
  return s != 0 && s == fixed_orient(a, b, c);
}

// d is strictly outside the circle of a, b, c (orientation s) for the grid and the input
fn outside_certified(a: vec4u, b: vec4u, c: vec4u, d: vec4u, s: i32) -> bool {
  let da = diff(a, d);
  let db = diff(b, d);
  let dc = diff(c, d);
  let k = scale_of(da, db, dc);
  let eps = 1.4142136 * exp2(f32(-k));
  let p = scaled(da, k);
  let q = scaled(db, k);
  let r = scaled(dc, k);
  let pl = dot(p, p);
  let ql = dot(q, q);
  let rl = dot(r, r);
  let det = pl * (q.x * r.y - q.y * r.x) + ql * (r.x * p.y - r.y * p.x) + rl * (p.x * q.y - p.y * q.x);
  let perm = pl * (abs(q.x * r.y) + abs(q.y * r.x)) + ql * (abs(r.x * p.y) + abs(r.y * p.x))
    + rl * (abs(p.x * q.y) + abs(p.y * q.x));
  let len = max(max(l1(p), l1(q)), l1(r));
  if (!(eps * 64.0 <= len)) {
    return false;
  }
  let err = 0x1p-16 * perm + 32.0 * len * len * len * eps;
  return f32(s) * det < -err;
}

// the circumcentre of a, b, c moves by less than the tolerance under the snap, inside the box
fn centre_certified(a: vec4u, b: vec4u, c: vec4u) -> bool {
  let du = diff(b, a);
  let dv = diff(c, a);
  let lo = diff(grid_uniforms.box_min, a);
  let hi = diff(grid_uniforms.box_max, a);
  let k = scale_of(du, dv, du);
  let eps = 1.4142136 * exp2(f32(-k));
  let u = scaled(du, k);
  let v = scaled(dv, k);
  let d = 2.0 * (u.x * v.y - u.y * v.x);
  let ul = dot(u, u);
  let vl = dot(v, v);
  let cc = vec2f(v.y * ul - u.y * vl, u.x * vl - v.x * ul) / d;
  let big = max(l1(u), l1(v));
  let radius = l1(cc);
  // first-order motion of the centre, doubled; the denominator's own error kept far below it
  let moved = 8.0 * eps * big * (6.0 * big + 4.0 * radius) / abs(d);
  let tol = bitcast<f32>(params.tol_bits) * exp2(f32(-k));
  if (!(moved <= tol) || !(abs(d) > 64.0 * eps * big)) {
    return false;
  }
  let box_lo = scaled(lo, k);
  let box_hi = scaled(hi, k);
  let margin = moved + 0x1p-16 * (radius + l1(box_lo) + l1(box_hi));
  return all(cc - box_lo > vec2f(margin)) && all(box_hi - cc > vec2f(margin));
}

fn triangle_certified(t: u32) -> bool {
  let i0 = triangles[3u * t];
  let i1 = triangles[3u * t + 1u];
  let i2 = triangles[3u * t + 2u];
  let a = fixed[i0];
  let b = fixed[i1];
  let c = fixed[i2];
  if (!orient_certified(a, b, c)) {
    return false;
  }
  let s = fixed_orient(a, b, c);
  for (var j = 0u; j < 3u; j++) {
    let twin = halfedges[3u * t + j];
    if (twin < 0) {
      if (params.geometry != 0u) {
        return false; // a hull edge's cell edge is clipped: the host bounds it
      }
      continue;
    }
    let d = fixed[triangles[prev_halfedge(u32(twin))]];
    if (!outside_certified(a, b, c, d, s)) {
      return false;
    }
  }
  return params.geometry == 0u || centre_certified(a, b, c);
}

fn opposite(e: u32) -> u32 {
  let twin = halfedges[e];
  if (twin < 0) {
    return 0xffffffffu;
  }
  return caller(triangles[prev_halfedge(u32(twin))]);
}

fn append(kind: u32, s: vec3u, o: vec3u) {
  let slot = atomicAdd(&out[0], 1u);
  if (slot < params.capacity) {
    let at = ${GUARD_HEADER_WORDS}u + slot * ${GUARD_RECORD_WORDS}u;
    atomicStore(&out[at], kind);
    atomicStore(&out[at + 1u], s.x);
    atomicStore(&out[at + 2u], s.y);
    atomicStore(&out[at + 3u], s.z);
    atomicStore(&out[at + 4u], o.x);
    atomicStore(&out[at + 5u], o.y);
    atomicStore(&out[at + 6u], o.z);
  }
}

${threadEntry('i', 'params.triangles + params.hull', 'grid_init(grid_uniforms);')}
  if (i < params.triangles) {
    let i0 = triangles[3u * i];
    let i1 = triangles[3u * i + 1u];
    let i2 = triangles[3u * i + 2u];
    if (site_exact(i0) && site_exact(i1) && site_exact(i2)) {
      return;
    }
    atomicAdd(&out[1], 1u);
    if (!triangle_certified(i)) {
      append(0u, vec3u(caller(i0), caller(i1), caller(i2)),
             vec3u(opposite(3u * i), opposite(3u * i + 1u), opposite(3u * i + 2u)));
    }
    return;
  }
  let h = i - params.triangles;
  let b = triples[3u * h];
  let p = triples[3u * h + 1u];
  let n = triples[3u * h + 2u];
  if (site_exact(b) && site_exact(p) && site_exact(n)) {
    return;
  }
  atomicAdd(&out[1], 1u);
  let pb = fixed[p];
  let bb = fixed[b];
  let nb = fixed[n];
  if (fixed_orient(pb, bb, nb) == 0 || !orient_certified(pb, bb, nb)) {
    append(1u, vec3u(caller(p), caller(b), caller(n)), vec3u(0xffffffffu));
  }
}
`,
});
