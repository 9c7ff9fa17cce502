import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import type { FixedGrid } from './fixed-grid.js';
import { WIDE_INT } from './wide-int-wgsl.js';

/**
 * Fixed-point predicates and conversions on the grid of `fixedGrid`, in WGSL. A fixed point is a
 * `vec4<u32>`: (x.lo, x.hi, y.lo, y.hi), two i64 grid values. Needs {@link WIDE_INT} before
 * it (the combined `FIXED_WGSL` has both).
 *
 * - `struct GridUniforms { box_min: vec4<u32>, box_max: vec4<u32>, exponent: i32, … }` (48 bytes;
 *   host words from {@link gridUniformWords}) and the module-scope copies the functions read:
 *   `var<private> grid_box_min`, `grid_box_max` (fixed points) and `grid_exponent`. A kernel calls
 *   `grid_init(g)` once at the start of its entry point with a `GridUniforms` from wherever it
 *   binds it (its own uniform block, or {@link gridUniformsBindingWgsl}'s `grid_uniforms`).
 * - `fixed_orient(a, b, c) -> i32`: exact sign of cross(b − a, c − a): +1 counter-clockwise
 *   (left turn, y up), −1 clockwise, 0 collinear. Grid values below 2^62 in magnitude.
 * - `fixed_less(a, b) -> bool`: lexicographic, smaller x first, then smaller y (signed).
 * - `fixed_equal(a, b) -> bool`: bitwise equality.
 * - `fixed_in_box(p) -> bool`: p lies in the closed grid box.
 * - `fixed_to_f64(v: vec2<u32>) -> vec2<u32>`: the IEEE f64 bits (low word, high word) of
 *   v · 2^grid_exponent correctly rounded to nearest, ties to even (any i64 v; ±0 → +0; overflow
 *   → ±∞; subnormals exact-rounded). `fixed_to_f64_exp(v, e)` takes the exponent explicitly;
 *   `fixed_point_to_f64(p)` converts both coordinates of a fixed point (x bits, then y bits).
 */
export const FIXED_POINT_WGSL = /* wgsl */ `
struct GridUniforms {
  box_min: vec4<u32>,
  box_max: vec4<u32>,
  exponent: i32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

var<private> grid_box_min: vec4<u32>;
var<private> grid_box_max: vec4<u32>;
var<private> grid_exponent: i32;

fn grid_init(g: GridUniforms) {
  grid_box_min = g.box_min;
  grid_box_max = g.box_max;
  grid_exponent = g.exponent;
}

fn fixed_orient(a: vec4<u32>, b: vec4<u32>, c: vec4<u32>) -> i32 {
  let bx = i64_sub(b.xy, a.xy);
  let by = i64_sub(b.zw, a.zw);
  let cx = i64_sub(c.xy, a.xy);
  let cy = i64_sub(c.zw, a.zw);
  return i128_sign(i128_sub(i64_mul(bx, cy), i64_mul(by, cx)));
}

fn fixed_less(a: vec4<u32>, b: vec4<u32>) -> bool {
  if (any(a.xy != b.xy)) {
    return i64_lt(a.xy, b.xy);
  }
  return i64_lt(a.zw, b.zw);
}

fn fixed_equal(a: vec4<u32>, b: vec4<u32>) -> bool {
  return all(a == b);
}

fn fixed_in_box(p: vec4<u32>) -> bool {
  return !i64_lt(p.xy, grid_box_min.xy) && !i64_lt(grid_box_max.xy, p.xy)
    && !i64_lt(p.zw, grid_box_min.zw) && !i64_lt(grid_box_max.zw, p.zw);
}

// round(m / 2^n) to nearest, ties to even, for unsigned m and any n
fn u64_shr_round_even(m: vec2<u32>, n: u32) -> vec2<u32> {
  if (n == 0u) {
    return m;
  }
  if (n > 64u) {
    return vec2<u32>(0u, 0u);
  }
  let q = u64_shr(m, n);
  let rest = i64_sub(m, u64_shl(q, n)); // m mod 2^n, below 2^n (unsigned)
  let half = u64_shl(vec2<u32>(1u, 0u), n - 1u);
  var up = false;
  if (any(rest != half)) {
    // unsigned rest > half
    up = rest.y > half.y || (rest.y == half.y && rest.x > half.x);
  } else {
    up = (q.x & 1u) == 1u;
  }
  return select(q, i64_add(q, vec2<u32>(1u, 0u)), up);
}

fn fixed_to_f64_exp(v: vec2<u32>, e: i32) -> vec2<u32> {
  if (i64_is_zero(v)) {
    return vec2<u32>(0u, 0u);
  }
  let neg = i64_is_neg(v);
  let sign = select(0u, 0x80000000u, neg);
  let m = select(v, i64_neg(v), neg); // |v| as unsigned (2^63 for the most negative)
  let top = i32(u64_bit_length(m)) - 1; // m in [2^top, 2^(top+1))
  let binary_exponent = top + e;
  if (binary_exponent > 1023) {
    return vec2<u32>(0u, sign | 0x7ff00000u);
  }
  // bits = (base << 52) + mantissa: for normals base = exponent - 1 + bias and the mantissa keeps
  // its hidden bit (53 bits), for subnormals base = 0 and the mantissa counts units of 2^-1074;
  // a rounding carry into bit 53 moves into the exponent field by the addition itself
  var base = 0;
  var shift = 0; // right shift of m
  if (binary_exponent >= -1022) {
    base = binary_exponent + 1022;
    shift = top - 52;
  } else {
    shift = -(e + 1074);
  }
  var mant: vec2<u32>;
  if (shift <= 0) {
    mant = u64_shl(m, u32(-shift));
  } else {
    mant = u64_shr_round_even(m, u32(shift));
  }
  let hi = (u32(base) << 20u) + mant.y;
  return vec2<u32>(mant.x, sign | hi);
}

fn fixed_to_f64(v: vec2<u32>) -> vec2<u32> {
  return fixed_to_f64_exp(v, grid_exponent);
}

fn fixed_point_to_f64(p: vec4<u32>) -> vec4<u32> {
  return vec4<u32>(fixed_to_f64(p.xy), fixed_to_f64(p.zw));
}
`;

/** Byte size of `GridUniforms` (box_min, box_max, exponent, padding). */
export const GRID_UNIFORMS_BYTES = 48;

/**
 * The 12 u32 words of a `GridUniforms` for `grid`: box min (x.lo, x.hi, y.lo, y.hi), box max, the
 * exponent (as i32 bits) and 3 words of padding. Put them in a uniform buffer (see
 * {@link gridUniformsBindingWgsl}) or at the start of a kernel's own parameter block.
 */
export function gridUniformWords(grid: FixedGrid): Uint32Array {
  const words = new Uint32Array(GRID_UNIFORMS_BYTES / 4);
  words.set(grid.box, 0);
  words[8] = grid.exponent >>> 0;
  return words;
}

/**
 * WGSL declaring `grid_uniforms: GridUniforms` as a uniform at `@group(group) @binding(binding)`.
 * A kernel using it calls `grid_init(grid_uniforms);` first thing in its entry point (with
 * `layout: 'auto'`, a declared binding the entry point never reads is dropped from the layout).
 */
export function gridUniformsBindingWgsl(group: number, binding: number): string {
  return /* wgsl */ `@group(${group}) @binding(${binding}) var<uniform> grid_uniforms: GridUniforms;\n`;
}

/** {@link FIXED_POINT_WGSL} as a module. */
export const FIXED_POINT: WgslModule = wgslModule('exact/fixed-point', FIXED_POINT_WGSL, [WIDE_INT]);
