import { linkWgsl, type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { CIRCUMCENTER } from './circumcenter-wgsl.js';
import { CLIP_BISECTOR } from './clip-bisector-wgsl.js';

/**
 * The whole exact-numerics WGSL library: wide integers (`WIDE_INT`), fixed-point
 * predicates, grid uniforms and `fixed_to_f64` (`FIXED_POINT_WGSL`), `circumcenter_fixed`
 * (`CIRCUMCENTER_WGSL`), `clip_bisector` (`CLIP_BISECTOR_WGSL`); a module with no source of its
 * own, for {@link linkWgsl}. A kernel that reads the grid box or exponent calls `grid_init(…)` at
 * the start of its entry point.
 */
export const EXACT_FIXED: WgslModule = wgslModule('exact/fixed', '', [CIRCUMCENTER, CLIP_BISECTOR]);

/** {@link EXACT_FIXED} linked (dependency order); prepend it once to a kernel that needs nothing else. */
export const FIXED_WGSL = linkWgsl(EXACT_FIXED);
