import { type WgslModule, wgslModule } from '../../runtime/wgsl-module.js';
import { WIDE_INT } from '../wide-int-wgsl.js';
/**
 * Helpers the Delaunay predicates share, in WGSL, on top of the wide-integer library
 * (`WIDE_INT`, part of `FIXED_WGSL`, must come first):
 *
 * - `i64_abs(v) -> vec2<u32>`: |v| as unsigned words (2^63 for the most negative i64).
 * - `i64_trailing_zeros(v) -> u32`: trailing zero bits of v (64 for 0); the same for v and −v.
 * - `i64_to_f32_scaled(v, k) -> f32`: v · 2^−k with |v| truncated to its 24 leading bits, built
 *   from bits (no float operation): |result − v·2^−k| < 2^−23 · |v·2^−k| (and < 2^−23 · |result|),
 *   exact when v has at most 24 significant bits (bit length − trailing zeros). The caller keeps
 *   the result's exponent normal: −126 ≤ bitLength(|v|) − 1 − k ≤ 127.
 * - `i64_shr_small(v, s) -> i32`: v / 2^s as i32, for v divisible by 2^s with |v / 2^s| < 2^31.
 * - `i32_mul_wide(a, b) -> vec2<u32>`: the i64 product of two i32 with |a|, |b| < 2^31.
 * - `f32_sign(v) -> i32`: −1, 0 or 1.
 * - `struct DiffSpan { len, zeros }` and `diff_span_add(s, v)`: the running largest bit length
 *   of |v| and smallest trailing-zero count over a set of differences. `len − zeros` is the
 *   significant span: every difference is m · 2^zeros with |m| < 2^(len − zeros).
 */
export const PREDICATE_SUPPORT_WGSL = /* wgsl */ `
fn i64_abs(v: vec2<u32>) -> vec2<u32> {
  return select(v, i64_neg(v), i64_is_neg(v));
}

fn i64_trailing_zeros(v: vec2<u32>) -> u32 {
  if (v.x != 0u) {
    return countTrailingZeros(v.x);
  }
  if (v.y != 0u) {
    return 32u + countTrailingZeros(v.y);
  }
  return 64u;
}

// v · 2^-k, |v| truncated to 24 significant bits; assembled from bits, so no float rounding
fn i64_to_f32_scaled(v: vec2<u32>, k: i32) -> f32 {
  let m = i64_abs(v);
  let len = u64_bit_length(m);
  if (len == 0u) {
    return 0.0;
  }
  var mant: u32;
  if (len > 24u) {
    mant = u64_shr(m, len - 24u).x;
  } else {
    mant = m.x << (24u - len);
  }
  let sign = select(0u, 0x80000000u, i64_is_neg(v));
  let biased = u32(i32(len) - 1 - k + 127);
  return bitcast<f32>(sign | (biased << 23u) | (mant & 0x7fffffu));
}

fn i64_shr_small(v: vec2<u32>, s: u32) -> i32 {
  let m = i32(u64_shr(i64_abs(v), s).x);
  return select(m, -m, i64_is_neg(v));
}

fn i32_mul_wide(a: i32, b: i32) -> vec2<u32> {
  let p = mul_u32_wide(u32(abs(a)), u32(abs(b)));
  return select(p, i64_neg(p), (a < 0) != (b < 0));
}

fn f32_sign(v: f32) -> i32 {
  return select(select(0, -1, v < 0.0), 1, v > 0.0);
}

struct DiffSpan {
  len: u32,
  zeros: u32,
}

fn diff_span_add(s: DiffSpan, v: vec2<u32>) -> DiffSpan {
  return DiffSpan(max(s.len, u64_bit_length(i64_abs(v))), min(s.zeros, i64_trailing_zeros(v)));
}
`;

/** {@link PREDICATE_SUPPORT_WGSL} as a module. */
export const PREDICATE_SUPPORT: WgslModule = wgslModule('exact/predicate-support', PREDICATE_SUPPORT_WGSL, [
  WIDE_INT,
]);
