export { INCIRCLE, INCIRCLE_WGSL } from './incircle-wgsl.js';
export { ORIENT, ORIENT_WGSL } from './orient-wgsl.js';
export { PREDICATE_SUPPORT, PREDICATE_SUPPORT_WGSL } from './predicate-support-wgsl.js';
export { DELAUNAY_PREDICATES, DELAUNAY_PREDICATES_WGSL } from './predicates-wgsl.js';
export { SOS, SOS_WGSL } from './sos-wgsl.js';
