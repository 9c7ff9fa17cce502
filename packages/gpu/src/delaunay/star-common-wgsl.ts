import { EXACT_FIXED } from '../exact/fixed-wgsl.js';
import { DELAUNAY_PREDICATES } from '../exact/predicates/predicates-wgsl.js';
import { HALFEDGE } from '../mesh/halfedge-wgsl.js';
import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_STATS_CONSTANTS_WGSL, STAR_STATS_MAXIMA, STAR_STATS_WORDS, statWgsl } from './star-stats.js';
import { TAIL_COUNTS_WGSL } from './tail-counts.js';

/**
 * Most entries (neighbours and infinity markers) a star may hold (the stars buffer's stride and
 * the tail pass's capacity); more flags the site.
 */
export const STAR_CAPACITY = 48;
/**
 * Entries of a first-pass star (its workgroup memory scales with it); a star that needs more
 * starts again in the tail pass with {@link STAR_CAPACITY}.
 */
export const STAR_FIRST_CAPACITY = 12;
/** Star info ring field of a star the tail pass must build from scratch (it overflowed). */
export const STAR_RESTART = 0xffffff;
/** Threads per workgroup of the star kernels. */
export const STAR_WORKGROUP_SIZE = 64;

/** Star status: final (its neighbours are the site's Delaunay neighbours). */
export const STAR_FINAL = 1;
/** Star status: more than {@link STAR_CAPACITY} entries were needed. */
export const STAR_OVERFLOW = 2;
/** Star status: still open or too large after the ring limit. */
export const STAR_RING_LIMIT = 4;
/** Star status: the predicates gave a non-contiguous or otherwise impossible conflict set. */
export const STAR_INCONSISTENT = 8;
/** Star status: more candidates than the budget were examined. */
export const STAR_BUDGET = 16;
/** Star info flag (beside the status): the hull's vertices were inserted as candidates. */
export const STAR_HULL_SEEDED = 128;

/** Words of the star statistics buffer (by name in star-stats.ts). */
export { STAR_STATS_WORDS };

/**
 * Constants and helpers of every star kernel, after the half-edge and exact libraries. Linked
 * alone it is what the star kernels' sources start with, after a blank line.
 */
export const STAR_COMMON: WgslModule = wgslModule(
  'delaunay/star-common',
  /* wgsl */ `const STRIDE: u32 = ${STAR_CAPACITY}u; // words a star in the stars buffer
const STATUS_FINAL: u32 = ${STAR_FINAL}u;
const STATUS_OVERFLOW: u32 = ${STAR_OVERFLOW}u;
const STATUS_RING_LIMIT: u32 = ${STAR_RING_LIMIT}u;
const STATUS_INCONSISTENT: u32 = ${STAR_INCONSISTENT}u;
const STATUS_BUDGET: u32 = ${STAR_BUDGET}u;
const HULL_SEEDED: u32 = ${STAR_HULL_SEEDED}u;
const RESTART: u32 = ${STAR_RESTART}u;
const STATUS_BITS: u32 = ${STAR_HULL_SEEDED - 1}u;
// where a star's search is (the star kernels' loops, one insertion call site each): inserting a
// hull site's hull edges, searching rings (the tail: laying out a band, then its chunks),
// checking finality, inserting the hull's vertices, done
const PHASE_HULL: u32 = 0u;
const PHASE_RINGS: u32 = 1u;
const PHASE_CHECK: u32 = 2u;
const PHASE_SEEDS: u32 = 3u;
const PHASE_BAND: u32 = 4u;
const PHASE_DONE: u32 = 5u;
${STAR_STATS_CONSTANTS_WGSL}
${TAIL_COUNTS_WGSL}

// l strictly between p and q, all three on one line (distinct): lexicographic order is line order
fn strictly_between(p: vec4u, l: vec4u, q: vec4u) -> bool {
  return (fixed_less(p, l) && fixed_less(l, q)) || (fixed_less(q, l) && fixed_less(l, p));
}
`,
  [HALFEDGE, EXACT_FIXED, DELAUNAY_PREDICATES],
);

/** The star passes' bindings 1–8 by name, as {@link STAR_BINDINGS_MODULE} declares them. */
export const STAR_BINDINGS = {
  sites: 1,
  cell_start: 2,
  cell_sites: 3,
  hull_nbr: 4,
  stars: 5,
  star_info: 6,
  stats: 7,
  hull_triples: 8,
} as const;

/**
 * The star passes' params and bindings 0–8 (see {@link starSearchModule} for what they hold).
 */
export const STAR_BINDINGS_MODULE: WgslModule = wgslModule(
  'delaunay/star-bindings',
  /* wgsl */ `struct Params {
  sites: u32, grid_w: u32, grid_h: u32, shift: u32,
  min_x: vec2u, min_y: vec2u,
  max_ring: u32, max_candidates: u32, hull_count: u32, hull_seed_limit: u32, tail: u32,
  hull_clip_limit: u32, scan_steps: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read> cell_start: array<u32>;
@group(0) @binding(3) var<storage, read> cell_sites: array<u32>;
@group(0) @binding(4) var<storage, read> hull_nbr: array<vec2u>;
@group(0) @binding(5) var<storage, read_write> stars: array<u32>;
@group(0) @binding(6) var<storage, read_write> star_info: array<vec2u>;
@group(0) @binding(7) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read> hull_triples: array<u32>;
`,
  [STAR_COMMON],
);

/** A star pass's statistics, summed per workgroup first (one global atomic per word and workgroup). */
export const STAR_STATS_MODULE: WgslModule = wgslModule(
  'delaunay/star-stats',
  /* wgsl */ `var<workgroup> wg_stats: array<atomic<u32>, ${STAR_STATS_WORDS}>;

fn clear_stats(lid: u32) {
  if (lid < ${STAR_STATS_WORDS}u) {
    atomicStore(&wg_stats[lid], 0u);
  }
}

// after a workgroup barrier: the workgroup's sums and maxima into the global words
fn flush_stats(lid: u32) {
  if (lid < ${STAR_STATS_WORDS}u) {
    let v = atomicLoad(&wg_stats[lid]);
    if (v != 0u) {
      if (${STAR_STATS_MAXIMA.map((name) => `lid == ${statWgsl(name)}`).join(' || ')}) {
        atomicMax(&stats[lid], v);
      } else {
        atomicAdd(&stats[lid], v);
      }
    }
  }
}
`,
  [STAR_COMMON],
);
