import { EXACT_FIXED } from '../exact/fixed-wgsl.js';
import { DELAUNAY_PREDICATES } from '../exact/predicates/predicates-wgsl.js';
import { HALFEDGE_WGSL } from '../mesh/halfedge-wgsl.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { STAR_INSERT_WGSL } from './star-insert-wgsl.js';
import { STAR_REGION_WGSL } from './star-region-wgsl.js';
import { STAR_RING_WGSL } from './star-ring-wgsl.js';
import { STAR_SEARCH_STEPS_WGSL } from './star-search-steps-wgsl.js';
import { STAR_STATS_CONSTANTS_WGSL, STAR_STATS_MAXIMA, STAR_STATS_WORDS, statWgsl } from './star-stats.js';
import { TAIL_COUNTS_WGSL } from './tail-counts.js';

/*
 * Per-site Delaunay stars (ADR 0013). Each site i gets the cyclic counter-clockwise list of its
 * Delaunay neighbours by inserting the sites of the bucket grid around its cell: one thread a site
 * for the nearest rings (the first pass, star-kernels.ts), a workgroup a star for those that search
 * further (the tail pass, star-tail-kernel.ts). The list may hold the marker NONE (the vertex at infinity): a pair (a, NONE) or
 * (NONE, b) is an infinite triangle, an open wedge of the star. Conflicts:
 * - finite (i, a, b): `incircle_sos(i, a, b, l) > 0` (exact, ties by index);
 * - (i, a, ∞): l strictly left of i→a, or on the line strictly between i and a;
 * - (i, ∞, b): l strictly right of i→b, or on the line strictly between i and b.
 * The orientation tests are exact and unperturbed: with `incircle_sos` that is the lifted-weight
 * perturbation only, whose triangulation has every site on a hull edge as a vertex and no flat
 * triangle. The conflicting triangles are contiguous; the neighbours strictly inside the run are
 * replaced by l. A single neighbour a (the star [a, NONE]) is a half-plane, handled on its own:
 * a candidate on the line through i and a either splits it into a strip (opposite side),
 * replaces a (between) or is dropped (beyond).
 */

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

/** Constants and helpers of every star kernel. */
export const STAR_COMMON_WGSL = /* wgsl */ `
${HALFEDGE_WGSL}
${linkWgsl(EXACT_FIXED, DELAUNAY_PREDICATES)}
const STRIDE: u32 = ${STAR_CAPACITY}u; // words a star in the stars buffer
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
`;

/** The star passes' bindings 1–8 by name, as {@link STAR_BINDINGS_WGSL} declares them. */
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
 * The star passes' params and bindings 0–8 (see {@link starSearchWgsl} for what they hold).
 */
export const STAR_BINDINGS_WGSL = /* wgsl */ `struct Params {
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
`;

/** A star pass's statistics, summed per workgroup first (one global atomic per word and workgroup). */
export const STAR_STATS_WGSL = /* wgsl */ `var<workgroup> wg_stats: array<atomic<u32>, ${STAR_STATS_WORDS}>;

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
`;

/**
 * What both star passes share, for stars of at most `capacity` entries (≤ {@link STAR_CAPACITY}),
 * `lanes` stars a workgroup (their arrays in workgroup memory, a star per `slot`), keeping its
 * pending regions (`keepsPending`: the tail pass, which skips cells by them) or not (the first
 * pass, which only learns whether a star is final: its workgroup memory, and so its occupancy,
 * is then a third): params, bindings 0–8, a star's private state, the insertion, the
 * conflict regions and finality checks, the cells of a ring and the statistics. Params: sites,
 * grid width, grid height, shift (a cell is 2^shift grid units), min x (i64), min y (i64), ring
 * limit, candidate budget, hull count, the largest hull whose vertices an open star may take as
 * candidates, tail (1: the first pass hands stars unfinished at its ring limit to the tail pass;
 * those over its capacity go there always), the largest hull clipping half-plane regions, the
 * first pass's scan steps between two exact steps.
 * Bindings: 1 fixed sites (`vec4u`), 2 cell starts (scanned counts, cells + 1), 3 site indices by
 * cell, 4 hull neighbours (`vec2u` (prev + 1, next + 1) on the convex hull, zero elsewhere), 5
 * stars (`STRIDE` words a site), 6 star info (`vec2u` (length, status | hull seeded | ring << 8)), 7
 * statistics (atomic words, cleared), 8 hull triples (site, prev, next) counter-clockwise.
 */
export const starSearchWgsl = (
  capacity: number,
  lanes: number,
  keepsPending: boolean,
): string => /* wgsl */ `${STAR_COMMON_WGSL}
const CAP: u32 = ${capacity}u; // entries a star may hold in this pass
const LANES: u32 = ${lanes}u; // stars a workgroup holds
// pending regions a star keeps: all (≤ CAP) or none (a pass that only asks whether a star is final)
const PEND_CAP: u32 = ${keepsPending ? 'CAP' : '0u'};
${STAR_BINDINGS_WGSL}

// A star's arrays live in workgroup memory, entry t of lane slot at t * LANES + slot: lanes at
// different entries still hit distinct banks, where private arrays (in local memory) made every
// divergent access its own memory transaction (ADR 0013)
var<private> slot: u32;
var<workgroup> star_s: array<u32, CAP * LANES>;
// per pair (star[t], star[t + 1]): its conflict region, computed when the pair forms
var<workgroup> reg_of_s: array<vec4f, CAP * LANES>;
var<private> f_site: vec2f; // the site's position inside its cell, in cells
var<private> len: u32;
var<private> tests: u32;
var<private> filtered_out: u32;
var<private> seen: u32;
var<private> cells_visited: u32;
var<private> final_checks: u32;
var<private> final_narrowings: u32;
var<private> half_planes: u32;
var<private> hull_clips: u32;
var<private> exact_steps: u32; // insertions past the float regions
var<private> edits: u32; // changes of a closed star (to know when its pending regions are stale)
var<private> checked_edits: u32; // edits at the last full finality check
var<private> hull_seeded: bool;
var<private> prev_hull: u32;
var<private> next_hull: u32;
// conflict regions still meeting unsearched cells after the last ring, and their bounding box
// (one entry when none are kept: the arrays are still named by the shared code, never reached)
var<workgroup> pend_s: array<vec4f, max(PEND_CAP, 1u) * LANES>;
var<workgroup> pend_box_s: array<vec4f, max(PEND_CAP, 1u) * LANES>; // each region's bounding box (grid and hull clipped)
var<workgroup> pend_ab_s: array<vec2u, max(PEND_CAP, 1u) * LANES>; // each region's triangle (i, a, b): a and b
var<private> npend: u32;
var<private> pend_lo: vec2f;
var<private> pend_hi: vec2f;
const NO_SKIP: u32 = 0xffffffffu; // npend: the star has an open wedge to close, visit every cell

${STAR_INSERT_WGSL}
${STAR_REGION_WGSL}
${STAR_RING_WGSL}

${STAR_SEARCH_STEPS_WGSL}${STAR_STATS_WGSL}

// a site's work: rings searched in this pass, the last ring, whether it stays unfinished
fn add_stats(rings: u32, ring: u32, failed: bool) {
  if (failed) {
    atomicAdd(&wg_stats[STAT_FAILED_SITES], 1u);
  }
  atomicAdd(&wg_stats[STAT_RINGS], rings);
  atomicMax(&wg_stats[STAT_MAX_RING], ring);
  atomicAdd(&wg_stats[STAT_INCIRCLE_TESTS], tests);
  atomicAdd(&wg_stats[STAT_UNDECIDED_TESTS], filtered_out);
  atomicAdd(&wg_stats[STAT_CANDIDATES], seen);
  atomicMax(&wg_stats[STAT_MAX_CANDIDATES], seen);
  atomicAdd(&wg_stats[STAT_CELLS_VISITED], cells_visited);
  atomicMax(&wg_stats[STAT_MAX_CELLS_VISITED], cells_visited);
  atomicAdd(&wg_stats[STAT_FINAL_CHECKS], final_checks);
  atomicMax(&wg_stats[STAT_MAX_FINAL_CHECKS], final_checks);
  atomicAdd(&wg_stats[STAT_FINAL_NARROWINGS], final_narrowings);
  atomicAdd(&wg_stats[STAT_HALF_PLANES], half_planes);
  atomicAdd(&wg_stats[STAT_HULL_CLIPS], hull_clips);
  atomicAdd(&wg_stats[STAT_EXACT_STEPS], exact_steps);
  atomicAdd(&wg_stats[STAT_EDITS], edits);
}

`;
