import { EXACT_FIXED } from '../../exact/fixed-wgsl.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { linkWgsl } from '../../runtime/wgsl-module.js';

/** Constants of {@link CIRCUMCENTER_KERNEL}. */
export interface CircumcenterConstants {
  [key: string]: number;
  workgroupSize: number;
}

/** `ccFlags` bit: the rounded circumcenter lies in the closed box. */
export const CC_INSIDE = 1;
/** `ccFlags` bit: the circumcenter is far (a coordinate beyond ±2^62 units) or degenerate. */
export const CC_FAR = 2;

/**
 * One thread per triangle (delaunator layout, 3 site indices each): the exact circumcenter
 * rounded down to the grid (`circumcenter_fixed`) into `cc`, and into `ccFlags` bit 0 whether
 * that rounded point lies in the closed box (never for a far one), bit 1 whether it is far.
 * The parameter block starts with the `GridUniforms` (box and exponent) and then the count.
 */
const circumcenterSource = (c: CircumcenterConstants) => /* wgsl */ `
${linkWgsl(EXACT_FIXED)}
struct Params {
  grid: GridUniforms,
  count: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> triangles: array<u32>;
@group(0) @binding(3) var<storage, read_write> cc: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> ccFlags: array<u32>;

@compute @workgroup_size(${c.workgroupSize})
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let t = (wid.y * nwg.x + wid.x) * ${c.workgroupSize}u + lid;
  if (t >= params.count) {
    return;
  }
  grid_init(params.grid);
  let r = circumcenter_fixed(sites[triangles[3u * t]], sites[triangles[3u * t + 1u]], sites[triangles[3u * t + 2u]]);
  cc[t] = r.p;
  let inside = !r.far && fixed_in_box(r.p);
  ccFlags[t] = select(0u, ${CC_INSIDE}u, inside) | select(0u, ${CC_FAR}u, r.far);
}
`;

/** The circumcenter kernel (constant: `workgroupSize`). */
export const CIRCUMCENTER_KERNEL = defineKernel({
  name: 'voronoi/circumcenters',
  bindings: { sites: 1, triangles: 2, cc: 3, ccFlags: 4 },
  source: circumcenterSource,
});
