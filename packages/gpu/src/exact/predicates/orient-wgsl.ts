import { type WgslModule, wgslModule } from '../../runtime/wgsl-module.js';
import { FIXED_POINT } from '../fixed-point-wgsl.js';
import { PREDICATE_SUPPORT } from './predicate-support-wgsl.js';
/**
 * Exact orientation of three fixed points, float filter first, in WGSL. Needs `FIXED_WGSL`
 * (for `fixed_orient` and the wide integers) and {@link PREDICATE_SUPPORT_WGSL} before it.
 *
 * - `orient_sign(a, b, c) -> i32`: the exact sign of cross(b − a, c − a): +1 when a, b, c turn
 *   counter-clockwise (c left of a→b, y up), −1 clockwise, 0 collinear (or coincident points).
 *   This is Shewchuk's orient2d sign and the opposite of robust-predicates' `orient2d`.
 *   Grid values below 2^58 in magnitude (differences below 2^59).
 * - `orient_sign_path(a, b, c) -> vec2<i32>`: (sign, path) with path 0 when the float filter
 *   decided, 1 when a small-integer exact evaluation did (exact ties of lattices land here),
 *   2 when the full 128-bit `fixed_orient` ran.
 *
 * Filter. The differences are exact i64; each is converted to f32 by truncation to 24 significant
 * bits (relative error below ε = 2^−23, no float operation involved). WGSL only promises faithful
 * rounding for f32 + − × (the result is one of the two floats around the exact value: relative
 * error below ε = 2^−23 for normal results), and a compiler may contract a·b − t into one fused
 * multiply-add. The determinant D = bx·cy − by·cx is a sum of two monomials; each monomial passes
 * through at most 4 roundings (two conversions, its product, the subtraction; a fused operation
 * only drops one), so |D̃ − D| ≤ ((1+ε)^4 − 1)·P < (4ε + 7ε²)·P with P = |bx·cy| + |by·cx|.
 * The bound is computed as P̃ = |t̃1| + |t̃2| (each monomial again through at most 4 roundings, so
 * P̃ ≥ (1−ε)^4·P), times 2^−20 = 8ε (a power of two: that product is exact). Then
 * 8ε·P̃ ≥ 8ε(1 − 4ε)·P > (4ε + 7ε²)·P, so |D̃| > 8ε·P̃ implies sign(D̃) = sign(D). Values are
 * integers of magnitude 1 to 2^119 (no overflow, no underflow) and the comparison is exact.
 *
 * Ties. When the filter cannot decide, every difference is m·2^s with s the smallest trailing-
 * zero count; with span = bitLength − s: span ≤ 11 makes every step of the float evaluation exact
 * (|m| < 2^11, products < 2^22, D/2^(2s) < 2^23), so D̃ itself is the exact answer, 0 included;
 * span ≤ 30 evaluates m's determinant exactly in i64 (products < 2^60); wider spans take
 * `fixed_orient` (128 bits).
 */
export const ORIENT_WGSL = /* wgsl */ `
const ORIENT_FILTER_FACTOR: f32 = 9.5367431640625e-7; // 2^-20 = 8 · 2^-23

fn orient_sign_path(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>) -> vec2<i32> {
  let bx = i64_sub(b.xy, a.xy);
  let by = i64_sub(b.zw, a.zw);
  let cx = i64_sub(c.xy, a.xy);
  let cy = i64_sub(c.zw, a.zw);
  let t1 = i64_to_f32_scaled(bx, 0) * i64_to_f32_scaled(cy, 0);
  let t2 = i64_to_f32_scaled(by, 0) * i64_to_f32_scaled(cx, 0);
  let det = t1 - t2;
  if (abs(det) > ORIENT_FILTER_FACTOR * (abs(t1) + abs(t2))) {
    return vec2<i32>(f32_sign(det), 0);
  }
  var span = DiffSpan(0u, 64u);
  span = diff_span_add(span, bx);
  span = diff_span_add(span, by);
  span = diff_span_add(span, cx);
  span = diff_span_add(span, cy);
  if (span.len == 0u) {
    return vec2<i32>(0, 1); // a = b = c
  }
  let width = span.len - span.zeros;
  if (width <= 11u) {
    return vec2<i32>(f32_sign(det), 1); // every float step above was exact
  }
  if (width <= 30u) {
    let s = span.zeros;
    let p1 = i32_mul_wide(i64_shr_small(bx, s), i64_shr_small(cy, s));
    let p2 = i32_mul_wide(i64_shr_small(by, s), i64_shr_small(cx, s));
    return vec2<i32>(i64_sign(i64_sub(p1, p2)), 1);
  }
  return vec2<i32>(fixed_orient(a, b, c), 2);
}

fn orient_sign(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>) -> i32 {
  return orient_sign_path(a, b, c).x;
}
`;

/** {@link ORIENT_WGSL} as a module (`fixed_orient` is the fixed-point library's). */
export const ORIENT: WgslModule = wgslModule('exact/orient', ORIENT_WGSL, [FIXED_POINT, PREDICATE_SUPPORT]);
