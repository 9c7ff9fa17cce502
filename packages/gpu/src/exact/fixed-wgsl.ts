import { CIRCUMCENTER_WGSL } from './circumcenter-wgsl.js';
import { CLIP_BISECTOR_WGSL } from './clip-bisector-wgsl.js';
import { FIXED_POINT_WGSL } from './fixed-point-wgsl.js';
import { WIDE_INT_WGSL } from './wide-int-wgsl.js';

/**
 * The whole exact-numerics WGSL library in dependency order: wide integers
 * ({@link WIDE_INT_WGSL}), fixed-point predicates, grid uniforms and `fixed_to_f64`
 * ({@link FIXED_POINT_WGSL}), `circumcenter_fixed` ({@link CIRCUMCENTER_WGSL}), `clip_bisector`
 * ({@link CLIP_BISECTOR_WGSL}).
 * Prepend it once to a kernel's source (it declares no bindings); a kernel that reads the grid
 * box or exponent calls `grid_init(…)` at the start of its entry point.
 */
export const FIXED_WGSL = [WIDE_INT_WGSL, FIXED_POINT_WGSL, CIRCUMCENTER_WGSL, CLIP_BISECTOR_WGSL].join('\n');
