import { INCIRCLE_WGSL } from './incircle-wgsl.js';
import { ORIENT_WGSL } from './orient-wgsl.js';
import { PREDICATE_SUPPORT_WGSL } from './predicate-support-wgsl.js';
import { SOS_WGSL } from './sos-wgsl.js';

/**
 * The Delaunay predicates in WGSL, in dependency order: helpers ({@link PREDICATE_SUPPORT_WGSL}),
 * `orient_sign` / `orient_sign_path` ({@link ORIENT_WGSL}), `incircle_sign` /
 * `incircle_sign_path` ({@link INCIRCLE_WGSL}), `orient_sos` / `incircle_sos` ({@link SOS_WGSL}).
 * Include it after `FIXED_WGSL` (the wide integers and `fixed_orient`); it declares no bindings
 * and reads no grid uniforms. Points are fixed-grid `vec4<u32>` values below 2^58 in magnitude.
 */
export const DELAUNAY_PREDICATES_WGSL = [PREDICATE_SUPPORT_WGSL, ORIENT_WGSL, INCIRCLE_WGSL, SOS_WGSL].join(
  '\n',
);
