import { defineKernel } from '../runtime/pipeline-cache.js';
import { LIST_BUILTINS, LIST_INDEX, LIST_WORKGROUP, rasterHeader } from './raster-wgsl.js';

/** Constants of the raster kernels that depend on the dimension only. */
export interface DimsConstants {
  [key: string]: number;
  dims: 2 | 3;
}

/**
 * The entry of the seeding kernels, one thread per site (`params.misc.x` of them): `i` the site,
 * `p` its seed pixel; a site without one (outside the grid) returns.
 */
const SEEDED_SITE_ENTRY = /* wgsl */ `@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i >= params.misc.x) {
    return;
  }
  let p = seed[i];
  if (p == NONE) {
    return;
  }`;

/** Writes `misc.y` into `out[0 .. misc.x)` (labels to "no site", distance bits to +∞ bits). */
export const FILL_KERNEL = defineKernel({
  name: 'raster/fill',
  bindings: { out: 1 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i < params.misc.x) {
    out[i] = params.misc.y;
  }
}
`,
});

/** Level coordinates of full-resolution pixel `p`: misc.y, misc.z = full width, height; misc.w = level. */
const LEVEL_COORDS = /* wgsl */ `
fn level_coords(p: u32) -> vec3u {
  let plane = params.misc.y * params.misc.z;
  let r = p % plane;
  return vec3u(r % params.misc.y, r / params.misc.y, p / plane) >> vec3u(params.misc.w);
}`;

/**
 * Seeding, before the first half: every seeded pixel's distance bits (`best_bits`) to +∞ bits —
 * one thread per site (misc.x sites) rather than a fill of the whole level.
 */
export const SEED_RESET_KERNEL = defineKernel({
  name: 'raster/seed-reset',
  bindings: { seed: 2, best_bits: 3 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(2) var<storage, read> seed: array<u32>;
@group(0) @binding(3) var<storage, read_write> best_bits: array<u32>;
${LEVEL_COORDS}

${SEEDED_SITE_ENTRY}
  best_bits[linear_of(level_coords(p))] = 0xffffffffu;
}
`,
});

/**
 * Seeding, first half: one thread per site (misc.x sites) with a seed pixel; the squared distance
 * from the centre of its pixel at the current level to the site, as f32 bits (non-negative floats
 * order like their bits), goes to `site_bits[i]` and is `atomicMin`ed into `best_bits[pixel]`.
 */
export const SEED_DISTANCE_KERNEL = defineKernel({
  name: 'raster/seed-distance',
  bindings: { sites: 1, seed: 2, site_bits: 3, best_bits: 4 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> seed: array<u32>;
@group(0) @binding(3) var<storage, read_write> site_bits: array<u32>;
@group(0) @binding(4) var<storage, read_write> best_bits: array<atomic<u32>>;
${LEVEL_COORDS}

${SEEDED_SITE_ENTRY}
  let q = level_coords(p);
  let bits = bitcast<u32>(dist2(centre_of(q), i));
  site_bits[i] = bits;
  atomicMin(&best_bits[linear_of(q)], bits);
}
`,
});

/** Constants of {@link SEED_LABEL_KERNEL}. */
export interface SeedLabelConstants extends DimsConstants {
  /** 1: write the site's rank (`rank[i]`, binding 6) instead of its index. */
  ranked: number;
}

/**
 * Seeding, second half: among the sites of a pixel whose distance bits equal the pixel's minimum,
 * the lowest index wins (`atomicMin` into the label buffer, filled with NONE before). With
 * `ranked`, the label is the winner's rank, and the lowest rank is the lowest index because
 * `rankSites` orders the sites of one pixel by index.
 */
export const SEED_LABEL_KERNEL = defineKernel({
  name: 'raster/seed-label',
  bindings: { seed: 2, site_bits: 3, best_bits: 4, labels: 5, rank: { binding: 6, optional: true } },
  source: ({ dims, ranked }: SeedLabelConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(2) var<storage, read> seed: array<u32>;
@group(0) @binding(3) var<storage, read> site_bits: array<u32>;
@group(0) @binding(4) var<storage, read> best_bits: array<u32>;
@group(0) @binding(5) var<storage, read_write> labels: array<atomic<u32>>;
${ranked ? '@group(0) @binding(6) var<storage, read> rank: array<u32>;' : ''}
${LEVEL_COORDS}

${SEEDED_SITE_ENTRY}
  let lp = linear_of(level_coords(p));
  if (site_bits[i] == best_bits[lp]) {
    atomicMin(&labels[lp], ${ranked ? 'rank[i]' : 'i'});
  }
}
`,
});

/**
 * Seeding for a first pass that carries positions ({@link JFA_CARRY_KERNEL}; 2D): one thread per
 * site with a seed pixel; the site that won its pixel (`labels[pixel] == rank[i]`) writes its
 * position into `pos[pixel]`. Pixels without a site keep whatever `pos` holds: their NONE label
 * discards it.
 */
export const SEED_POSITION_KERNEL = defineKernel({
  name: 'raster/seed-position',
  bindings: { sites: 1, seed: 2, labels: 3, pos: 4, rank: 5 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> seed: array<u32>;
@group(0) @binding(3) var<storage, read> labels: array<u32>;
@group(0) @binding(4) var<storage, read_write> pos: array<vec2f>;
@group(0) @binding(5) var<storage, read> rank: array<u32>;
${LEVEL_COORDS}

${SEEDED_SITE_ENTRY}
  let lp = linear_of(level_coords(p));
  if (labels[lp] == rank[i]) {
    pos[lp] = sites[i];
  }
}
`,
});
