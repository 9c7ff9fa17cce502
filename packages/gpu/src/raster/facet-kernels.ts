import { defineKernel } from '../runtime/pipeline-cache.js';
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
 * its parent's label. A full-grid copy; which pixels are refined comes from the boundary list
 * that the coarser level's marking appended ({@link FACET_MARK_KERNEL}).
 */
export const FACET_UPSAMPLE_KERNEL = defineKernel({
  name: 'raster/facet-upsample',
  bindings: { coarse_labels: 1, labels: 3 },
  source: ({ dims }: DimsConstants) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    return /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> coarse_labels: array<u32>;
@group(0) @binding(3) var<storage, read_write> labels: array<u32>;
${PARENT_OF}

@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g >= params.size.xyz)) {
    return;
  }
  labels[linear_of(g)] = coarse_labels[parent_of(g)];
}
`;
  },
});

/**
 * One thread: the indirect dispatch arguments (x, y, 1) of a list kernel over `counts[misc.y]`
 * items (level misc.y's list), split over x and y at `misc.x` workgroups per dimension.
 */
export const FACET_ARGS_KERNEL = defineKernel({
  name: 'raster/facet-args',
  bindings: { counts: 1, args: 2 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> args: array<u32>;

@compute @workgroup_size(1)
fn main() {
  let n = counts[params.misc.y];
  let groups = (n + ${LIST_WORKGROUP - 1}u) / ${LIST_WORKGROUP}u;
  let x = min(groups, params.misc.x);
  args[0] = x;
  args[1] = select(1u, (groups + x - 1u) / max(x, 1u), groups > 0u);
  args[2] = 1u;
}
`,
});

/**
 * Facet-JFA refinement at level j = misc.w, one thread per listed pixel (`list[0 .. counts[j])`): one
 * step-1 pass over its 9 / 27 neighbours, whose labels after upsampling are their parents'
 * labels (read from level j+1, so the level-j labels can be written in place without races).
 */
export const FACET_REFINE_KERNEL = defineKernel({
  name: 'raster/facet-refine',
  bindings: { sites: 1, list: 2, counts: 3, coarse_labels: 4, labels: 5 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> list: array<u32>;
@group(0) @binding(3) var<storage, read> counts: array<u32>;
@group(0) @binding(4) var<storage, read> coarse_labels: array<u32>;
@group(0) @binding(5) var<storage, read_write> labels: array<u32>;
${PARENT_OF}

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let t = ${LIST_INDEX};
  if (t >= counts[params.misc.w]) {
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
});

/** Constants of the marking kernel. */
export interface MarkConstants extends DimsConstants {
  /** 1: one thread per listed pixel (indirect); 0: one thread per pixel of the level. */
  fromList: number;
}

/**
 * Facet-JFA marking at level j = misc.x > 0: a pixel is a boundary pixel when a neighbour (9 / 27,
 * inside the grid) has another label; its children at level j − 1 (size `auxu.xyz`; 4 / 8, fewer
 * at the grid's far edges) are then appended to `out_list`, counted in `counts[j − 1]` — the
 * pixels that level j − 1 refines. The others are marked: their children inherit their label
 * and are never processed again. With `fromList`, one thread per pixel of `list[0 .. counts[j])`
 * (the pixels refined at level j; the rest of the level inherited an interior label), else one
 * thread per pixel of the level (the coarse level). Appends take one global atomic per
 * workgroup; their order is arbitrary, which nothing downstream depends on.
 */
export const FACET_MARK_KERNEL = defineKernel({
  name: 'raster/facet-mark',
  bindings: { labels: 1, counts: 2, out_list: 3, list: { binding: 4, optional: true } },
  source: ({ dims, fromList }: MarkConstants) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    const head = fromList
      ? /* wgsl */ `@group(0) @binding(4) var<storage, read> list: array<u32>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let t = ${LIST_INDEX};
  var in_level = false;
  var p = 0u;
  if (t < atomicLoad(&counts[params.misc.x])) {
    in_level = true;
    p = list[t];
  }`
      : /* wgsl */ `
@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let in_level = all(gid < params.size.xyz);
  var p = 0u;
  if (in_level) {
    p = linear_of(gid);
  }`;
    const childAxes = dims === 2 ? ['x', 'y'] : ['x', 'y', 'z'];
    const childLoops = childAxes
      .map((a) => `for (var d${a} = 0u; d${a} < n.${a}; d${a}++) {`)
      .reverse()
      .join('\n      ');
    return /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> labels: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> out_list: array<u32>;
var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_base: u32;
${head}
  if (lid == 0u) {
    atomicStore(&wg_count, 0u);
  }
  workgroupBarrier();
  let g = coords_of(p);
  var n = vec3u(0u);
  if (in_level) {
    let own = labels[p];
    var differs = false;
    let gi = vec3i(g);
    ${gatherLoop(
      dims,
      'gi',
      '1',
      /* wgsl */ `if (labels[qi] != own) {
        differs = true;
      }`,
    )}
    if (differs) {
      // child 2g is always inside the finer grid; 2g + 1 only short of its far edge
      n = select(vec3u(1u), vec3u(2u), 2u * g + 1u < params.auxu.xyz);
    }
  }
  let total = n.x * n.y * n.z;
  var slot = 0u;
  if (total > 0u) {
    slot = atomicAdd(&wg_count, total);
  }
  workgroupBarrier();
  if (lid == 0u) {
    let sum = atomicLoad(&wg_count);
    if (sum > 0u) {
      wg_base = atomicAdd(&counts[params.misc.x - 1u], sum);
    }
  }
  workgroupBarrier();
  if (total > 0u) {
    var k = wg_base + slot;
    ${dims === 2 ? 'let dz = 0u;' : ''}
    ${childLoops}
      let q = 2u * g + vec3u(dx, dy, dz);
      out_list[k] = (q.z * params.auxu.y + q.y) * params.auxu.x + q.x;
      k++;
    }}${dims === 3 ? '}' : ''}
  }
}
`;
  },
});
