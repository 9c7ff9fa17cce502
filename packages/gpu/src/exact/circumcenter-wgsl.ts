import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { FIXED_POINT } from './fixed-point-wgsl.js';
import { WIDE_INT } from './wide-int-wgsl.js';
/**
 * The exact circumcenter of three grid points, rounded down to the grid, in WGSL (needs
 * `WIDE_INT` and `FIXED_POINT_WGSL` before it; the combined `FIXED_WGSL` has all).
 *
 * `circumcenter_fixed(a, b, c) -> CircumResult { p: vec4<u32>, far: bool }`: each coordinate of
 * `p` is floor(exact rational coordinate). The rational is computed relative to `a`
 * (x = a.x + (c'y·|b'|² − b'y·|c'|²) / (2·cross(b', c')) with b' = b − a, c' = c − a, likewise y)
 * with exact 256-bit integers, and the floor by `w8_div_floor` (an f32 estimate corrected with the
 * exact residual), so equal rationals — the same triangle in any vertex order, cocircular
 * triangles — give bitwise-equal points.
 *
 * `far` is set when a coordinate's floor lies outside [−2^62, 2^62) (that coordinate is then
 * saturated to −2^62 or 2^62, keeping its sign) or when the triangle is degenerate (collinear:
 * each coordinate saturated toward the sign of its numerator, 0 when that is 0).
 * Inputs: grid values below 2^58 in magnitude (as `fixedGrid` makes them).
 */
export const CIRCUMCENTER_WGSL = /* wgsl */ `
struct CircumResult {
  p: vec4<u32>,
  far: bool,
}

const FIXED_FAR_POSITIVE: vec2<u32> = vec2<u32>(0u, 0x40000000u); // 2^62
const FIXED_FAR_NEGATIVE: vec2<u32> = vec2<u32>(0u, 0xc0000000u); // -2^62

// floor(n / d) for d > 0, or a saturated value and far = true outside [-2^62, 2^62)
fn circumcenter_coordinate(n: W8, d: vec4<u32>, far: ptr<function, bool>) -> vec2<u32> {
  let limit = i128_mul(d, vec4<u32>(0u, 0x40000000u, 0u, 0u)); // d · 2^62
  if (w8_cmp(n, limit) >= 0) {
    *far = true;
    return FIXED_FAR_POSITIVE;
  }
  if (w8_cmp(n, w8_neg(limit)) < 0) {
    *far = true;
    return FIXED_FAR_NEGATIVE;
  }
  return w8_div_floor(n, d);
}

fn circumcenter_saturated(n: W8) -> vec2<u32> {
  let s = w8_sign(n);
  if (s > 0) {
    return FIXED_FAR_POSITIVE;
  }
  if (s < 0) {
    return FIXED_FAR_NEGATIVE;
  }
  return vec2<u32>(0u, 0u);
}

fn circumcenter_fixed(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>) -> CircumResult {
  let bx = i64_sub(b.xy, a.xy);
  let by = i64_sub(b.zw, a.zw);
  let cx = i64_sub(c.xy, a.xy);
  let cy = i64_sub(c.zw, a.zw);
  var d = i128_shl1(i128_sub(i64_mul(bx, cy), i64_mul(by, cx)));
  let bb = i128_add(i64_mul(bx, bx), i64_mul(by, by));
  let cc = i128_add(i64_mul(cx, cx), i64_mul(cy, cy));
  // numerators relative to a, then moved to the origin: a · d + u
  let ux = w8_sub(i128_mul(i128_from_i64(cy), bb), i128_mul(i128_from_i64(by), cc));
  let uy = w8_sub(i128_mul(i128_from_i64(bx), cc), i128_mul(i128_from_i64(cx), bb));
  if (i128_is_zero(d)) {
    return CircumResult(vec4<u32>(circumcenter_saturated(ux), circumcenter_saturated(uy)), true);
  }
  var nx = w8_add(ux, i128_mul(i128_from_i64(a.xy), d));
  var ny = w8_add(uy, i128_mul(i128_from_i64(a.zw), d));
  if (i128_is_neg(d)) {
    d = i128_neg(d);
    nx = w8_neg(nx);
    ny = w8_neg(ny);
  }
  var far = false;
  let x = circumcenter_coordinate(nx, d, &far);
  let y = circumcenter_coordinate(ny, d, &far);
  return CircumResult(vec4<u32>(x, y), far);
}
`;

/** {@link CIRCUMCENTER_WGSL} as a module. */
export const CIRCUMCENTER: WgslModule = wgslModule('exact/circumcenter', CIRCUMCENTER_WGSL, [
  WIDE_INT,
  FIXED_POINT,
]);
