import type { KernelSpec } from '../runtime/pipeline-cache.js';
import {
  gatherLoop,
  gridWorkgroup,
  LIST_BUILTINS,
  LIST_INDEX,
  LIST_WORKGROUP,
  rasterHeader,
} from './raster-wgsl.js';
import type { DimsConstants } from './seed-kernels.js';

/** Linear index of the parent (next coarser level, size in misc.xyz) of level pixel `q`. */
const PARENT_OF = /* wgsl */ `
fn parent_of(q: vec3u) -> u32 {
  let h = q >> vec3u(1u);
  return (h.z * params.misc.y + h.y) * params.misc.x + h.x;
}`;

/**
 * Facet-JFA upsampling from level j+1 (size misc.xyz) to level j (size `size`): every pixel takes
 * its parent's label and its parent's boundary flag (1: the parent had a differently labelled
 * neighbour, so this pixel is refined; 0: marked, never processed again). A full-grid copy.
 */
export const FACET_UPSAMPLE_KERNEL: KernelSpec<DimsConstants> = {
  name: 'raster/facet-upsample',
  source: ({ dims }) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    return /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> coarse_labels: array<u32>;
@group(0) @binding(2) var<storage, read> coarse_flags: array<u32>;
@group(0) @binding(3) var<storage, read_write> labels: array<u32>;
@group(0) @binding(4) var<storage, read_write> flags: array<u32>;
${PARENT_OF}

@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g >= params.size.xyz)) {
    return;
  }
  let p = linear_of(g);
  let pp = parent_of(g);
  labels[p] = coarse_labels[pp];
  flags[p] = coarse_flags[pp];
}
`;
  },
};

/**
 * One thread: the indirect dispatch arguments (x, y, 1) of a list kernel over `count[0]` items,
 * split over x and y at `misc.x` workgroups per dimension, and the count copied into
 * `stats[misc.y]` (read back once at the end for the statistics).
 */
export const FACET_ARGS_KERNEL: KernelSpec<DimsConstants> = {
  name: 'raster/facet-args',
  source: ({ dims }) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> count: array<u32>;
@group(0) @binding(2) var<storage, read_write> args: array<u32>;
@group(0) @binding(3) var<storage, read_write> stats: array<u32>;

@compute @workgroup_size(1)
fn main() {
  let n = count[0];
  let groups = (n + ${LIST_WORKGROUP - 1}u) / ${LIST_WORKGROUP}u;
  let x = min(groups, params.misc.x);
  args[0] = x;
  args[1] = select(1u, (groups + x - 1u) / max(x, 1u), groups > 0u);
  args[2] = 1u;
  stats[params.misc.y] = n;
}
`,
};

/**
 * Facet-JFA refinement at level j, one thread per listed pixel (`list[0 .. count[0])`): one
 * step-1 pass over its 9 / 27 neighbours, whose labels after upsampling are their parents'
 * labels (read from level j+1, so the level-j labels can be written in place without races).
 */
export const FACET_REFINE_KERNEL: KernelSpec<DimsConstants> = {
  name: 'raster/facet-refine',
  source: ({ dims }) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> list: array<u32>;
@group(0) @binding(3) var<storage, read> count: array<u32>;
@group(0) @binding(4) var<storage, read> coarse_labels: array<u32>;
@group(0) @binding(5) var<storage, read_write> labels: array<u32>;
${PARENT_OF}

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let t = ${LIST_INDEX};
  if (t >= count[0]) {
    return;
  }
  let p = list[t];
  let g = coords_of(p);
  let c = centre_of(g);
  var best = NONE;
  var best_d = BIG;
  let gi = vec3i(g);
  ${gatherLoop(
    dims,
    'gi',
    '1',
    /* wgsl */ `let l = coarse_labels[parent_of(vec3u(u32(qx), u32(qy), u32(qz)))];
      if (l != NONE && l != best) {
        let d = dist2(c, l);
        if (d < best_d || (d == best_d && l < best)) {
          best_d = d;
          best = l;
        }
      }`,
  )}
  labels[p] = best;
}
`,
};

/** Constants of the marking kernel. */
export interface MarkConstants extends DimsConstants {
  /** 1: one thread per listed pixel (indirect); 0: one thread per pixel of the level. */
  fromList: number;
}

/**
 * Facet-JFA marking: `flags[p]` = 1 when a neighbour (9 / 27, inside the grid) has another label
 * than pixel p (a boundary pixel, refined again at the next level), else 0 (marked: its children
 * inherit its label and are never processed again).
 */
export const FACET_MARK_KERNEL: KernelSpec<MarkConstants> = {
  name: 'raster/facet-mark',
  source: ({ dims, fromList }) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    const head = fromList
      ? /* wgsl */ `@group(0) @binding(3) var<storage, read> list: array<u32>;
@group(0) @binding(4) var<storage, read> count: array<u32>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let t = ${LIST_INDEX};
  if (t >= count[0]) {
    return;
  }
  let p = list[t];
  let g = coords_of(p);`
      : /* wgsl */ `
@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g >= params.size.xyz)) {
    return;
  }
  let p = linear_of(g);`;
    return /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> labels: array<u32>;
@group(0) @binding(2) var<storage, read_write> flags: array<u32>;
${head}
  let own = labels[p];
  var differs = 0u;
  let gi = vec3i(g);
  ${gatherLoop(
    dims,
    'gi',
    '1',
    /* wgsl */ `if (labels[qi] != own) {
        differs = 1u;
      }`,
  )}
  flags[p] = differs;
}
`;
  },
};
