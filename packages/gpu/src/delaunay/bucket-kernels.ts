import { EXACT_FIXED } from '../exact/fixed-wgsl.js';
import { HALFEDGE } from '../mesh/halfedge-wgsl.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';

/** Threads per workgroup of the bucket kernels. */
export const BUCKET_WORKGROUP_SIZE = 256;

const HEADER = /* wgsl */ `
${linkWgsl(HALFEDGE, EXACT_FIXED)}
struct Params {
  sites: u32, grid_w: u32, shift: u32, limit: u32,
  min_x: vec2u, min_y: vec2u,
}
@group(0) @binding(0) var<uniform> params: Params;
`;

const MAIN = /* wgsl */ `@compute @workgroup_size(${BUCKET_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = thread_index(wid, nwg, lid, ${BUCKET_WORKGROUP_SIZE}u);
  if (i >= params.sites) {
    return;
  }`;

/**
 * Bucket grid, pass 1: each site's cell, `((x − minX) >> shift, (y − minY) >> shift)` row-major,
 * into `cell_of`, and one count per cell. Params: sites, grid width, shift, 0, min x (i64), min y
 * (i64), limit. Bindings: 1 fixed sites, 2 cell of each site, 3 counts (cleared, cells + 1
 * entries), 4 guard words: word 2 counts the cells that reach `limit` sites (0: no limit), the
 * clusters the star search would take too long over (adr/0020).
 */
export const CELL_COUNT_KERNEL = defineKernel({
  name: 'delaunay/cell-count',
  bindings: { sites: 1, cell_of: 2, counts: 3, guard: 4 },
  source: () => /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> cell_of: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> guard: array<atomic<u32>>;
${MAIN}
  let p = sites[i];
  let cx = u64_shr(i64_sub(p.xy, params.min_x), params.shift).x;
  let cy = u64_shr(i64_sub(p.zw, params.min_y), params.shift).x;
  let c = cy * params.grid_w + cx;
  cell_of[i] = c;
  // one thread a cell reaches the limit: the flag costs no contention on ordinary input
  if (atomicAdd(&counts[c], 1u) + 1u == params.limit) {
    atomicAdd(&guard[2], 1u);
  }
}
`,
});

/**
 * Bucket grid, pass 2: each site's index at its cell's scanned offset (order within a cell is
 * unspecified; the stars do not depend on it). Bindings: 1 cell of each site, 2 cell starts,
 * 3 cursors (cleared), 4 site indices by cell.
 */
export const CELL_SCATTER_KERNEL = defineKernel({
  name: 'delaunay/cell-scatter',
  bindings: { cell_of: 1, cell_start: 2, cursor: 3, cell_sites: 4 },
  source: () => /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> cell_of: array<u32>;
@group(0) @binding(2) var<storage, read> cell_start: array<u32>;
@group(0) @binding(3) var<storage, read_write> cursor: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> cell_sites: array<u32>;
${MAIN}
  let c = cell_of[i];
  cell_sites[cell_start[c] + atomicAdd(&cursor[c], 1u)] = i;
}
`,
});
