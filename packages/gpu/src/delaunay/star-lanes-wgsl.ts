import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_COMMON } from './star-common-wgsl.js';
import { STAR_LANES } from './star-lanes-shape.js';

/*
 * Pieces of the first pass by lanes (STAR_LANES_KERNEL) that need none of its constants: WGSL over
 * the names the kernel declares (its bounds, block rows and slots), so only it includes them.
 */

/** A lane's tightest bounds and the float decisions between them (`fraction_sign`, `reach_of`). */
export const LANE_BOUNDS_WGSL = /* wgsl */ `// a lane's tightest bound on one side: its slot, and its fraction N / C with their error bounds
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
`;

/** The block of rings around a cell and its rows of candidates (`block_of`, `block_row`, `block_total`). */
export const LANE_BLOCK_WGSL = /* wgsl */ `// the block of rings 0..r around cell (cx, cy), cut to the grid
struct Block { lo: vec2i, hi: vec2i, rows: u32, width: u32 }

fn block_of(r: i32, cx: i32, cy: i32) -> Block {
  let lo = vec2i(max(cx - r, 0), max(cy - r, 0));
  let hi = vec2i(min(cx + r, i32(params.grid_w) - 1), min(cy + r, i32(params.grid_h) - 1));
  return Block(lo, hi, u32(hi.y - lo.y + 1), u32(hi.x - lo.x + 1));
}

// row y of the block as a run of cell_sites (cells in row-major order): its start, and its count
// at row_base[y + 1] (summed by block_total)
fn block_row(g: Block, y: u32) {
  let c = u32(g.lo.y + i32(y)) * params.grid_w + u32(g.lo.x);
  row_first[slot * ROWS + y] = cell_start[c];
  row_base[slot * (ROWS + 1u) + y + 1u] = cell_start[c + g.width] - cell_start[c];
}

// (one lane) the rows' counts summed in place; the block's candidates and, with the hull
// neighbours outside it (their edges are Delaunay), all of them (those stored from KCAP on are not)
fn block_total(g: Block, hull: vec2u) -> vec2u {
  row_base[slot * (ROWS + 1u)] = 0u;
  for (var y = 1u; y <= g.rows; y++) {
    row_base[slot * (ROWS + 1u) + y] += row_base[slot * (ROWS + 1u) + y - 1u];
  }
  let b = row_base[slot * (ROWS + 1u) + g.rows];
  var k = b;
  for (var e = 0u; e < 2u; e++) {
    let h = select(hull.y, hull.x, e == 0u);
    if (h != 0u) {
      let c = site_cell(sites[h - 1u]).c;
      if (any(c < g.lo) || any(c > g.hi)) {
        if (k < KCAP) {
          cand_prev[kb + k] = h - 1u;
        }
        k++;
      }
    }
  }
  return vec2u(b, k);
}

`;

/** The star linked from the lanes' neighbours and the check of its open wedges (`link_star`, `wg_open_wrong`). */
export const LANE_LINK_WGSL = /* wgsl */ `// entries of the linked star and the last neighbour before its open wedge (leader only)
var<private> star_info_len: u32;
var<private> star_last: u32;

// Writes the star, the neighbours in counter-clockwise order (an open wedge as a NONE entry after
// the neighbour with nothing after it); 0, or STATUS_OVERFLOW when its links do not make one
// cycle or chain through every neighbour (or exceed the stars' stride): the tail pass starts it
// again by insertion.
fn link_star(i: u32) -> u32 {
  let count = atomicLoad(&s_neighbours[slot]);
  let open = atomicLoad(&s_open_before[slot]);
  if (open > 1u || atomicLoad(&s_open_after[slot]) != open || count == 0u) {
    return STATUS_OVERFLOW;
  }
  if (count + open > STRIDE) {
    return STATUS_OVERFLOW;
  }
  var start = atomicLoad(&s_first[slot]);
  if (open == 0u) {
    for (var s = 0u; s < s_k[slot]; s++) {
      if (cand_next[kb + s] < DEAD) {
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
    stars[base + len] = cand_id[kb + cur];
    len++;
    let nxt = cand_next[kb + cur];
    if (nxt == NO_SLOT) {
      star_last = cand_id[kb + cur];
      stars[base + len] = NONE;
      len++;
      break;
    }
    if (nxt >= DEAD || cand_prev[kb + nxt] != cur) {
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
  let open = atomicLoad(&s_open_before[slot]);
  if (hull.x == 0u) {
    return open != 0u;
  }
  return open != 1u || cand_id[kb + atomicLoad(&s_first[slot])] != hull.y - 1u || star_last != hull.x - 1u;
}`;

/** The shape of a pass by lanes: its lanes and slots, candidates and rows. */
export function lanesShape(exactLanes: number, slots: number, candidates: number, rows: number): WgslModule {
  return wgslModule(
    `delaunay/lanes-shape(${exactLanes},${slots},${candidates},${rows})`,
    /* wgsl */ `const EXACT_LANES: u32 = ${exactLanes}u; // threads a workgroup of the per-thread pass
const L: u32 = ${STAR_LANES}u; // lanes a star
const SLOTS: u32 = ${slots}u; // stars a workgroup
const KCAP: u32 = ${candidates}u;
const ROWS: u32 = ${rows}u; // rows of the largest block (2 · rings + 1)`,
    [STAR_COMMON],
  );
}

/** The counters the region code adds to (the search keeps them with a star's state). */
export const LANE_COUNTERS: WgslModule = wgslModule(
  'delaunay/lane-counters',
  /* wgsl */ `
// counted by the region code
var<private> half_planes: u32;
var<private> hull_clips: u32;`,
  [STAR_COMMON],
);

/** A pass by lanes' workgroup state: bounds, flags and counts a slot. */
export const LANE_STATE: WgslModule = wgslModule(
  'delaunay/lane-state',
  /* wgsl */ `
const NO_SLOT: u32 = 0xffffffffu; // no bound on that side: an open wedge
const DEAD: u32 = 0xfffffffeu; // not a neighbour
// float error bounds (ADR 0013): the candidates' offsets carry a relative error below 2^-23 a
// coordinate, each operation below one ulp; 2^-19 covers the sums of products several times over,
// the floor the products' underflow
const REL: f32 = 1.9073486328125e-6; // 2^-19
const ROUND: f32 = 4.76837158203125e-7; // 2^-21
const MARGIN: f32 = 1.0009765625;
const FLOOR: f32 = 1e-35;

// per star (SLOTS a workgroup, KCAP entries each): the candidates nearest first (entry 0: the site itself): site, offset from the site in cells,
// squared length of the offset
var<workgroup> cand_id: array<u32, SLOTS * KCAP>;
var<workgroup> cand_d: array<vec2f, SLOTS * KCAP>;
var<workgroup> cand_r: array<f32, SLOTS * KCAP>;
// in block order while sorting (site, squared length's bits), then the lane results: the
// neighbours' slots before and after each candidate, NO_SLOT or DEAD
var<workgroup> cand_prev: array<u32, SLOTS * KCAP>;
var<workgroup> cand_next: array<u32, SLOTS * KCAP>;
var<workgroup> row_first: array<u32, SLOTS * ROWS>; // the block's rows: first entry in cell_sites
var<workgroup> row_base: array<u32, SLOTS * (ROWS + 1u)>; // candidates before the row
// a star's (slot's) block: rings, candidates (the block's, then its hull neighbours)
var<workgroup> s_ring: array<i32, SLOTS>;
var<workgroup> s_k: array<u32, SLOTS>;
var<workgroup> s_block: array<u32, SLOTS>;
var<workgroup> s_neighbours: array<atomic<u32>, SLOTS>;
var<workgroup> s_open_before: array<atomic<u32>, SLOTS>; // neighbours with no bound before them
var<workgroup> s_open_after: array<atomic<u32>, SLOTS>;
var<workgroup> s_first: array<atomic<u32>, SLOTS>; // walk start: the lowest neighbour slot with none before
var<workgroup> s_not_final: array<atomic<u32>, SLOTS>;
var<workgroup> s_status: array<u32, SLOTS>;
var<workgroup> s_tests: array<atomic<u32>, SLOTS>;
var<workgroup> s_uncertain: array<atomic<u32>, SLOTS>;
// this thread's star (its slot in the workgroup), lane, and the slot's first candidate entry
var<private> slot: u32;
var<private> lane: u32;
var<private> kb: u32;`,
  [STAR_COMMON],
);
