/**
 * f64 equality of two f64 bit pairs as JS's `===` decides it (+0 equals −0; the converted
 * points are finite, so NaN never occurs), and of two points of such pairs.
 */
export const SAME_POINT_WGSL = /* wgsl */ `
fn same_f64(a: vec2u, b: vec2u) -> bool {
  return all(a == b) || ((a.x | b.x) == 0u && ((a.y | b.y) & 0x7fffffffu) == 0u);
}
fn same_point(a: vec4u, b: vec4u) -> bool {
  return same_f64(a.xy, b.xy) && same_f64(a.zw, b.zw);
}
`;
