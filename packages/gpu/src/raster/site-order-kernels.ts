import { defineKernel } from '../runtime/pipeline-cache.js';
import { LIST_BUILTINS, LIST_INDEX, LIST_WORKGROUP, rasterHeader } from './raster-wgsl.js';
import type { DimsConstants } from './seed-kernels.js';

/**
 * Per site (misc.x of them): the sort key of its seed pixel at the JFA's level, the Z-order
 * (Morton) code of the pixel's coordinates shifted right by misc.w (2D: 15 bits an axis, 3D: 10,
 * so codes stay below 2^30), or 0xFFFFFFFF for a site that seeds nothing (sorted last); and its
 * index as the value. misc.y, misc.z = full-resolution width, height.
 */
export const RANK_KEYS_KERNEL = defineKernel({
  name: 'raster/rank-keys',
  bindings: { seed: 1, keys: 2, values: 3 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> seed: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> values: array<u32>;

fn spread2(v: u32) -> u32 {
  var x = v & 0xffffu;
  x = (x | (x << 8u)) & 0x00ff00ffu;
  x = (x | (x << 4u)) & 0x0f0f0f0fu;
  x = (x | (x << 2u)) & 0x33333333u;
  x = (x | (x << 1u)) & 0x55555555u;
  return x;
}
fn spread3(v: u32) -> u32 {
  var x = v & 0x3ffu;
  x = (x | (x << 16u)) & 0x030000ffu;
  x = (x | (x << 8u)) & 0x0300f00fu;
  x = (x | (x << 4u)) & 0x030c30c3u;
  x = (x | (x << 2u)) & 0x09249249u;
  return x;
}

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i >= params.misc.x) {
    return;
  }
  values[i] = i;
  let p = seed[i];
  if (p == NONE) {
    keys[i] = NONE;
    return;
  }
  let plane = params.misc.y * params.misc.z;
  let shift = params.misc.w;
  let col = (p % params.misc.y) >> shift;
  let row = ((p % plane) / params.misc.y) >> shift;
  ${
    dims === 2
      ? 'keys[i] = spread2(col) | (spread2(row) << 1u);'
      : 'keys[i] = spread3(col) | (spread3(row) << 1u) | (spread3((p / plane) >> shift) << 2u);'
  }
}
`,
});

/**
 * Per rank r below misc.x (the seeded sites, first after the sort): `rank[site] = r` and the
 * site's position copied to `ranked[r]` (vec2f in 2D, vec4f in 3D).
 */
export const RANK_SCATTER_KERNEL = defineKernel({
  name: 'raster/rank-scatter',
  bindings: { sites: 1, order: 2, rank: 3, ranked: 4 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> order: array<u32>;
@group(0) @binding(3) var<storage, read_write> rank: array<u32>;
@group(0) @binding(4) var<storage, read_write> ranked: array<${dims === 2 ? 'vec2f' : 'vec4f'}>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let r = ${LIST_INDEX};
  if (r >= params.misc.x) {
    return;
  }
  let i = order[r];
  rank[i] = r;
  ranked[r] = sites[i];
}
`,
});
