import { linkWgsl, type WgslModule, wgslModule } from '../../runtime/wgsl-module.js';
import { SOS } from './sos-wgsl.js';

/**
 * The Delaunay predicates in WGSL: helpers (`PREDICATE_SUPPORT_WGSL`), `orient_sign` /
 * `orient_sign_path` (`ORIENT_WGSL`), `incircle_sign` / `incircle_sign_path` (`INCIRCLE_WGSL`),
 * `orient_sos` / `incircle_sos` (`SOS_WGSL`), with what they need of the exact library; a module
 * with no source of its own, for {@link linkWgsl}. They declare no bindings and read no grid
 * uniforms. Points are fixed-grid `vec4<u32>` values below 2^58 in magnitude.
 */
export const DELAUNAY_PREDICATES: WgslModule = wgslModule('exact/delaunay-predicates', '', [SOS]);

/** {@link DELAUNAY_PREDICATES} linked with its dependencies, for a kernel that needs nothing else. */
export const DELAUNAY_PREDICATES_WGSL = linkWgsl(DELAUNAY_PREDICATES);
