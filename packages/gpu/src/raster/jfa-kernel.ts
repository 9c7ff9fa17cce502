import { defineKernel } from '../runtime/pipeline-cache.js';
import { gatherLoop, gridWorkgroup, rasterHeader, tieOrder, unrolledNearest } from './raster-wgsl.js';

/**
 * The 3D candidate scan as a loop that skips NONE and repeated labels before gathering: with 27
 * neighbours, gathering every candidate unconditionally measured slower on an H100 (256³, 10
 * sites: 4.5 ms against 3.4 ms), while in 2D the straight-line form is faster (4096², 100k sites,
 * 1+JFA: 2.7 ms against 3.2 ms).
 */
const LOOPED = gatherLoop(
  3,
  'vec3i(g)',
  'step',
  /* wgsl */ `let l = src[qi];
      if (l != NONE && l != best) {
        let d = dist2(c, l);
        if (d < best_d || (d == best_d && before(l, best))) {
          best_d = d;
          best = l;
        }
      }`,
);

/** Constants of {@link JFA_STEP_KERNEL}. */
export interface StepConstants {
  [key: string]: number;
  dims: 2 | 3;
  /** 1: labels are ranks (`rankSites`), `sites` the ranked positions, ties by `original`. */
  ranked: number;
  /** 1 (with `ranked`): write site indices (`original[best]`) instead of ranks — the last pass. */
  toOriginal: number;
  /**
   * 1 (2D): also write the winner's position into `dst_pos` (binding 5), for a next pass that
   * carries positions ({@link JFA_CARRY_KERNEL}).
   */
  writePositions: number;
}

/**
 * One gather-style jump-flooding pass at step `misc.x`: each pixel looks at the labels of the
 * 9 (2D) or 27 (3D) pixels at offsets {−step, 0, step} per axis in `src` (inside the grid) and
 * writes to `dst` the one whose site is nearest to its centre — squared f32 distance in scaled
 * pixel units, ties to the lower site index — or NONE when all are NONE. Reads one buffer and
 * writes another, so there are no write conflicts. `misc.y` is the last site index or rank
 * (gathers of discarded candidates are clamped to it). With `ranked`, labels are ranks of a
 * Z-order of the sites (`rankSites`), so that neighbouring pixels' gathers hit nearby positions.
 */
export const JFA_STEP_KERNEL = defineKernel({
  name: 'raster/jfa-step',
  bindings: {
    sites: 1,
    src: 2,
    dst: 3,
    original: { binding: 4, optional: true },
    dst_pos: { binding: 5, optional: true },
  },
  source: ({ dims, ranked, toOriginal, writePositions }: StepConstants) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    const out =
      ranked && toOriginal ? 'select(original[min(best, params.misc.y)], NONE, best == NONE)' : 'best';
    return /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> dst: array<u32>;
${tieOrder(ranked === 1, 4, 'params.misc.y')}
${writePositions ? '@group(0) @binding(5) var<storage, read_write> dst_pos: array<vec2f>;' : ''}

@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g >= params.size.xyz)) {
    return;
  }
  let c = centre_of(g);
  let step = i32(params.misc.x);
  var best = NONE;
  var best_d = BIG;
  ${dims === 2 ? unrolledNearest(dims, 'step', (i) => `src[${i}]`, { lastSite: 'params.misc.y' }) : LOOPED}
  let p = (g.z * params.size.y + g.y) * params.size.x + g.x;
  dst[p] = ${out};
  ${writePositions ? 'dst_pos[p] = sites[min(best, params.misc.y)];' : ''}
}
`;
  },
});
