import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_BINDINGS_MODULE, STAR_COMMON, STAR_STATS_MODULE } from './star-common-wgsl.js';
import { STAR_INSERT } from './star-insert-wgsl.js';
import { STAR_REGION } from './star-region-wgsl.js';
import { STAR_RING } from './star-ring-wgsl.js';
import { STAR_SEARCH_STEPS } from './star-search-steps-wgsl.js';

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
 * The module of what both star passes share, for stars of at most `capacity` entries (≤ {@link STAR_CAPACITY}),
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
export function starSearchModule(capacity: number, lanes: number, keepsPending: boolean): WgslModule {
  const key = `${capacity},${lanes},${keepsPending}`;
  let module = searchModules.get(key);
  if (module === undefined) {
    const shape = wgslModule(
      `delaunay/star-shape(${key})`,
      /* wgsl */ `const CAP: u32 = ${capacity}u; // entries a star may hold in this pass
const LANES: u32 = ${lanes}u; // stars a workgroup holds
// pending regions a star keeps: all (≤ CAP) or none (a pass that only asks whether a star is final)
const PEND_CAP: u32 = ${keepsPending ? 'CAP' : '0u'};`,
      [STAR_COMMON],
    );
    module = wgslModule(
      `delaunay/star-search(${key})`,
      /* wgsl */ `
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

`,
      [shape, STAR_STATE, STAR_INSERT, STAR_REGION, STAR_RING, STAR_SEARCH_STEPS, STAR_STATS_MODULE],
    );
    searchModules.set(key, module);
  }
  return module;
}

/** One module a shape, so two kernels of one shape link the same module. */
const searchModules = new Map<string, WgslModule>();

/**
 * A star's private and workgroup state in a star pass (over `CAP`, `LANES` and `PEND_CAP`, which
 * the pass's shape declares before the bindings).
 */
const STAR_STATE: WgslModule = wgslModule(
  'delaunay/star-state',
  /* wgsl */ `
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
`,
  [STAR_BINDINGS_MODULE],
);
