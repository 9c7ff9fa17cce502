import { type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_COMMON } from './star-common-wgsl.js';

/**
 * The steps of a star's search that `starSearchModule` links together: the finality checks (full
 * and narrowed), which cells a ring still needs, the pending-region and candidate tests, a star's
 * start, a cell's visit, its store and the per-site counters. WGSL over the names the search
 * declares (its params, bindings, a star's private and workgroup state), so only it includes this.
 */
export const STAR_SEARCH_STEPS: WgslModule = wgslModule(
  'delaunay/star-search-steps',
  /* wgsl */ `
// 1 final, 0 not yet, -1 impossible (a complete star of the wrong shape)
fn star_final(pi: vec4u, r: i32, cx: i32, cy: i32, f: vec2f, hull: vec2u, complete: bool) -> i32 {
  final_checks++;
  var infinite = 0u;
  var at = 0u;
  for (var t = 0u; t < len; t++) {
    if (star_s[t * LANES + slot] == NONE) {
      infinite++;
      at = t;
    }
  }
  let fail = select(0, -1, complete);
  npend = NO_SKIP;
  if (len < 3u) {
    return fail;
  }
  if (hull.x != 0u) {
    // a hull site keeps exactly one open wedge, from its previous to its next hull neighbour
    if (infinite != 1u || star_s[(prv(at)) * LANES + slot] != hull.x - 1u || star_s[(nxt(at)) * LANES + slot] != hull.y - 1u) {
      return fail;
    }
  } else if (infinite != 0u) {
    return fail;
  }
  if (complete) {
    return 1;
  }
  // the regions that still meet unsearched cells; only cells meeting one of them need a visit
  // (the union of a closed star's circumdisks only shrinks as sites are inserted)
  npend = 0u;
  pend_lo = vec2f(1e30);
  pend_hi = vec2f(-1e30);
  for (var t = 0u; t < len; t++) {
    let a = star_s[t * LANES + slot];
    let b = star_s[(nxt(t)) * LANES + slot];
    if (a == NONE || b == NONE) {
      continue;
    }
    // a disk's box is the disk's; a half-plane's comes with its computation
    var region = reg_of_s[t * LANES + slot];
    var disk_box = vec4f(region.xy - vec2f(region.z), region.xy + vec2f(region.z));
    if (region.w != 0.0) {
      region = conflict_region(pi, sites[a], sites[b], f, &disk_box);
    }
    if (region.w < 0.0) {
      npend = NO_SKIP;
      return 0;
    }
    let box = unsearched_box(region, disk_box, pi, f, r, cx, cy);
    if (all(box.xy <= box.zw)) {
      if (npend == PEND_CAP) {
        return 0; // not final; a pass keeping no pending regions learns no more (npend unused)
      }
      pend_s[npend * LANES + slot] = region;
      pend_box_s[npend * LANES + slot] = box;
      pend_ab_s[npend * LANES + slot] = vec2u(a, b);
      npend++;
      pend_lo = min(pend_lo, box.xy);
      pend_hi = max(pend_hi, box.zw);
    }
  }
  return select(0, 1, npend == 0u);
}

// For a closed star unchanged since its last \`star_final\`: keeps the pending regions that still
// meet cells outside rings 0..r, exactly the set \`star_final\` would find (the same regions and
// boxes; a region searched at ring r − 1 stays searched). 1 when none is left (final), else 0.
fn narrow_pending(r: i32, cx: i32, cy: i32) -> i32 {
  final_narrowings++;
  var kept = 0u;
  pend_lo = vec2f(1e30);
  pend_hi = vec2f(-1e30);
  for (var k = 0u; k < npend; k++) {
    let region = pend_s[k * LANES + slot];
    let box = pend_box_s[k * LANES + slot];
    if (!region_searched(region, box, r, cx, cy)) {
      pend_s[kept * LANES + slot] = region;
      pend_box_s[kept * LANES + slot] = box;
      pend_ab_s[kept * LANES + slot] = pend_ab_s[k * LANES + slot];
      kept++;
      pend_lo = min(pend_lo, box.xy);
      pend_hi = max(pend_hi, box.zw);
    }
  }
  npend = kept;
  return select(0, 1, kept == 0u);
}

// cell (dx, dy) from the site's cell may hold a site in conflict with the star
fn cell_needed(dx: i32, dy: i32) -> bool {
  if (npend == NO_SKIP) {
    return true;
  }
  let lo = vec2f(f32(dx), f32(dy));
  let hi = lo + vec2f(1.0);
  if (any(hi < pend_lo) || any(lo > pend_hi)) {
    return false;
  }
  for (var k = 0u; k < npend; k++) {
    if (region_meets_in(pend_s[k * LANES + slot], pend_box_s[k * LANES + slot], vec4f(lo, hi))) {
      return true;
    }
  }
  return false;
}

// l lies strictly inside the circumdisk of a pending triangle, exactly (ties by index; the float
// regions first): the closed star's disks only shrink as it gains sites, so a site outside all of
// them conflicts with none of the star's later triangles either
fn in_pending_exactly(i: u32, pi: vec4u, f: vec2f, l: u32) -> bool {
  let pl = sites[l];
  let p = f + cells_between(pi, pl);
  for (var k = 0u; k < npend; k++) {
    if (region_meets_in(pend_s[k * LANES + slot], pend_box_s[k * LANES + slot], vec4f(p, p))) {
      let ab = pend_ab_s[k * LANES + slot];
      let pa = sites[ab.x];
      let pb = sites[ab.y];
      let s = incircle_sign_path(pi, pa, pb, pl);
      if (s.x > 0 || (s.x == 0 && incircle_sos_tie(pi, pa, pb, pl, i, ab.x, ab.y, l) > 0)) {
        return true;
      }
    }
  }
  return false;
}

// position p (in cells from the corner of the site's cell) lies in a pending region
fn in_pending(p: vec2f) -> bool {
  for (var k = 0u; k < npend; k++) {
    if (region_meets_in(pend_s[k * LANES + slot], pend_box_s[k * LANES + slot], vec4f(p, p))) {
      return true;
    }
  }
  return false;
}

fn in_star(l: u32) -> bool {
  for (var t = 0u; t < len; t++) {
    if (star_s[t * LANES + slot] == l) {
      return true;
    }
  }
  return false;
}

// l is neither the site nor a neighbour inserted already (its hull neighbours, the hull's
// vertices once seeded)
fn fresh_candidate(i: u32, l: u32) -> bool {
  return !(l == i || l == prev_hull || l == next_hull || (hull_seeded && hull_nbr[l].x != 0u));
}

// l may conflict with the star: it is open, or l lies in a pending region
fn may_conflict(pi: vec4u, f: vec2f, l: u32) -> bool {
  return npend == NO_SKIP || in_pending(f + cells_between(pi, sites[l]));
}

// a star's start: its site's cell, its hull neighbours (NONE off the hull), counters cleared
fn begin_star(i: u32, pi: vec4u) -> SiteCell {
  let at = site_cell(pi);
  f_site = at.f;
  let hull = hull_nbr[i];
  prev_hull = hull.x - 1u;
  next_hull = hull.y - 1u;
  clear_counters();
  return at;
}

// the star, its length and status (with the hull-seeded flag) and the last ring searched
fn store_star(i: u32, status: u32, ring: u32) {
  let base = i * STRIDE;
  for (var t = 0u; t < len; t++) {
    stars[base + t] = star_s[t * LANES + slot];
  }
  star_info[i] = vec2u(len, status | select(0u, HULL_SEEDED, hull_seeded) | (min(ring, 0xffffffu) << 8u));
}

fn clear_counters() {
  tests = 0u;
  filtered_out = 0u;
  seen = 0u;
  cells_visited = 0u;
  edits = 0u;
  checked_edits = 0u;
  final_checks = 0u;
  final_narrowings = 0u;
  half_planes = 0u;
  hull_clips = 0u;
  exact_steps = 0u;
}
`,
  [STAR_COMMON],
);
