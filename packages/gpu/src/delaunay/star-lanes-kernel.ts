import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { STAR_BINDINGS_MODULE, STAR_STATS_MODULE } from './star-common-wgsl.js';
import { STAR_LIST_BINDINGS, STAR_TAIL_APPEND } from './star-kernels.js';
import { STAR_LANES } from './star-lanes-shape.js';
import {
  LANE_BLOCK_WGSL,
  LANE_BOUNDS_WGSL,
  LANE_COUNTERS,
  LANE_LINK_WGSL,
  LANE_STATE,
  lanesShape,
} from './star-lanes-wgsl.js';
import { STAR_REGION } from './star-region-wgsl.js';
import { STAR_CELL } from './star-ring-wgsl.js';

/**
 * First pass of the stars (ADR 0013, "A lane a candidate"): a workgroup builds one site's star
 * from every site of rings 0..params.max_ring of cells around its own (and its hull neighbours),
 * a lane a candidate j. Lane j clips the bisector of i and j by every other candidate k: k bounds
 * it on one side at the parameter of the circumcentre of (i, j, k) along it, and j is a Delaunay
 * neighbour of i among the candidates when the tightest bound on each side leave an interval; the
 * tightest bounds are j's neighbours before and after it around i. Every lane runs the same loop
 * over the candidates, nearest first, until no farther one can cut its interval (or it is empty),
 * so a warp's lanes stay nearly in step whatever the geometry (the per-thread insertion ran 32
 * different geometries in one warp). The bounds are compared in f32 as cross-multiplied
 * fractions with a bound on their error; where that cannot decide (a tie or near-tie: cocircular
 * or collinear sites, every lattice star) the star goes to the per-thread pass, whose exact
 * predicates and index tie-breaking decide it, listed after the tail list's n entries (binding 9)
 * and counted in binding 10 word 6 (its indirect workgroups, of \`exactLanes\` threads, at words
 * 9–11). This kernel holds no exact predicate: the wide-integer code would cost it registers, so
 * resident workgroups, which are all its speed. Then one lane links the neighbours into the star,
 * and every neighbour's lane checks that its triangle's conflict region holds no unsearched cell.
 * A star not final (or open where it should not be) goes on in the tail pass from the next ring;
 * a block of more candidates than the pass holds, even with fewer rings, a star over
 * \`STAR_CAPACITY\` or one whose links do not close starts again there.
 * Params and bindings 0–10 as the tail pass's and `starSearchModule`'s; one workgroup a site (in
 * cell order), `candidates` candidates at most.
 */
export const STAR_LANES_KERNEL = defineKernel({
  name: 'delaunay/stars-lanes',
  bindings: STAR_LIST_BINDINGS,
  source: ({
    candidates,
    rows,
    exactLanes,
    slots,
  }: {
    candidates: number;
    rows: number;
    exactLanes: number;
    slots: number;
  }) => /* wgsl */ `
${linkWgsl(
  lanesShape(exactLanes, slots, candidates, rows),
  STAR_BINDINGS_MODULE,
  STAR_TAIL_APPEND,
  LANE_COUNTERS,
  STAR_CELL,
  STAR_REGION,
  LANE_STATE,
  STAR_STATS_MODULE,
)}

${LANE_BOUNDS_WGSL}
@compute @workgroup_size(${STAR_LANES * slots})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  slot = lid / L;
  lane = lid % L;
  kb = slot * KCAP;
  let star = (wid.y * nwg.x + wid.x) * SLOTS + slot;
  let has_star = star < params.sites;
  clear_stats(lid);
  if (lane == 0u) {
    atomicStore(&s_neighbours[slot], 0u);
    atomicStore(&s_open_before[slot], 0u);
    atomicStore(&s_open_after[slot], 0u);
    atomicStore(&s_first[slot], NO_SLOT);
    atomicStore(&s_not_final[slot], 0u);
    atomicStore(&s_tests[slot], 0u);
    atomicStore(&s_uncertain[slot], 0u);
  }
  build_star(select(0u, cell_sites[min(star, params.sites - 1u)], has_star), has_star);
  workgroupBarrier();
  flush_stats(lid);
}

${LANE_BLOCK_WGSL}// Every thread of the workgroup runs every barrier; a slot without a star (past the sites) or
// whose star is decided early (\`done\`) skips the work between them.
fn build_star(i: u32, has_star: bool) {
  let pi = sites[i];
  let at = site_cell(pi);
  let cx = at.c.x;
  let cy = at.c.y;
  let f = at.f;
  let hull = hull_nbr[i];
  // rings 0..r: params.max_ring, fewer where the block holds more candidates than the pass can
  // (a dense cluster, counted again by one lane; the tail pass goes on from the next ring)
  var g = block_of(i32(params.max_ring), cx, cy);
  if (has_star && lane < g.rows) {
    block_row(g, lane);
  }
  workgroupBarrier();
  if (has_star && lane == 0u) {
    var r = i32(params.max_ring);
    var total = block_total(g, hull);
    while (total.y > KCAP && r > 0) {
      r--;
      g = block_of(r, cx, cy);
      for (var y = 0u; y < g.rows; y++) {
        block_row(g, y);
      }
      total = block_total(g, hull);
    }
    s_ring[slot] = r;
    s_block[slot] = total.x;
    s_k[slot] = total.y;
  }
  workgroupBarrier();
  let r = s_ring[slot];
  g = block_of(r, cx, cy);
  let k_all = s_k[slot];
  let block = s_block[slot];
  var done = !has_star;
  if (!done && k_all > KCAP) {
    // a block denser than the pass holds even alone (a cluster): the tail pass builds the star
    if (lane == 0u) {
      star_info[i] = vec2u(0u, STATUS_OVERFLOW | (RESTART << 8u));
      to_tail(i);
      atomicAdd(&wg_stats[STAT_CANDIDATES], k_all - 1u);
      atomicMax(&wg_stats[STAT_MAX_CANDIDATES], k_all - 1u);
    }
    done = true;
  }
  // every candidate's site and distance, in block order; a lane keeps its candidates' offsets
  // for the sort's scatter (the same candidates: s = lane + t·L)
  var own_d: array<vec2f, KCAP / L>;
  for (var s = lane; s < k_all && !done; s += L) {
    if (s < block) {
      var y = 0u;
      while (row_base[slot * (ROWS + 1u) + y + 1u] <= s) {
        y++;
      }
      cand_prev[kb + s] = cell_sites[row_first[slot * ROWS + y] + s - row_base[slot * (ROWS + 1u) + y]];
    }
    let d = cells_between(pi, sites[cand_prev[kb + s]]);
    own_d[s / L] = d;
    // a non-negative f32's bits order as the float does
    cand_next[kb + s] = bitcast<u32>(dot(d, d));
  }
  workgroupBarrier();
  // nearest first (ties by block order): a rank a lane, O(candidates) each
  for (var s = lane; s < k_all && !done; s += L) {
    let dist = cand_next[kb + s];
    var rank = 0u;
    for (var k = 0u; k < k_all; k++) {
      let q = cand_next[kb + k];
      rank += u32(q < dist || (q == dist && k < s));
    }
    let id = cand_prev[kb + s];
    cand_id[kb + rank] = id;
    cand_d[kb + rank] = own_d[s / L];
    cand_r[kb + rank] = bitcast<f32>(dist);
  }
  workgroupBarrier();
  let me = 0u; // the site itself: the only candidate at distance 0
  var tests = 0u;
  var uncertain = false;
  for (var base = 0u; base < k_all && !done; base += L) {
    let s = base + lane;
    var live = s < k_all && s != me;
    var a = vec2f(0.0);
    if (live) {
      a = cand_d[kb + s];
    }
    var before = Bound(NO_SLOT, 0.0, 0.0, 0.0, 0.0); // the tightest right of i→j: a lower bound
    var after = Bound(NO_SLOT, 0.0, 0.0, 0.0, 0.0); // the tightest left: an upper bound
    // a candidate k can only cut the interval if |d_k| / 2 ≤ the interval's farthest point from i
    // (nearer points lie inside k's half-plane): 4·that squared, conservatively, once both sides
    // are bounded; the candidates come nearest first, so the first beyond it ends the lane's work
    var reach = 3e38;
    for (var k = 1u; k < k_all; k++) {
      // (a tie anywhere sends the whole star to the per-thread pass: every lane stops)
      if (!live || cand_r[kb + k] > reach || atomicLoad(&s_uncertain[slot]) != 0u) {
        break;
      }
      if (k == s) {
        continue;
      }
      tests++;
      let b = cand_d[kb + k];
      // k bounds the bisector x = a/2 + t·(−a.y, a.x) by t·C ≤ N/2, C = a × b, N = |b|² − a·b
      let c1 = a.x * b.y;
      let c2 = a.y * b.x;
      let c = c1 - c2;
      let ec = REL * (abs(c1) + abs(c2)) + FLOOR;
      let bb = dot(b, b);
      let n1 = a.x * b.x;
      let n2 = a.y * b.y;
      let n = bb - n1 - n2;
      let en = REL * (bb + abs(n1) + abs(n2)) + FLOOR;
      let side = select(select(0, -1, c < -ec), 1, c > ec);
      if (side == 0) {
        // nearly or exactly collinear with i and j: the exact predicates decide (another pass)
        uncertain = true;
        atomicStore(&s_uncertain[slot], 1u);
        break;
      }
      let left = side > 0;
      var bound = before;
      if (left) {
        bound = after;
      }
      var take = bound.slot == NO_SLOT;
      if (!take) {
        // left: k is tighter when t_k < t_bound, right when t_k > t_bound; t = N / 2C, so
        // sign(C_k · C_bound) · (N_k C_bound − N_bound C_k) decides
        let sign = fraction_sign(Bound(k, n, c, en, ec), bound) * select(-1, 1, left);
        if (sign == 0) {
          // nearly or exactly cocircular (i, j, k, bound): the exact predicates decide
          uncertain = true;
        atomicStore(&s_uncertain[slot], 1u);
          break;
        }
        take = sign < 0;
      }
      if (take) {
        let nb = Bound(k, n, c, en, ec);
        if (left) {
          after = nb;
        } else {
          before = nb;
        }
        if (before.slot != NO_SLOT && after.slot != NO_SLOT) {
          // an interval certainly empty stays so: j is no neighbour (an uncertain one is
          // decided after the loop)
          live = interval_sign(before, after) >= 0;
          reach = reach_of(a, before, after);
        }
      }
    }
    if (live && before.slot != NO_SLOT && after.slot != NO_SLOT) {
      let sign = interval_sign(before, after);
      live = sign > 0;
      uncertain = uncertain || sign == 0;
    }
    if (s < k_all) {
      cand_prev[kb + s] = select(DEAD, before.slot, live);
      cand_next[kb + s] = select(DEAD, after.slot, live);
    }
    if (live) {
      atomicAdd(&s_neighbours[slot], 1u);
      if (before.slot == NO_SLOT) {
        atomicAdd(&s_open_before[slot], 1u);
        atomicMin(&s_first[slot], s);
      }
      if (after.slot == NO_SLOT) {
        atomicAdd(&s_open_after[slot], 1u);
      }
    }
  }
  atomicAdd(&s_tests[slot], tests);
  if (uncertain) {
    atomicStore(&s_uncertain[slot], 1u);
  }
  workgroupBarrier();
  if (!done && atomicLoad(&s_uncertain[slot]) != 0u) {
    // a tie or a near-tie the floats cannot decide: the per-thread pass builds this star with
    // the exact predicates (listed after the tail list's n entries)
    if (lane == 0u) {
      let k = atomicAdd(&tail_count[TIED_STARS], 1u);
      tail_list[params.sites + k] = i;
      atomicMax(&tail_count[TIED_ARGS_X], k / EXACT_LANES + 1u);
      atomicAdd(&wg_stats[STAT_TIED_SITES], 1u);
      atomicAdd(&wg_stats[STAT_INCIRCLE_TESTS], atomicLoad(&s_tests[slot]));
    }
    done = true;
  }
  // the star: the neighbours linked by their bounds, from the one with none before it (an open
  // wedge ends the list: NONE) or from the lowest slot round to it
  if (!done && lane == 0u) {
    s_status[slot] = link_star(i);
  }
  workgroupBarrier();
  let linked = s_status[slot];
  // each neighbour's triangle with its next: no unsearched cell may hold a site in its circle
  if (!done && linked == 0u && !ring_covers_grid(r, cx, cy)) {
    for (var s = lane; s < k_all; s += L) {
      let t = cand_next[kb + s];
      if (t < DEAD) {
        var disk_box: vec4f;
        let region = conflict_region(pi, sites[cand_id[kb + s]], sites[cand_id[kb + t]], f, &disk_box);
        if (region.w < 0.0) {
          atomicOr(&s_not_final[slot], 1u);
        } else {
          let box = unsearched_box(region, disk_box, pi, f, r, cx, cy);
          if (all(box.xy <= box.zw)) {
            atomicOr(&s_not_final[slot], 1u);
          }
        }
      }
    }
  }
  atomicAdd(&wg_stats[STAT_HALF_PLANES], half_planes);
  atomicAdd(&wg_stats[STAT_HULL_CLIPS], hull_clips);
  workgroupBarrier();
  if (!done && lane == 0u) {
    var status = linked;
    if (status == 0u) {
      status = select(STATUS_FINAL, STATUS_RING_LIMIT, atomicLoad(&s_not_final[slot]) != 0u || wg_open_wrong(hull));
    }
    let len = select(0u, star_info_len, status == STATUS_FINAL || status == STATUS_RING_LIMIT);
    var ring = u32(r);
    let tail = (status == STATUS_RING_LIMIT && params.tail != 0u) || status == STATUS_OVERFLOW;
    if (status == STATUS_OVERFLOW) {
      ring = RESTART;
    }
    star_info[i] = vec2u(len, status | (min(ring, 0xffffffu) << 8u));
    let seen = k_all - 1u;
    atomicAdd(&wg_stats[STAT_INCIRCLE_TESTS], atomicLoad(&s_tests[slot]));
    atomicAdd(&wg_stats[STAT_CANDIDATES], seen);
    atomicMax(&wg_stats[STAT_MAX_CANDIDATES], seen);
    atomicAdd(&wg_stats[STAT_CELLS_VISITED], g.rows * g.width);
    atomicMax(&wg_stats[STAT_MAX_CELLS_VISITED], g.rows * g.width);
    if (tail) {
      to_tail(i);
    } else {
      if (status != STATUS_FINAL) {
        atomicAdd(&wg_stats[STAT_FAILED_SITES], 1u);
      }
      atomicAdd(&wg_stats[STAT_RINGS], ring);
      atomicMax(&wg_stats[STAT_MAX_RING], ring);
      if (ring > 4u) {
        atomicAdd(&wg_stats[STAT_FAR_SITES], 1u);
      }
    }
  }
}

${LANE_LINK_WGSL}
`,
});
