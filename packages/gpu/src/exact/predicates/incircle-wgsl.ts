import { type WgslModule, wgslModule } from '../../runtime/wgsl-module.js';
import { FIXED_POINT } from '../fixed-point-wgsl.js';
import { PREDICATE_SUPPORT } from './predicate-support-wgsl.js';
/**
 * Exact incircle test of four fixed points, float filter first, in WGSL. Needs `FIXED_WGSL` and
 * {@link PREDICATE_SUPPORT_WGSL} before it.
 *
 * - `incircle_sign(a, b, c, d) -> i32`: the exact sign of
 *   | adx ady adx²+ady² ; bdx bdy bdx²+bdy² ; cdx cdy cdx²+cdy² | (differences from d):
 *   +1 when d lies inside the circle through a, b, c given counter-clockwise, −1 outside, 0 on it
 *   (for clockwise a, b, c the sign flips; collinear a, b, c give the side of the line as
 *   orientation-like values). Shewchuk's incircle sign, and the same sign as robust-predicates'
 *   `incircle` (whose `orient2d` is the negated one). Grid values below 2^58 in magnitude.
 * - `incircle_sign_path(a, b, c, d) -> vec2<i32>`: (sign, path): 0 float filter, 1 small-integer
 *   exact evaluation (lattice ties), 2 full 256-bit evaluation.
 *
 * Filter. The six differences (exact i64) are converted to f32 by truncation to 24 bits and a
 * common power-of-two scale 2^−k (k = largest bit length − 1, so the largest lies in [1, 2) and
 * nothing overflows; relative error below ε = 2^−23, no float operation involved). The determinant
 * is the sum of 12 monomials of degree 4, e.g. adx·adx·bdx·cdy; along its evaluation
 * (lift = x·x + y·y, cross = p·q − r·s, lift·cross, then two additions in any association) each
 * monomial meets at most 11 roundings: 4 conversions, its two products, the lift's and the
 * cross's addition, the outer product, two outer additions. WGSL's f32 + − × are faithful
 * (relative error < ε) and may be fused or reassociated, which only removes roundings or
 * reorders the two outer additions, so |D̃ − D| ≤ ((1+ε)^11 − 1)·P < (11ε + 60ε²)·P with P the
 * sum of the monomials' magnitudes, Σ lift·(|p·q| + |r·s|). P̃ is evaluated the same way from the
 * same products (at most 11 roundings a monomial, P̃ ≥ (1 − 11ε)·P) and scaled by 2^−19 = 16ε
 * (exact): 16ε·P̃ > (11ε + 60ε²)·P. Scaled values may underflow (the smallest nonzero difference
 * becomes 2^−58, products of four such are below f32's normal range, and WGSL may flush
 * subnormals): each underflow is an absolute error below 2^−126, multiplied afterwards by factors
 * of at most 8 (lifts and crosses are below 8, scaled), about 30 of them in all, so they add less
 * than 2^−116; the bound adds 2^−100. |D̃| > 16ε·P̃ + 2^−100 implies sign(D̃) = sign(D).
 *
 * Ties. Every difference is m·2^s (s the smallest trailing-zero count, span = bit length − s):
 * - span ≤ 5: the float evaluation above was exact (|m| ≤ 31: lifts and crosses < 2^11, the three
 *   products and any partial sum < 2^24, exponents ≥ 2^−16): D̃ is the answer, 0 included;
 * - span ≤ 14: m's determinant in 32/64-bit integers (lifts and crosses < 2^29, products < 2^58,
 *   sum < 2^60);
 * - otherwise the full evaluation: lifts and crosses below 2·(2^59)² = 2^119 (i128), products
 *   below 2^238, |D| < 3·2^238 < 2^240: 256-bit words (`W8`, 15 bits to spare) are enough; with
 *   differences up to 2^60 the bound is 3·2^242, still inside.
 */
export const INCIRCLE_WGSL = /* wgsl */ `
const INCIRCLE_FILTER_FACTOR: f32 = 1.9073486328125e-6; // 2^-19 = 16 · 2^-23
const INCIRCLE_FILTER_FLOOR: f32 = 7.888609052210118e-31; // 2^-100, covers underflow

fn incircle_exact(adx: vec2<u32>, ady: vec2<u32>, bdx: vec2<u32>, bdy: vec2<u32>,
                  cdx: vec2<u32>, cdy: vec2<u32>) -> i32 {
  let alift = i128_add(i64_mul(adx, adx), i64_mul(ady, ady));
  let blift = i128_add(i64_mul(bdx, bdx), i64_mul(bdy, bdy));
  let clift = i128_add(i64_mul(cdx, cdx), i64_mul(cdy, cdy));
  let bc = i128_sub(i64_mul(bdx, cdy), i64_mul(bdy, cdx));
  let ca = i128_sub(i64_mul(cdx, ady), i64_mul(cdy, adx));
  let ab = i128_sub(i64_mul(adx, bdy), i64_mul(ady, bdx));
  let det = w8_add(w8_add(i128_mul(alift, bc), i128_mul(blift, ca)), i128_mul(clift, ab));
  return w8_sign(det);
}

fn incircle_small(adx: i32, ady: i32, bdx: i32, bdy: i32, cdx: i32, cdy: i32) -> i32 {
  let alift = adx * adx + ady * ady;
  let blift = bdx * bdx + bdy * bdy;
  let clift = cdx * cdx + cdy * cdy;
  let bc = bdx * cdy - bdy * cdx;
  let ca = cdx * ady - cdy * adx;
  let ab = adx * bdy - ady * bdx;
  let det = i64_add(i64_add(i32_mul_wide(alift, bc), i32_mul_wide(blift, ca)), i32_mul_wide(clift, ab));
  return i64_sign(det);
}

fn incircle_sign_path(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>, d: vec4<u32>) -> vec2<i32> {
  let adx = i64_sub(a.xy, d.xy);
  let ady = i64_sub(a.zw, d.zw);
  let bdx = i64_sub(b.xy, d.xy);
  let bdy = i64_sub(b.zw, d.zw);
  let cdx = i64_sub(c.xy, d.xy);
  let cdy = i64_sub(c.zw, d.zw);
  var span = DiffSpan(0u, 64u);
  span = diff_span_add(span, adx);
  span = diff_span_add(span, ady);
  span = diff_span_add(span, bdx);
  span = diff_span_add(span, bdy);
  span = diff_span_add(span, cdx);
  span = diff_span_add(span, cdy);
  if (span.len == 0u) {
    return vec2<i32>(0, 1); // a = b = c = d
  }
  let k = i32(span.len) - 1;
  let fadx = i64_to_f32_scaled(adx, k);
  let fady = i64_to_f32_scaled(ady, k);
  let fbdx = i64_to_f32_scaled(bdx, k);
  let fbdy = i64_to_f32_scaled(bdy, k);
  let fcdx = i64_to_f32_scaled(cdx, k);
  let fcdy = i64_to_f32_scaled(cdy, k);
  let alift = fadx * fadx + fady * fady;
  let blift = fbdx * fbdx + fbdy * fbdy;
  let clift = fcdx * fcdx + fcdy * fcdy;
  let bc1 = fbdx * fcdy;
  let bc2 = fbdy * fcdx;
  let ca1 = fcdx * fady;
  let ca2 = fcdy * fadx;
  let ab1 = fadx * fbdy;
  let ab2 = fady * fbdx;
  let det = alift * (bc1 - bc2) + blift * (ca1 - ca2) + clift * (ab1 - ab2);
  let perm = alift * (abs(bc1) + abs(bc2)) + blift * (abs(ca1) + abs(ca2)) + clift * (abs(ab1) + abs(ab2));
  if (abs(det) > INCIRCLE_FILTER_FACTOR * perm + INCIRCLE_FILTER_FLOOR) {
    return vec2<i32>(f32_sign(det), 0);
  }
  let width = span.len - span.zeros;
  if (width <= 5u) {
    return vec2<i32>(f32_sign(det), 1); // every float step above was exact
  }
  if (width <= 14u) {
    let s = span.zeros;
    return vec2<i32>(incircle_small(i64_shr_small(adx, s), i64_shr_small(ady, s), i64_shr_small(bdx, s),
                                    i64_shr_small(bdy, s), i64_shr_small(cdx, s), i64_shr_small(cdy, s)), 1);
  }
  return vec2<i32>(incircle_exact(adx, ady, bdx, bdy, cdx, cdy), 2);
}

fn incircle_sign(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>, d: vec4<u32>) -> i32 {
  return incircle_sign_path(a, b, c, d).x;
}
`;

/** {@link INCIRCLE_WGSL} as a module. */
export const INCIRCLE: WgslModule = wgslModule('exact/incircle', INCIRCLE_WGSL, [
  FIXED_POINT,
  PREDICATE_SUPPORT,
]);
