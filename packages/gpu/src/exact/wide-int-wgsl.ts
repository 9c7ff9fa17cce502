import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';

/**
 * Exact two's-complement integer arithmetic in WGSL, which has neither 64-bit integers nor f64.
 * u32 words only (multiplies through 16-bit halves); wrap-around is WGSL's defined u32 behaviour.
 *
 * - i64: `vec2<u32>` (x low word, y high word)
 * - i128: `vec4<u32>` (x lowest … w highest)
 * - W8 (i256): `array<u32, 8>`, word 0 lowest
 *
 * Functions (all exact; "signed" means two's complement):
 * - `mul_u32_wide(a, b) -> vec2<u32>`: the 64-bit product of two u32
 * - `i64_add`, `i64_sub`, `i64_neg`, `i64_is_neg`, `i64_is_zero`, `i64_sign`, `i64_lt` (signed),
 *   `i64_from_i32`, `u64_shl(a, n)` / `u64_shr(a, n)` (n in 0..64, 64 gives 0), `u64_bit_length`
 * - `i64_mul(a, b) -> vec4<u32>`: signed 64 × 64 → 128 bits
 * - `i128_add`, `i128_sub`, `i128_neg`, `i128_is_neg`, `i128_is_zero`, `i128_sign`,
 *   `i128_from_i64`, `i128_shl1` (× 2)
 * - `i128_mul(a, b) -> W8`: signed 128 × 128 → 256 bits
 * - `w8_from_i128`, `w8_add`, `w8_sub`, `w8_neg`, `w8_is_neg`, `w8_is_zero`, `w8_sign`, `w8_cmp`
 *   (signed: -1, 0, 1)
 * - `w8_div_floor(n, d) -> vec2<u32>`: floor(n / d) for an i128 `d > 0`, when the caller knows
 *   |n / d| ≤ 2^62: an f32 estimate of the quotient refined by the exact residual n − q·d until
 *   0 ≤ n − q·d < d. No float result is trusted: the estimate only picks the next step.
 */
const WIDE_INT_WGSL = /* wgsl */ `
alias W8 = array<u32, 8>;

fn mul_u32_wide(a: u32, b: u32) -> vec2<u32> {
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let ll = al * bl;
  let lh = al * bh;
  let hl = ah * bl;
  let hh = ah * bh;
  let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return vec2<u32>((ll & 0xffffu) | (mid << 16u), hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u));
}

// ---- i64 ----------------------------------------------------------------------------------

fn i64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn i64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn i64_neg(a: vec2<u32>) -> vec2<u32> {
  return i64_sub(vec2<u32>(0u, 0u), a);
}

fn i64_is_neg(a: vec2<u32>) -> bool {
  return (a.y >> 31u) != 0u;
}

fn i64_is_zero(a: vec2<u32>) -> bool {
  return (a.x | a.y) == 0u;
}

fn i64_sign(a: vec2<u32>) -> i32 {
  if (i64_is_neg(a)) {
    return -1;
  }
  return select(1, 0, i64_is_zero(a));
}

fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
  if (a.y != b.y) {
    return bitcast<i32>(a.y) < bitcast<i32>(b.y);
  }
  return a.x < b.x;
}

fn i64_from_i32(v: i32) -> vec2<u32> {
  return vec2<u32>(bitcast<u32>(v), select(0u, 0xffffffffu, v < 0));
}

// a << n for n in 0..64 (64 gives 0), as unsigned words
fn u64_shl(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n == 0u) {
    return a;
  }
  if (n >= 64u) {
    return vec2<u32>(0u, 0u);
  }
  if (n >= 32u) {
    return vec2<u32>(0u, a.x << (n - 32u));
  }
  return vec2<u32>(a.x << n, (a.y << n) | (a.x >> (32u - n)));
}

// a >> n (logical) for n in 0..64 (64 gives 0)
fn u64_shr(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n == 0u) {
    return a;
  }
  if (n >= 64u) {
    return vec2<u32>(0u, 0u);
  }
  if (n >= 32u) {
    return vec2<u32>(a.y >> (n - 32u), 0u);
  }
  return vec2<u32>((a.x >> n) | (a.y << (32u - n)), a.y >> n);
}

// number of significant bits of a as unsigned (0 for 0)
fn u64_bit_length(a: vec2<u32>) -> u32 {
  if (a.y != 0u) {
    return 64u - countLeadingZeros(a.y);
  }
  return 32u - countLeadingZeros(a.x);
}

// unsigned 64 x 64 -> 128
fn u64_mul(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
  let p00 = mul_u32_wide(a.x, b.x);
  let p01 = mul_u32_wide(a.x, b.y);
  let p10 = mul_u32_wide(a.y, b.x);
  let p11 = mul_u32_wide(a.y, b.y);
  // word 1: p00.y + p01.x + p10.x
  var w1 = p00.y + p01.x;
  var c1 = select(0u, 1u, w1 < p00.y);
  w1 = w1 + p10.x;
  c1 = c1 + select(0u, 1u, w1 < p10.x);
  // word 2: p01.y + p10.y + p11.x + c1
  var w2 = p01.y + p10.y;
  var c2 = select(0u, 1u, w2 < p01.y);
  w2 = w2 + p11.x;
  c2 = c2 + select(0u, 1u, w2 < p11.x);
  w2 = w2 + c1;
  c2 = c2 + select(0u, 1u, w2 < c1);
  return vec4<u32>(p00.x, w1, w2, p11.y + c2);
}

fn i64_mul(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
  let na = i64_is_neg(a);
  let nb = i64_is_neg(b);
  let p = u64_mul(select(a, i64_neg(a), na), select(b, i64_neg(b), nb));
  return select(p, i128_neg(p), na != nb);
}

// ---- i128 ---------------------------------------------------------------------------------

fn i128_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  let x = a.x + b.x;
  let cx = select(0u, 1u, x < a.x);
  let y0 = a.y + b.y;
  let y = y0 + cx;
  let cy = select(0u, 1u, y0 < a.y) + select(0u, 1u, y < y0);
  let z0 = a.z + b.z;
  let z = z0 + cy;
  let cz = select(0u, 1u, z0 < a.z) + select(0u, 1u, z < z0);
  return vec4<u32>(x, y, z, a.w + b.w + cz);
}

fn i128_neg(a: vec4<u32>) -> vec4<u32> {
  return i128_add(~a, vec4<u32>(1u, 0u, 0u, 0u));
}

fn i128_sub(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  return i128_add(a, i128_neg(b));
}

fn i128_is_neg(a: vec4<u32>) -> bool {
  return (a.w >> 31u) != 0u;
}

fn i128_is_zero(a: vec4<u32>) -> bool {
  return (a.x | a.y | a.z | a.w) == 0u;
}

fn i128_sign(a: vec4<u32>) -> i32 {
  if (i128_is_neg(a)) {
    return -1;
  }
  return select(1, 0, i128_is_zero(a));
}

fn i128_from_i64(a: vec2<u32>) -> vec4<u32> {
  let s = select(0u, 0xffffffffu, i64_is_neg(a));
  return vec4<u32>(a.x, a.y, s, s);
}

fn i128_shl1(a: vec4<u32>) -> vec4<u32> {
  return vec4<u32>(a.x << 1u, (a.y << 1u) | (a.x >> 31u), (a.z << 1u) | (a.y >> 31u), (a.w << 1u) | (a.z >> 31u));
}

// ---- W8 (i256) ----------------------------------------------------------------------------

fn w8_from_i128(a: vec4<u32>) -> W8 {
  let s = select(0u, 0xffffffffu, i128_is_neg(a));
  return W8(a.x, a.y, a.z, a.w, s, s, s, s);
}

fn w8_add(a: W8, b: W8) -> W8 {
  var x = a;
  let y = b;
  var carry = 0u;
  for (var k = 0u; k < 8u; k++) {
    let s0 = x[k] + y[k];
    let s = s0 + carry;
    carry = select(0u, 1u, s0 < x[k]) + select(0u, 1u, s < s0);
    x[k] = s;
  }
  return x;
}

fn w8_neg(a: W8) -> W8 {
  var x = a;
  var carry = 1u;
  for (var k = 0u; k < 8u; k++) {
    let s = ~x[k] + carry;
    carry = select(0u, 1u, s < carry);
    x[k] = s;
  }
  return x;
}

fn w8_sub(a: W8, b: W8) -> W8 {
  return w8_add(a, w8_neg(b));
}

fn w8_is_neg(a: W8) -> bool {
  return (a[7] >> 31u) != 0u;
}

fn w8_is_zero(a: W8) -> bool {
  return (a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7]) == 0u;
}

fn w8_sign(a: W8) -> i32 {
  if (w8_is_neg(a)) {
    return -1;
  }
  return select(1, 0, w8_is_zero(a));
}

// signed comparison: -1 when a < b, 0 when equal, 1 when a > b
fn w8_cmp(a: W8, b: W8) -> i32 {
  let x = a;
  let y = b;
  if (x[7] != y[7]) {
    return select(1, -1, bitcast<i32>(x[7]) < bitcast<i32>(y[7]));
  }
  for (var k = 6; k >= 0; k--) {
    if (x[k] != y[k]) {
      return select(1, -1, x[k] < y[k]);
    }
  }
  return 0;
}

// unsigned 128 x 128 -> 256, schoolbook over u32 words
fn u128_mul(a: vec4<u32>, b: vec4<u32>) -> W8 {
  var r = W8(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  for (var i = 0u; i < 4u; i++) {
    var carry = 0u;
    for (var j = 0u; j < 4u; j++) {
      let p = mul_u32_wide(a[i], b[j]);
      let s0 = r[i + j] + p.x;
      let s = s0 + carry;
      carry = p.y + select(0u, 1u, s0 < p.x) + select(0u, 1u, s < s0);
      r[i + j] = s;
    }
    r[i + 4u] = carry;
  }
  return r;
}

fn i128_mul(a: vec4<u32>, b: vec4<u32>) -> W8 {
  let na = i128_is_neg(a);
  let nb = i128_is_neg(b);
  let p = u128_mul(select(a, i128_neg(a), na), select(b, i128_neg(b), nb));
  if (na != nb) {
    return w8_neg(p);
  }
  return p;
}

// |a| (a >= 0 assumed) as f32 times 2^shift: (top 32 significant bits as f32, shift)
struct WideEstimate {
  top: f32,
  shift: i32,
}

fn w8_estimate(a: W8) -> WideEstimate {
  let x = a;
  var k = 7;
  while (k > 0 && x[k] == 0u) {
    k--;
  }
  let bits = 32 * k + 32 - i32(countLeadingZeros(x[k]));
  if (bits <= 32) {
    return WideEstimate(f32(x[0]), 0);
  }
  let shift = bits - 32;
  let word = shift / 32;
  let bit = u32(shift % 32);
  var top = x[word] >> bit;
  if (bit != 0u) {
    top = top | (x[word + 1] << (32u - bit));
  }
  return WideEstimate(f32(top), shift);
}

// trunc(|r| / d) roughly (relative error about 2^-20), as a non-negative i64; |r| / d < 2^63 assumed
fn w8_quotient_estimate(r_abs: W8, d: W8) -> vec2<u32> {
  let er = w8_estimate(r_abs);
  let ed = w8_estimate(d);
  let rho = er.top / ed.top;
  let bits = bitcast<u32>(rho);
  let field = i32((bits >> 23u) & 0xffu);
  if (field == 0) {
    return vec2<u32>(0u, 0u);
  }
  let mant = vec2<u32>((bits & 0x7fffffu) | 0x800000u, 0u);
  // value = mant · 2^(field - 150) · 2^(er.shift - ed.shift)
  let k = field - 150 + er.shift - ed.shift;
  if (k >= 0) {
    return u64_shl(mant, u32(min(k, 64)));
  }
  return u64_shr(mant, u32(min(-k, 64)));
}

// floor(n / d) for d > 0 (i128) when |n / d| <= 2^62 (the caller checks); exact
fn w8_div_floor(n: W8, d: vec4<u32>) -> vec2<u32> {
  let dw = w8_from_i128(d);
  var q = vec2<u32>(0u, 0u);
  var r = n;
  // each step shrinks |r| / d by about 2^-20 (or to below 1): 4 steps from 2^62
  for (var step = 0; step < 6; step++) {
    let neg = w8_is_neg(r);
    var r_abs = r;
    if (neg) {
      r_abs = w8_neg(r);
    }
    let est = w8_quotient_estimate(r_abs, dw);
    if (i64_is_zero(est)) {
      break;
    }
    let signed_est = select(est, i64_neg(est), neg);
    q = i64_add(q, signed_est);
    r = w8_sub(r, i128_mul(i128_from_i64(signed_est), d));
  }
  // now |r| < d (1 + 2^-19): at most a step or two to 0 <= r < d
  for (var fix = 0; fix < 4; fix++) {
    if (w8_is_neg(r)) {
      q = i64_sub(q, vec2<u32>(1u, 0u));
      r = w8_add(r, dw);
    } else if (w8_cmp(r, dw) >= 0) {
      q = i64_add(q, vec2<u32>(1u, 0u));
      r = w8_sub(r, dw);
    } else {
      break;
    }
  }
  return q;
}
`;

/** {@link WIDE_INT_WGSL} as a module (no dependencies). */
export const WIDE_INT: WgslModule = wgslModule('exact/wide-int', WIDE_INT_WGSL);
