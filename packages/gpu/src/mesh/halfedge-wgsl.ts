import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';

/** Threads per workgroup of the kernels with one thread per item (see {@link threadEntry}). */
export const CELL_WORKGROUP_SIZE = 128;

/** Half-edge arithmetic and the linear thread index, shared by the kernels that walk a triangulation. */
export const HALFEDGE: WgslModule = wgslModule(
  'mesh/halfedge',
  /* wgsl */ `
const NONE: u32 = 0xffffffffu;

fn next_halfedge(e: u32) -> u32 {
  return select(e + 1u, e - 2u, e % 3u == 2u);
}

fn prev_halfedge(e: u32) -> u32 {
  return select(e - 1u, e + 2u, e % 3u == 0u);
}

fn thread_index(wid: vec3u, nwg: vec3u, lid: u32, size: u32) -> u32 {
  return (wid.y * nwg.x + wid.x) * size + lid;
}
`,
);

/**
 * The entry point of a kernel with one thread per item, up to its first statement: `index` names
 * the item, threads past `bound` (a WGSL expression) return, and `prelude` runs first in every
 * thread (e.g. `grid_init(grid_uniforms);`). Workgroups of {@link CELL_WORKGROUP_SIZE}, the size
 * the host dispatches with.
 */
export function threadEntry(index: string, bound: string, prelude = ''): string {
  return /* wgsl */ `@compute @workgroup_size(${CELL_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {${prelude ? `\n  ${prelude}` : ''}
  let ${index} = thread_index(wid, nwg, lid, ${CELL_WORKGROUP_SIZE}u);
  if (${index} >= ${bound}) {
    return;
  }`;
}
