import type { KernelSpec } from '../runtime/pipeline-cache.js';
import { STAR_TAIL_GROUPS } from './star-kernels.js';
import { STAR_REGION_WGSL } from './star-region-wgsl.js';
import { STAR_CELL_WGSL } from './star-ring-wgsl.js';
import { STAR_COMMON_WGSL, STAR_STATS_WORDS } from './star-search-wgsl.js';

/** Threads of a first-pass workgroup, which builds one star: a lane a candidate. */
export const STAR_LANES = 64;

/** Candidates the first pass's block of rings aims at (ADR 0013). */
const BLOCK_SITES = 45;

/**
 * Rings of cells the first pass takes around a site, for cells holding `sitesPerCell` sites on
 * average: the fewest (at least 1) whose block holds about {@link BLOCK_SITES}, enough for nearly
 * every uniform star to be final (a Delaunay circle through the site rarely reaches 3 spacings).
 */
export function laneRings(sitesPerCell: number): number {
  let r = 1;
  while ((2 * r + 1) ** 2 * sitesPerCell < BLOCK_SITES && r < 8) r++;
  return r;
}

/**
 * Candidates a first-pass star may take from rings 0..`rings` of cells of about `sitesPerCell`
 * sites: four times the expected count, a multiple of the lanes, at most 1024 (a block holding
 * more, e.g. a dense cluster, starts again in the tail pass).
 */
export function laneCandidates(rings: number, sitesPerCell: number): number {
  const expected = (2 * rings + 1) ** 2 * sitesPerCell;
  return Math.min(1024, Math.max(STAR_LANES, Math.ceil((4 * expected) / STAR_LANES) * STAR_LANES));
}

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
 * Params and bindings 0–10 as the tail pass's and `starSearchWgsl`'s; one workgroup a site (in
 * cell order), `candidates` candidates at most.
 */
export const STAR_LANES_KERNEL: KernelSpec<{ candidates: number; rows: number; exactLanes: number }> = {
  name: 'delaunay/stars-lanes',
  source: ({ candidates, rows, exactLanes }) => /* wgsl */ `${STAR_COMMON_WGSL}
const EXACT_LANES: u32 = ${exactLanes}u; // threads a workgroup of the per-thread pass
const W: u32 = ${STAR_LANES}u;
const KCAP: u32 = ${candidates}u;
const ROWS: u32 = ${rows}u; // rows of the largest block (2 · rings + 1)
const TAIL_GROUPS: u32 = ${STAR_TAIL_GROUPS}u;
struct Params {
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
@group(0) @binding(9) var<storage, read_write> tail_list: array<u32>;
@group(0) @binding(10) var<storage, read_write> tail_count: array<atomic<u32>>;

// counted by the region code
var<private> half_planes: u32;
var<private> hull_clips: u32;
${STAR_CELL_WGSL}
${STAR_REGION_WGSL}

const NO_SLOT: u32 = 0xffffffffu; // no bound on that side: an open wedge
const DEAD: u32 = 0xfffffffeu; // not a neighbour
// float error bounds (ADR 0013): the candidates' offsets carry a relative error below 2^-23 a
// coordinate, each operation below one ulp; 2^-19 covers the sums of products several times over,
// the floor the products' underflow
const REL: f32 = 1.9073486328125e-6; // 2^-19
const ROUND: f32 = 4.76837158203125e-7; // 2^-21
const MARGIN: f32 = 1.0009765625;
const FLOOR: f32 = 1e-35;

// the candidates nearest first (slot 0: the site itself): site, offset from the site in cells,
// squared length of the offset
var<workgroup> cand_id: array<u32, KCAP>;
var<workgroup> cand_d: array<vec2f, KCAP>;
var<workgroup> cand_r: array<f32, KCAP>;
// in block order while sorting (site, squared length's bits), then the lane results: the
// neighbours' slots before and after each candidate, NO_SLOT or DEAD
var<workgroup> cand_prev: array<u32, KCAP>;
var<workgroup> cand_next: array<u32, KCAP>;
var<workgroup> row_first: array<u32, ROWS>; // the block's rows: first entry in cell_sites
var<workgroup> row_base: array<u32, ROWS + 1u>; // candidates before the row
var<workgroup> wg_k: u32;
var<workgroup> wg_block: u32; // candidates from the block (the hull neighbours after them)
var<workgroup> wg_self: u32;
var<workgroup> wg_neighbours: atomic<u32>;
var<workgroup> wg_open_before: atomic<u32>; // neighbours with no bound before them
var<workgroup> wg_open_after: atomic<u32>;
var<workgroup> wg_first: atomic<u32>; // walk start: the lowest neighbour slot with none before, else the lowest
var<workgroup> wg_not_final: atomic<u32>;
var<workgroup> wg_status: u32;
var<workgroup> wg_tests: atomic<u32>;
var<workgroup> wg_uncertain: atomic<u32>;
var<workgroup> wg_stats: array<atomic<u32>, ${STAR_STATS_WORDS}>;

// a lane's tightest bound on one side: its slot, and its fraction N / C with their error bounds
struct Bound { slot: u32, n: f32, c: f32, en: f32, ec: f32 }

// sign of N_p C_q − N_q C_p when the float bounds decide it, else 0
fn fraction_sign(p: Bound, q: Bound) -> i32 {
  let d1 = p.n * q.c;
  let d2 = q.n * p.c;
  let d = d1 - d2;
  let ed = MARGIN * ((abs(p.n) + p.en) * q.ec + p.en * abs(q.c) + (abs(q.n) + q.en) * p.ec + q.en * abs(p.c)
    + ROUND * (abs(d1) + abs(d2))) + FLOOR;
  return select(select(0, -1, d < -ed), 1, d > ed);
}

// the bounds leave an interval, t_before < t_after: with C_before < 0 < C_after that is
// N_before C_after − N_after C_before > 0 (1 yes, -1 no, 0 the floats cannot tell)
fn interval_sign(before: Bound, after: Bound) -> i32 {
  return fraction_sign(before, after);
}

// 4·max |x|² over the bisector's interval between two bounds, x = a/2 + t·(−a.y, a.x) at
// t = N / 2C: 4|a|²(1/4 + t²), with |t| ≤ (|N| + eN) / 2(|C| − eC); unbounded (3e38) while a
// bound's side is uncertain in floats
fn reach_of(a: vec2f, p: Bound, q: Bound) -> f32 {
  let cp = abs(p.c) - p.ec;
  let cq = abs(q.c) - q.ec;
  if (cp <= 0.0 || cq <= 0.0) {
    return 3e38;
  }
  let t = max((abs(p.n) + p.en) / (2.0 * cp), (abs(q.n) + q.en) / (2.0 * cq));
  return min(3e38, 4.0 * MARGIN * MARGIN * dot(a, a) * (0.25 + t * t));
}

@compute @workgroup_size(${STAR_LANES})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let star = wid.y * nwg.x + wid.x; // uniform: one star a workgroup
  if (star >= params.sites) {
    return;
  }
  if (lid < ${STAR_STATS_WORDS}u) {
    atomicStore(&wg_stats[lid], 0u);
  }
  if (lid == 0u) {
    atomicStore(&wg_neighbours, 0u);
    atomicStore(&wg_open_before, 0u);
    atomicStore(&wg_open_after, 0u);
    atomicStore(&wg_first, NO_SLOT);
    atomicStore(&wg_not_final, 0u);
    atomicStore(&wg_tests, 0u);
    atomicStore(&wg_uncertain, 0u);
  }
  build_star(cell_sites[star], lid);
  workgroupBarrier();
  if (lid < ${STAR_STATS_WORDS}u) {
    let v = atomicLoad(&wg_stats[lid]);
    if (v != 0u) {
      if (lid == 2u || lid == 7u || lid == 10u || lid == 12u) {
        atomicMax(&stats[lid], v);
      } else {
        atomicAdd(&stats[lid], v);
      }
    }
  }
}

fn build_star(i: u32, lid: u32) {
  let pi = sites[i];
  let at = site_cell(pi);
  let cx = at.c.x;
  let cy = at.c.y;
  let f = at.f;
  let hull = hull_nbr[i];
  // rings 0..r: params.max_ring, fewer where the block holds more candidates than the pass can
  // (a dense cluster; the tail pass goes on from the next ring)
  var r = i32(params.max_ring);
  var lo: vec2i;
  var hi: vec2i;
  var rows: u32;
  var width: u32;
  var k_all: u32;
  var block: u32;
  loop {
    lo = vec2i(max(cx - r, 0), max(cy - r, 0));
    hi = vec2i(min(cx + r, i32(params.grid_w) - 1), min(cy + r, i32(params.grid_h) - 1));
    rows = u32(hi.y - lo.y + 1);
    width = u32(hi.x - lo.x + 1);
    // the block's rows are runs of cell_sites (cells in row-major order)
    if (lid < rows) {
      let c = u32(lo.y + i32(lid)) * params.grid_w + u32(lo.x);
      row_first[lid] = cell_start[c];
      row_base[lid + 1u] = cell_start[c + width] - cell_start[c];
    }
    workgroupBarrier();
    if (lid == 0u) {
      row_base[0] = 0u;
      for (var y = 1u; y <= rows; y++) {
        row_base[y] += row_base[y - 1u];
      }
      let b = row_base[rows];
      var k = b;
      // the hull neighbours (their edges are Delaunay) when outside the block
      for (var e = 0u; e < 2u; e++) {
        let h = select(hull.y, hull.x, e == 0u);
        if (h != 0u) {
          let c = site_cell(sites[h - 1u]).c;
          if (any(c < lo) || any(c > hi)) {
            if (k < KCAP) {
              cand_prev[k] = h - 1u;
            }
            k++;
          }
        }
      }
      wg_block = b;
      wg_k = k;
      wg_status = 0u;
    }
    k_all = workgroupUniformLoad(&wg_k);
    block = workgroupUniformLoad(&wg_block);
    if (k_all <= KCAP || r == 0) {
      break;
    }
    r--;
  }
  if (k_all > KCAP) {
    // a block denser than the pass holds (a cluster): the tail pass builds the star from scratch
    if (lid == 0u) {
      star_info[i] = vec2u(0u, STATUS_OVERFLOW | (RESTART << 8u));
      to_tail(i);
      atomicAdd(&wg_stats[5], k_all - 1u);
      atomicMax(&wg_stats[7], k_all - 1u);
    }
    return;
  }
  // every candidate's site and distance, in block order
  for (var s = lid; s < k_all; s += W) {
    if (s < block) {
      var y = 0u;
      while (row_base[y + 1u] <= s) {
        y++;
      }
      cand_prev[s] = cell_sites[row_first[y] + s - row_base[y]];
    }
    let d = cells_between(pi, sites[cand_prev[s]]);
    // a non-negative f32's bits order as the float does
    cand_next[s] = bitcast<u32>(dot(d, d));
  }
  workgroupBarrier();
  // nearest first (ties by block order): a rank a lane, O(candidates) each
  for (var s = lid; s < k_all; s += W) {
    let dist = cand_next[s];
    var rank = 0u;
    for (var k = 0u; k < k_all; k++) {
      let q = cand_next[k];
      rank += u32(q < dist || (q == dist && k < s));
    }
    let id = cand_prev[s];
    cand_id[rank] = id;
    cand_d[rank] = cells_between(pi, sites[id]);
    cand_r[rank] = bitcast<f32>(dist);
  }
  workgroupBarrier();
  let me = 0u; // the site itself: the only candidate at distance 0
  var tests = 0u;
  var uncertain = false;
  for (var base = 0u; base < k_all; base += W) {
    let s = base + lid;
    var live = s < k_all && s != me;
    var a = vec2f(0.0);
    if (live) {
      a = cand_d[s];
    }
    var before = Bound(NO_SLOT, 0.0, 0.0, 0.0, 0.0); // the tightest right of i→j: a lower bound
    var after = Bound(NO_SLOT, 0.0, 0.0, 0.0, 0.0); // the tightest left: an upper bound
    // a candidate k can only cut the interval if |d_k| / 2 ≤ the interval's farthest point from i
    // (nearer points lie inside k's half-plane): 4·that squared, conservatively, once both sides
    // are bounded; the candidates come nearest first, so the first beyond it ends the lane's work
    var reach = 3e38;
    for (var k = 1u; k < k_all; k++) {
      // (a tie anywhere sends the whole star to the per-thread pass: every lane stops)
      if (!live || cand_r[k] > reach || atomicLoad(&wg_uncertain) != 0u) {
        break;
      }
      if (k == s) {
        continue;
      }
      tests++;
      let b = cand_d[k];
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
        atomicStore(&wg_uncertain, 1u);
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
        atomicStore(&wg_uncertain, 1u);
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
      cand_prev[s] = select(DEAD, before.slot, live);
      cand_next[s] = select(DEAD, after.slot, live);
    }
    if (live) {
      atomicAdd(&wg_neighbours, 1u);
      if (before.slot == NO_SLOT) {
        atomicAdd(&wg_open_before, 1u);
        atomicMin(&wg_first, s);
      }
      if (after.slot == NO_SLOT) {
        atomicAdd(&wg_open_after, 1u);
      }
    }
  }
  atomicAdd(&wg_tests, tests);
  if (uncertain) {
    atomicStore(&wg_uncertain, 1u);
  }
  if (workgroupUniformLoad(&wg_uncertain) != 0u) {
    // a tie or a near-tie the floats cannot decide: the per-thread pass builds this star with
    // the exact predicates (listed after the tail list's n entries)
    if (lid == 0u) {
      let k = atomicAdd(&tail_count[6], 1u);
      tail_list[params.sites + k] = i;
      atomicMax(&tail_count[9], k / EXACT_LANES + 1u);
      atomicAdd(&wg_stats[19], 1u);
      atomicAdd(&wg_stats[3], atomicLoad(&wg_tests));
    }
    return;
  }
  // the star: the neighbours linked by their bounds, from the one with none before it (an open
  // wedge ends the list: NONE) or from the lowest slot round to it
  if (lid == 0u) {
    wg_status = link_star(i);
  }
  let linked = workgroupUniformLoad(&wg_status);
  // each neighbour's triangle with its next: no unsearched cell may hold a site in its circle
  if (linked == 0u && !ring_covers_grid(r, cx, cy)) {
    for (var s = lid; s < k_all; s += W) {
      let t = cand_next[s];
      if (t < DEAD) {
        var disk_box: vec4f;
        let region = conflict_region(pi, sites[cand_id[s]], sites[cand_id[t]], f, &disk_box);
        if (region.w < 0.0) {
          atomicOr(&wg_not_final, 1u);
        } else {
          let box = unsearched_box(region, disk_box, pi, f, r, cx, cy);
          if (all(box.xy <= box.zw)) {
            atomicOr(&wg_not_final, 1u);
          }
        }
      }
    }
  }
  atomicAdd(&wg_stats[15], half_planes);
  atomicAdd(&wg_stats[16], hull_clips);
  workgroupBarrier();
  if (lid == 0u) {
    var status = linked;
    if (status == 0u) {
      status = select(STATUS_FINAL, STATUS_RING_LIMIT, atomicLoad(&wg_not_final) != 0u || wg_open_wrong(hull));
    }
    let len = select(0u, star_info_len, status == STATUS_FINAL || status == STATUS_RING_LIMIT);
    var ring = u32(r);
    let tail = (status == STATUS_RING_LIMIT && params.tail != 0u) || status == STATUS_OVERFLOW;
    if (status == STATUS_OVERFLOW) {
      ring = RESTART;
    }
    star_info[i] = vec2u(len, status | (min(ring, 0xffffffu) << 8u));
    let seen = k_all - 1u;
    atomicAdd(&wg_stats[3], atomicLoad(&wg_tests));
    atomicAdd(&wg_stats[5], seen);
    atomicMax(&wg_stats[7], seen);
    atomicAdd(&wg_stats[9], rows * width);
    atomicMax(&wg_stats[10], rows * width);
    if (tail) {
      to_tail(i);
    } else {
      if (status != STATUS_FINAL) {
        atomicAdd(&wg_stats[0], 1u);
      }
      atomicAdd(&wg_stats[1], ring);
      atomicMax(&wg_stats[2], ring);
      if (ring > 4u) {
        atomicAdd(&wg_stats[8], 1u);
      }
    }
  }
}

// entries of the linked star and the last neighbour before its open wedge (leader only)
var<private> star_info_len: u32;
var<private> star_last: u32;

// Writes the star, the neighbours in counter-clockwise order (an open wedge as a NONE entry after
// the neighbour with nothing after it); 0, or STATUS_OVERFLOW when its links do not make one
// cycle or chain through every neighbour (or exceed the stars' stride): the tail pass starts it
// again by insertion.
fn link_star(i: u32) -> u32 {
  let count = atomicLoad(&wg_neighbours);
  let open = atomicLoad(&wg_open_before);
  if (open > 1u || atomicLoad(&wg_open_after) != open || count == 0u) {
    return STATUS_OVERFLOW;
  }
  if (count + open > STRIDE) {
    return STATUS_OVERFLOW;
  }
  var start = atomicLoad(&wg_first);
  if (open == 0u) {
    for (var s = 0u; s < wg_k; s++) {
      if (cand_next[s] < DEAD) {
        start = s;
        break;
      }
    }
  }
  let base = i * STRIDE;
  var cur = start;
  var len = 0u;
  loop {
    if (len >= count) {
      return STATUS_OVERFLOW; // the links run past every neighbour without closing
    }
    stars[base + len] = cand_id[cur];
    len++;
    let nxt = cand_next[cur];
    if (nxt == NO_SLOT) {
      star_last = cand_id[cur];
      stars[base + len] = NONE;
      len++;
      break;
    }
    if (nxt >= DEAD || cand_prev[nxt] != cur) {
      return STATUS_OVERFLOW;
    }
    cur = nxt;
    if (cur == start) {
      break;
    }
  }
  if (len != count + open) {
    return STATUS_OVERFLOW;
  }
  star_info_len = len;
  return 0u;
}

// the star's open wedges are not the site's: a hull site has one, from its previous to its next
// hull neighbour (the star's last entry before NONE and its first), any other site none
fn wg_open_wrong(hull: vec2u) -> bool {
  let open = atomicLoad(&wg_open_before);
  if (hull.x == 0u) {
    return open != 0u;
  }
  return open != 1u || cand_id[atomicLoad(&wg_first)] != hull.y - 1u || star_last != hull.x - 1u;
}

fn to_tail(i: u32) {
  let k = atomicAdd(&tail_count[0], 1u);
  tail_list[k] = i;
  // the tail pass's workgroups (indirect x, words 3–5): one a star, at most TAIL_GROUPS
  if (k < TAIL_GROUPS) {
    atomicMax(&tail_count[3], k + 1u);
  }
  atomicAdd(&wg_stats[14], 1u);
}
`,
};
