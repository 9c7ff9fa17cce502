export { CIRCUMCENTER, CIRCUMCENTER_WGSL } from './circumcenter-wgsl.js';
export { CLIP_BISECTOR, CLIP_BISECTOR_WGSL } from './clip-bisector-wgsl.js';
export {
  bigIntTimesPow2,
  bigIntToWords,
  type FixedGrid,
  fixedBoxBigInt,
  fixedGrid,
  fixedSiteBigInt,
  fixedToNumber,
  floorLog2,
  GRID_VALUE_BITS,
  toGrid,
  wordsToBigInt,
} from './fixed-grid.js';
export {
  FIXED_POINT,
  FIXED_POINT_WGSL,
  GRID_UNIFORMS_BYTES,
  gridUniformsBindingWgsl,
  gridUniformWords,
} from './fixed-point-wgsl.js';
export { EXACT_FIXED, FIXED_WGSL } from './fixed-wgsl.js';
export { WIDE_INT } from './wide-int-wgsl.js';
