export { INCIRCLE_WGSL } from './incircle-wgsl.js';
export { ORIENT_WGSL } from './orient-wgsl.js';
export { PREDICATE_SUPPORT_WGSL } from './predicate-support-wgsl.js';
export { DELAUNAY_PREDICATES_WGSL } from './predicates-wgsl.js';
export { SOS_WGSL } from './sos-wgsl.js';
