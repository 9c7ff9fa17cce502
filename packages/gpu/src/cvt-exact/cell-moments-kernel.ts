import { WIDE_INT } from '../exact/index.js';
import { F64_BITS } from '../resident/f64-bits-wgsl.js';
import { residentEntry } from '../resident/measure-kernels.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl, type WgslModule, wgslModule } from '../runtime/wgsl-module.js';

/** Bits of magnitude a coordinate relative to its site keeps (its ring's largest: |d| ≤ 2^50). */
export const RELATIVE_BITS = 50;

/**
 * i128 shifts (`vec4<u32>`, two's complement): `i128_shl(a, n)` = a · 2^n (bits past the top
 * lost), `i128_sar(a, n)` = floor(a / 2^n); `i128_abs_bits(a)`: the bit length of |a|.
 */
const I128_SHIFTS: WgslModule = wgslModule(
  'cvt-exact/i128-shifts',
  /* wgsl */ `
fn i128_shl(a: vec4<u32>, n: u32) -> vec4<u32> {
  var v = a;
  var s = min(n, 128u);
  for (var q = 0u; q < 4u && s >= 32u; q++) {
    v = vec4<u32>(0u, v.x, v.y, v.z);
    s -= 32u;
  }
  if (s == 0u || s >= 32u) {
    return v;
  }
  return vec4<u32>(v.x << s, (v.y << s) | (v.x >> (32u - s)), (v.z << s) | (v.y >> (32u - s)),
                   (v.w << s) | (v.z >> (32u - s)));
}

fn i128_sar(a: vec4<u32>, n: u32) -> vec4<u32> {
  let fill = select(0u, 0xffffffffu, i128_is_neg(a));
  var v = a;
  var s = min(n, 128u);
  for (var q = 0u; q < 4u && s >= 32u; q++) {
    v = vec4<u32>(v.y, v.z, v.w, fill);
    s -= 32u;
  }
  if (s == 0u || s >= 32u) {
    return v;
  }
  return vec4<u32>((v.x >> s) | (v.y << (32u - s)), (v.y >> s) | (v.z << (32u - s)),
                   (v.z >> s) | (v.w << (32u - s)), bitcast<u32>(bitcast<i32>(v.w) >> s));
}

fn i128_abs_bits(a: vec4<u32>) -> u32 {
  let v = select(a, i128_neg(a), i128_is_neg(a));
  if (v.w != 0u) { return 128u - countLeadingZeros(v.w); }
  if (v.z != 0u) { return 96u - countLeadingZeros(v.z); }
  if (v.y != 0u) { return 64u - countLeadingZeros(v.y); }
  return 32u - countLeadingZeros(v.x);
}
`,
  [WIDE_INT],
);

/**
 * The CVT's moments of each cell (a single closed ring, as the Voronoi pipeline keeps them) about
 * its site, for a uniform density, in exact integer arithmetic rounded once:
 *
 * 1. Every coordinate of the ring and the site is read as an exact f64 (`f64_parts`); at the unit
 *    2^c with c = (top bit of the largest magnitude) − 121 each is floor(v / 2^c), an i128.
 * 2. The ring's largest coordinate relative to the site fixes the unit 2^j of the sums: the
 *    coarsest power of two at which |v − s| < 2^50 units (2^j = 2^c when it already fits). Each
 *    point and the site are floored to that unit (nested floors of powers of two compose), so the
 *    ring integrated is the ring snapped down to a grid 2^−50 of its own extent, about the site
 *    snapped the same way: an error of at most one unit per coordinate.
 * 3. Green's theorem on every edge in integers: cross = a × b (i128), 2·area = Σ cross,
 *    6·∫(p − s) = Σ (a + b)·cross, 12·∫‖p − s‖² = Σ (aₓ² + aₓbₓ + bₓ² + a_y² + a_yb_y + b_y²)·cross
 *    (W8: 204 bits a term, 230 for 2^26 edges), each sum rounded to the nearest f64 once
 *    (`w8_to_f64`): out = (2m, 6sₓ, 6s_y, 12e) as f64 bits, two vec4 a row.
 *
 * A row the kernel cannot answer exactly — a NaN or infinite coordinate, a sum outside f64's
 * normal range, or (with the interior grid) a cell whose box reaches a bucket the region's boundary
 * touches or that lies outside it — gets NaN as its 2m: the host answers it from the ring.
 * Rings of fewer than 4 points (no area) give zeros.
 *
 * Interior grid (params.nx > 0): `at` holds each site's position in buckets from the grid's
 * corner, `blocked` the (nx + 1)(ny + 1) prefix counts of buckets not wholly inside the region.
 * The cell's box (relative coordinates to f32, scaled by 2^(j − size_exp) / size_mant, then
 * grown by one bucket each way) must hold no such bucket.
 */
export const CVT_CELL_MOMENTS_KERNEL = defineKernel({
  name: 'cvt-exact/cell-moments',
  bindings: { offsets: 1, coords: 2, sites: 3, at: 4, blocked: 5, out: 6 },
  source: () => /* wgsl */ `
${linkWgsl(F64_BITS, I128_SHIFTS)}
struct Params { rows: u32, nx: u32, ny: u32, size_exp: i32, size_mant: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> coords: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> sites: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> at: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read> blocked: array<u32>;
@group(0) @binding(6) var<storage, read_write> out: array<vec4<u32>>;

const BITS: i32 = ${RELATIVE_BITS};
const NONE: i32 = -100000;
const HOST = vec4<u32>(0u, 0x7ff80000u, 0u, 0u);

// the value is below 2^top_bit (NONE for zero)
fn top_bit(p: F64Parts) -> i32 {
  if (p.m.x == 0u && p.m.y == 0u) {
    return NONE;
  }
  return p.k + i32(u64_bit_length(p.m));
}

// floor(v / 2^unit) as an i128 (the caller keeps |v| < 2^(unit + 126))
fn at_unit(p: F64Parts, unit: i32) -> vec4<u32> {
  var v = vec4<u32>(p.m.x, p.m.y, 0u, 0u);
  if (p.neg) {
    v = i128_neg(v);
  }
  let s = p.k - unit;
  if (s >= 0) {
    return i128_shl(v, u32(s));
  }
  return i128_sar(v, u32(-s));
}

fn i64_to_f32(a: vec2<u32>) -> f32 {
  return f32(bitcast<i32>(a.y)) * 4294967296.0 + f32(a.x);
}

// whether the box [lo, hi] (relative to the site, in units 2^j) grown by a bucket is interior
fn interior(r: u32, lo: vec2<f32>, hi: vec2<f32>, j: i32) -> bool {
  let e = j - params.size_exp;
  if (e > 100) {
    return false;
  }
  let scale = select(ldexp(1.0, max(e, -100)) / bitcast<f32>(params.size_mant), 0.0, e < -100);
  let p = at[r];
  let l = floor(p + lo * scale) - 1.0;
  let h = floor(p + hi * scale) + 1.0;
  if (!(l.x >= 0.0 && l.y >= 0.0 && h.x < f32(params.nx) && h.y < f32(params.ny))) {
    return false;
  }
  let w = params.nx + 1u;
  let lx = u32(l.x);
  let ly = u32(l.y);
  let hx = u32(h.x) + 1u;
  let hy = u32(h.y) + 1u;
  return blocked[hy * w + hx] - blocked[ly * w + hx] - blocked[hy * w + lx] + blocked[ly * w + lx] == 0u;
}

// v · 2^e rounded to the nearest f64, as bits (.z = 1: outside the normal range)
fn signed_to_f64(v: W8, e: i32) -> vec3<u32> {
  var a = v;
  let neg = w8_is_neg(v);
  if (neg) {
    a = w8_neg(v);
  }
  var f = w8_to_f64(a, e);
  if (neg && (f.x | f.y) != 0u) {
    f.y |= 0x80000000u;
  }
  return f;
}

${residentEntry('r', 'params.rows')}
  let start = offsets[r];
  let end = offsets[r + 1u];
  out[2u * r] = vec4<u32>(0u);
  out[2u * r + 1u] = vec4<u32>(0u);
  if (end < start + 4u) {
    return;
  }
  let site = sites[r];
  let sp = array<F64Parts, 2>(f64_parts(site.xy), f64_parts(site.zw));
  var finite = sp[0].finite && sp[1].finite;
  var top = max(top_bit(sp[0]), top_bit(sp[1]));
  for (var i = start; i < end; i++) {
    let c = coords[i];
    let px = f64_parts(c.xy);
    let py = f64_parts(c.zw);
    finite = finite && px.finite && py.finite;
    top = max(top, max(top_bit(px), top_bit(py)));
  }
  if (!finite) {
    out[2u * r] = HOST;
    return;
  }
  if (top == NONE) {
    return; // every coordinate is 0
  }
  let unit = top - 121;
  let s = array<vec4<u32>, 2>(at_unit(sp[0], unit), at_unit(sp[1], unit));
  var bits = 0u;
  for (var i = start; i < end; i++) {
    let c = coords[i];
    bits = max(bits, i128_abs_bits(i128_sub(at_unit(f64_parts(c.xy), unit), s[0])));
    bits = max(bits, i128_abs_bits(i128_sub(at_unit(f64_parts(c.zw), unit), s[1])));
  }
  let shift = u32(max(0, i32(bits) - BITS));
  let j = unit + i32(shift);
  let s0 = i128_sar(s[0], shift);
  let s1 = i128_sar(s[1], shift);
  var area = vec4<u32>(0u);
  // the first moments (x, y) and the energy, each a W8 sum of (factor × cross)
  var sums = array<W8, 3>();
  var lo = vec2<f32>(3.0e38);
  var hi = vec2<f32>(-3.0e38);
  var a = vec2<u32>(0u);
  var b = vec2<u32>(0u);
  for (var i = start; i < end; i++) {
    let c = coords[i];
    let dx = i128_sub(i128_sar(at_unit(f64_parts(c.xy), unit), shift), s0);
    let dy = i128_sub(i128_sar(at_unit(f64_parts(c.zw), unit), shift), s1);
    let px = dx.xy;
    let py = dy.xy;
    let f = vec2<f32>(i64_to_f32(px), i64_to_f32(py));
    lo = min(lo, f);
    hi = max(hi, f);
    if (i > start) {
      let cross = i128_sub(i64_mul(a, py), i64_mul(px, b));
      area = i128_add(area, cross);
      var q = i128_add(i64_mul(a, a), i64_mul(a, px));
      q = i128_add(q, i128_add(i64_mul(px, px), i64_mul(b, b)));
      q = i128_add(q, i128_add(i64_mul(b, py), i64_mul(py, py)));
      let factors = array<vec4<u32>, 3>(
        i128_from_i64(i64_add(a, px)),
        i128_from_i64(i64_add(b, py)),
        q,
      );
      for (var t = 0u; t < 3u; t++) {
        sums[t] = w8_add(sums[t], i128_mul(factors[t], cross));
      }
    }
    a = px;
    b = py;
  }
  if (params.nx > 0u && !interior(r, lo, hi, j)) {
    out[2u * r] = HOST;
    return;
  }
  let values = array<W8, 4>(w8_from_i128(area), sums[0], sums[1], sums[2]);
  let exps = array<i32, 4>(2 * j, 3 * j, 3 * j, 4 * j);
  var words = array<vec2<u32>, 4>();
  for (var t = 0u; t < 4u; t++) {
    let f = signed_to_f64(values[t], exps[t]);
    if (f.z != 0u) {
      out[2u * r] = HOST;
      return;
    }
    words[t] = f.xy;
  }
  out[2u * r] = vec4<u32>(words[0], words[1]);
  out[2u * r + 1u] = vec4<u32>(words[2], words[3]);
}
`,
});
