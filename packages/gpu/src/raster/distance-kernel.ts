import { defineKernel } from '../runtime/pipeline-cache.js';
import { gridWorkgroup, rasterHeader } from './raster-wgsl.js';
import type { DimsConstants } from './seed-kernels.js';

/**
 * Per pixel: the Euclidean distance from its centre to its labelled site in coordinate units,
 * f32 (`sqrt` of the scaled squared distance times the pixel width `extra.x`); +∞ where the label
 * is NONE.
 */
export const DISTANCE_KERNEL = defineKernel({
  name: 'raster/distance',
  bindings: { sites: 1, labels: 2, distance: 3 },
  source: ({ dims }: DimsConstants) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    return /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> labels: array<u32>;
@group(0) @binding(3) var<storage, read_write> distance: array<u32>; // f32 bits

@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g >= params.size.xyz)) {
    return;
  }
  let p = linear_of(g);
  let l = labels[p];
  if (l == NONE) {
    distance[p] = 0x7f800000u; // +inf
  } else {
    distance[p] = bitcast<u32>(sqrt(dist2(centre_of(g), l)) * params.extra.x);
  }
}
`;
  },
});
