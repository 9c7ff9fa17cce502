import { defineKernel } from '../runtime/pipeline-cache.js';
import { JFA_TILE, rasterHeader, tieOrder, unrolledNearest } from './raster-wgsl.js';

/** Constants of {@link JFA_CARRY_KERNEL}. */
export interface CarryConstants {
  [key: string]: number;
  /** 1: also write the winners' positions (when the next pass carries too); 0: labels only. */
  writePositions: number;
  /** 1: write site indices (`original[best]`) instead of ranks — the last pass. */
  toOriginal: number;
}

/**
 * One gather-style 2D jump-flooding pass at step `misc.x` that carries each pixel's site position
 * next to its label: labels are site ranks (`rankSites`, ties decided by `original`) and
 * `src_pos[p]` is the position (scaled pixel units, f32, as uploaded) of the site of
 * `src_label[p]`. Each pixel reads the labels and positions of the 9 pixels at offsets
 * {−step, 0, step} per axis inside the grid and writes the label (and, with `writePositions`,
 * the position) of the candidate nearest to its centre — squared f32 distance, ties to the lower
 * site index — or NONE when all are NONE: the same decisions as {@link JFA_STEP_KERNEL}, which
 * gathers each candidate's position through its label. Here no load depends on another, so the
 * pass costs its streaming traffic (12 bytes read, 12 written per pixel) whatever the labels;
 * the gathers cost more than that while neighbouring pixels hold unrelated far-away sites (see
 * `carryPlan`).
 *
 * Workgroups are {@link JFA_TILE} tiles, visited in the order of {@link jfaTileOrder}
 * (`misc.y` = classStride, `misc.z` = perClass); `misc.w` is the last rank.
 */
export const JFA_CARRY_KERNEL = defineKernel({
  name: 'raster/jfa-carry',
  bindings: { src_label: 1, src_pos: 2, dst_label: 3, dst_pos: { binding: 4, optional: true }, original: 5 },
  source: ({ writePositions, toOriginal }: CarryConstants) => {
    const [tw, th] = JFA_TILE;
    const dstPos = writePositions
      ? /* wgsl */ `@group(0) @binding(4) var<storage, read_write> dst_pos: array<vec2f>;`
      : '';
    const out = toOriginal ? 'select(original[min(best, params.misc.w)], NONE, best == NONE)' : 'best';
    return /* wgsl */ `
${rasterHeader(2, null)}
@group(0) @binding(1) var<storage, read> src_label: array<u32>;
@group(0) @binding(2) var<storage, read> src_pos: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> dst_label: array<u32>;
${dstPos}
${tieOrder(true, 5, 'params.misc.w')}

@compute @workgroup_size(${tw}, ${th}, 1)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let tile_row = (wid.y % params.misc.z) * params.misc.y + wid.y / params.misc.z;
  let g = vec3u(wid.x * ${tw}u + lid.x, tile_row * ${th}u + lid.y, 0u);
  if (g.x >= params.size.x || g.y >= params.size.y) {
    return;
  }
  let c = centre_of(g);
  let step = i32(params.misc.x);
  var best = NONE;
  var best_d = BIG;
  var best_pos = vec2f(0.0);
  ${unrolledNearest(2, 'step', (i) => `src_label[${i}]`, { readPosition: (i) => `src_pos[${i}]` })}
  let p = g.y * params.size.x + g.x;
  dst_label[p] = ${out};
  ${writePositions ? 'dst_pos[p] = best_pos;' : '_ = best_pos;'}
}
`;
  },
});
