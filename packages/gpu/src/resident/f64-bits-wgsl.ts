import { WIDE_INT } from '../exact/wide-int-wgsl.js';
import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';

/**
 * f64 values held as their bits (`vec2<u32>`: low word, high word) in WGSL, which has no f64:
 * decoded exactly into an integer and a power of two, compared in their total order, and
 * produced from a wide integer with one correct rounding (to nearest, ties to even), over the
 * wide integers (`WIDE_INT`: i64, i128, W8).
 *
 * - `f64_parts(b) -> F64Parts`: `b = ±m · 2^k` with `m` odd (or 0), `finite` false for NaN/±∞
 * - `f64_key(b) -> vec2<u32>`: a u64 key ordered as the values are (−0 below +0)
 * - `w8_to_f64(a, e) -> vec3<u32>`: `a · 2^e` for a non-negative W8 `a`, correctly rounded;
 *   `.z` is 1 when the result would be infinite or subnormal (the caller declines), else 0
 */
export const F64_BITS: WgslModule = wgslModule(
  'resident/f64-bits',
  /* wgsl */ `
struct F64Parts {
  m: vec2<u32>,
  k: i32,
  neg: bool,
  finite: bool,
}

fn u64_trailing_zeros(a: vec2<u32>) -> u32 {
  if (a.x != 0u) {
    return countTrailingZeros(a.x);
  }
  if (a.y != 0u) {
    return 32u + countTrailingZeros(a.y);
  }
  return 0u;
}

fn f64_parts(b: vec2<u32>) -> F64Parts {
  let field = (b.y >> 20u) & 0x7ffu;
  var m = vec2<u32>(b.x, b.y & 0xfffffu);
  var k = -1074;
  if (field != 0u) {
    m.y |= 0x100000u;
    k = i32(field) - 1075;
  }
  let tz = u64_trailing_zeros(m);
  return F64Parts(u64_shr(m, tz), k + i32(tz), (b.y >> 31u) != 0u, field != 0x7ffu);
}

fn f64_key(b: vec2<u32>) -> vec2<u32> {
  if ((b.y >> 31u) != 0u) {
    return ~b;
  }
  return vec2<u32>(b.x, b.y | 0x80000000u);
}

fn u64_less(a: vec2<u32>, b: vec2<u32>) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// word i of a, 0 past its top
fn w8_word(a: ptr<function, W8>, i: u32) -> u32 {
  if (i >= 8u) {
    return 0u;
  }
  return (*a)[i];
}

// bits [s, s + 64) of a
fn w8_window64(a: ptr<function, W8>, s: u32) -> vec2<u32> {
  let q = s / 32u;
  let r = s % 32u;
  if (r == 0u) {
    return vec2<u32>(w8_word(a, q), w8_word(a, q + 1u));
  }
  let w0 = w8_word(a, q);
  let w1 = w8_word(a, q + 1u);
  let w2 = w8_word(a, q + 2u);
  return vec2<u32>((w0 >> r) | (w1 << (32u - r)), (w1 >> r) | (w2 << (32u - r)));
}

// whether any bit of a below bit s is set
fn w8_any_below(a: ptr<function, W8>, s: u32) -> bool {
  let q = s / 32u;
  for (var i = 0u; i < min(q, 8u); i++) {
    if ((*a)[i] != 0u) {
      return true;
    }
  }
  let r = s % 32u;
  return r != 0u && (w8_word(a, q) & ((1u << r) - 1u)) != 0u;
}

fn w8_to_f64(value: W8, e: i32) -> vec3<u32> {
  var a = value;
  var top = -1;
  for (var i = 7; i >= 0; i--) {
    if (a[i] != 0u) {
      top = 32 * i + 31 - i32(countLeadingZeros(a[i]));
      break;
    }
  }
  if (top < 0) {
    return vec3<u32>(0u, 0u, 0u);
  }
  let binary_exponent = top + e;
  if (binary_exponent > 1023 || binary_exponent < -1022) {
    return vec3<u32>(0u, 0u, 1u);
  }
  var mant: vec2<u32>;
  if (top <= 52) {
    mant = u64_shl(w8_window64(&a, 0u), u32(52 - top));
  } else {
    let s = u32(top - 52);
    mant = w8_window64(&a, s);
    mant.y &= 0x1fffffu; // the 53 bits from the top down
    let round_bit = (w8_window64(&a, s - 1u).x & 1u) != 0u;
    let sticky = w8_any_below(&a, s - 1u);
    if (round_bit && (sticky || (mant.x & 1u) != 0u)) {
      mant = i64_add(mant, vec2<u32>(1u, 0u));
    }
  }
  // the hidden bit adds one to the exponent field, and a rounding carry into bit 53 one more
  let hi = (u32(binary_exponent + 1022) << 20u) + mant.y;
  // a carry out of 2^1024 gives the infinity pattern: declined as well
  return vec3<u32>(mant.x, hi, select(0u, 1u, (hi >> 20u) >= 0x7ffu));
}
`,
  [WIDE_INT],
);
