import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { STAR_CAPACITY } from './star-common-wgsl.js';
import { STAR_LIST_BINDINGS } from './star-kernels.js';
import { starSearchModule } from './star-search-wgsl.js';

/** Threads of a tail workgroup (one star at a time), by default. */
export const STAR_TAIL_WORKGROUP_SIZE = 64;
/** Candidates a tail workgroup gathers from one chunk of cells before its leader inserts them. */
const TAIL_CANDIDATES = 256;
/** Most rings searched between two finality checks of a tail star. */
const TAIL_BAND = 128;

/**
 * Second pass of the stars (ADR 0013): the stars the first pass left unfinished at its ring limit
 * (binding 9 their sites, binding 10 their count) go on from the next ring, a workgroup a star, up
 * to the ring limit of the params; those that overflowed its capacity start again from ring 0.
 * The search is what is long there (a boundary site's conflict region runs along the hull,
 * hundreds of rings), not the insertion (a few candidates pass the pending regions). The rings go
 * in bands, r .. 1.5r (one ring while the star is open), with one finality check after each: the
 * leader, thread 0, which holds the star, publishes its pending regions; every thread lays out
 * some of the band's rings (each side cut to the span the regions cross); then each chunk of the
 * band's cells is spread over the workgroup, a cell a thread, whose threads test the cells' sites
 * against the pending regions and gather the survivors, and the leader inserts them (in any
 * order: a site's star under exact, symbolically perturbed predicates does not depend on it). The
 * regions only shrink while a closed star gains sites, so those of the band's start are a safe
 * filter for all of it. More survivors than fit: the leader visits the chunk's cells itself.
 * Workgroups take the stars in turn (stride of the dispatch), so any count of workgroups covers
 * the list.
 */
export const STAR_TAIL_KERNEL = defineKernel({
  name: 'delaunay/stars-tail',
  bindings: STAR_LIST_BINDINGS,
  source: ({ size }: { size: number }) => /* wgsl */ `
${linkWgsl(starSearchModule(STAR_CAPACITY, 1, true))}
@group(0) @binding(9) var<storage, read> tail_list: array<u32>;
@group(0) @binding(10) var<storage, read> tail_count: array<u32>;

const WG: u32 = ${size}u;
const CANDIDATES: u32 = ${TAIL_CANDIDATES}u;
const BAND: u32 = ${TAIL_BAND}u;
var<workgroup> wg_status: u32;
var<workgroup> wg_phase: u32;
var<workgroup> wg_first_ring: u32;
var<workgroup> wg_cells: u32;
var<workgroup> wg_band_last: i32;
var<workgroup> wg_band: array<RingCells, BAND>; // the band's rings
var<workgroup> wg_band_start: array<u32, BAND>; // each ring's first cell in the band
var<workgroup> wg_npend: u32;
var<workgroup> wg_pend_bounds: vec4f;
var<workgroup> wg_seeded: u32;
var<workgroup> wg_cand: array<u32, CANDIDATES>;
var<workgroup> wg_ncand: atomic<u32>;

@compute @workgroup_size(${size})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  clear_stats(lid);
  slot = 0u; // one star a workgroup, the leader's: the helpers read its pending regions
  if (lid == 0u) {
    atomicStore(&wg_ncand, 0u);
  }
  workgroupBarrier();
  let count = tail_count[TAIL_STARS];
  for (var j = wid.x; j < count; j += nwg.x) {
    finish_star(tail_list[j], lid);
  }
  workgroupBarrier();
  flush_stats(lid);
}

// the sites of cell (cx + dx, cy + dy) that may conflict with the star go to the leader
fn gather_cell(i: u32, pi: vec4u, f: vec2f, cx: i32, cy: i32, dx: i32, dy: i32) {
  cells_visited++;
  if (!cell_needed(dx, dy)) {
    return;
  }
  let c = u32(cy + dy) * params.grid_w + u32(cx + dx);
  for (var k = cell_start[c]; k < cell_start[c + 1u]; k++) {
    let l = cell_sites[k];
    if (!fresh_candidate(i, l)) {
      continue;
    }
    seen++;
    // a closed star: only sites inside a pending triangle's circumdisk, decided exactly here, in
    // parallel (the float regions of triangles with a tiny edge are huge: thousands of sites pass)
    if (npend != NO_SKIP && !in_pending_exactly(i, pi, f, l)) {
      continue;
    }
    let at = atomicAdd(&wg_ncand, 1u);
    if (at < CANDIDATES) {
      wg_cand[at] = l;
    }
  }
}

// the leader's pending-region count and bounds to every thread of the workgroup (the regions
// themselves they read in its slot, 0), and the next band of rings:
// one ring while the star is open (every site is then a candidate), else rings r .. 1.5r (the
// searched radius grows by half between finality checks: a few checks for a star searching far)
fn publish_band(r: i32) {
  wg_npend = npend;
  wg_pend_bounds = vec4f(pend_lo, pend_hi);
  wg_seeded = u32(hull_seeded);
  let rings = select(min(max(r / 2, 1), i32(BAND)), 1, npend == NO_SKIP);
  wg_band_last = min(r + rings - 1, i32(params.max_ring));
}

// the band's k-th cell, (dx, dy) from the site's cell
fn band_cell(k: u32, rings: u32) -> vec2i {
  var lo = 0u;
  var hi = rings - 1u;
  while (lo < hi) {
    let mid = (lo + hi + 1u) / 2u;
    if (wg_band_start[mid] <= k) {
      lo = mid;
    } else {
      hi = mid - 1u;
    }
  }
  return ring_cell(wg_band[lo], k - wg_band_start[lo]);
}

fn take_pending() {
  npend = wg_npend;
  pend_lo = wg_pend_bounds.xy;
  pend_hi = wg_pend_bounds.zw;
  hull_seeded = wg_seeded != 0u;
}

fn finish_star(i: u32, lid: u32) {
  let pi = sites[i];
  let at = begin_star(i, pi);
  let cx = at.c.x;
  let cy = at.c.y;
  let f = at.f;
  let hull = hull_nbr[i];
  var budget = 0u;
  if (lid == 0u) {
    let info = star_info[i];
    let last = info.y >> 8u;
    npend = NO_SKIP;
    wg_status = 0u;
    if (last == RESTART) {
      // it overflowed the first pass's smaller star: from scratch (a hull site from its hull edges)
      len = 0u;
      hull_seeded = false;
      wg_first_ring = 0u;
      wg_phase = select(PHASE_BAND, PHASE_HULL, hull.x != 0u);
    } else {
      // the first pass's star, checked once more after its last ring (its pending regions)
      len = info.x;
      for (var t = 0u; t < len; t++) {
        star_s[t * LANES + slot] = stars[i * STRIDE + t];
      }
      refresh_regions(pi, 0u, len);
      hull_seeded = (info.y & HULL_SEEDED) != 0u;
      wg_first_ring = last + 1u;
      wg_phase = PHASE_CHECK;
    }
  }
  // read and written by the leader only (star_info is read-write: not uniform to the compiler)
  var phase = workgroupUniformLoad(&wg_phase);
  var r = i32(workgroupUniformLoad(&wg_first_ring));
  var ring = u32(max(r, 1)) - 1u; // the last ring searched
  var checked = r - 1; // the ring a check is about
  var status = 0u;
  var last = 0; // the band's last ring
  var rings = 0u;
  var cells = 0u;
  var base = 0u; // the band's next chunk of cells
  // Each round is one step of the search, the same for every thread of the workgroup; the
  // leader's insertions of all of them (hull edges, gathered candidates, a chunk's cells, the
  // hull's vertices) are at one call site, as are its checks.
  loop {
    if (phase == PHASE_DONE) {
      break;
    }
    if (phase == PHASE_BAND) {
      if (r > i32(params.max_ring)) {
        break;
      }
      if (lid == 0u) {
        publish_band(r);
      }
      last = workgroupUniformLoad(&wg_band_last);
      if (lid != 0u) {
        take_pending();
      }
      // every thread the cells of some of the band's rings, then the leader their offsets
      rings = u32(last - r + 1);
      for (var k = lid; k < rings; k += WG) {
        let g = ring_cells(r + i32(k), cx, cy);
        wg_band[k] = g;
        wg_band_start[k] = ring_size(g);
      }
      workgroupBarrier();
      if (lid == 0u) {
        var total = 0u;
        for (var k = 0u; k < rings; k++) {
          let size = wg_band_start[k];
          wg_band_start[k] = total;
          total += size;
        }
        wg_cells = total;
      }
      cells = workgroupUniformLoad(&wg_cells);
      base = 0u;
      phase = PHASE_RINGS;
      continue;
    }
    if (phase == PHASE_RINGS) {
      if (base >= cells) {
        // the band searched: check it
        ring = u32(last);
        checked = last;
        phase = PHASE_CHECK;
        continue;
      }
      // each chunk of the band's cells spread over the workgroup, a cell a thread
      if (base + lid < cells) {
        let d = band_cell(base + lid, rings);
        gather_cell(i, pi, f, cx, cy, d.x, d.y);
      }
      workgroupBarrier();
    }
    if (lid == 0u) {
      var next = phase;
      var s = 0u;
      if (phase == PHASE_CHECK) {
        let verdict = ring_check(pi, checked, cx, cy, f, hull);
        if (wants_hull_seeds(verdict, checked)) {
          hull_seeded = true;
          next = PHASE_SEEDS;
        } else {
          s = verdict_status(verdict);
          next = PHASE_BAND;
        }
      } else {
        s = leader_inserts(i, pi, f, cx, cy, phase, base, cells, rings, &budget);
        next = select(phase, PHASE_BAND, phase == PHASE_HULL);
        next = select(next, PHASE_CHECK, phase == PHASE_SEEDS);
      }
      wg_status = s;
      wg_phase = next;
    }
    status = workgroupUniformLoad(&wg_status);
    let next = workgroupUniformLoad(&wg_phase);
    if (phase == PHASE_RINGS) {
      base += WG;
      if (status != 0u) {
        ring = u32(last); // the band's rings, as searched when it stopped
      }
    }
    if (phase == PHASE_CHECK && next == PHASE_BAND) {
      r = checked + 1;
    }
    phase = next;
    if (status != 0u) {
      break;
    }
  }
  if (lid == 0u) {
    if (status == 0u) {
      status = STATUS_RING_LIMIT;
    }
    store_star(i, status, ring);
    add_stats(ring, ring, status != STATUS_FINAL);
    if (ring > 4u) {
      atomicAdd(&wg_stats[STAT_FAR_SITES], 1u);
    }
  } else {
    // the helpers' share of the search
    atomicAdd(&wg_stats[STAT_CANDIDATES], seen);
    atomicAdd(&wg_stats[STAT_CELLS_VISITED], cells_visited);
  }
}

// The leader's insertions of one round, from the phase's source: the two hull edges, the
// hull's vertices (not the site, not in the star yet), or the chunk's gathered candidates —
// the chunk's cells site by site when more were gathered than fit (as the first pass visits
// cells). The one call site of \`insert\` in this kernel. Returns a failure status or 0.
fn leader_inserts(i: u32, pi: vec4u, f: vec2f, cx: i32, cy: i32, phase: u32, base: u32, cells: u32,
                  rings: u32, budget: ptr<function, u32>) -> u32 {
  let gathered = atomicLoad(&wg_ncand);
  atomicStore(&wg_ncand, 0u);
  let overflow = phase == PHASE_RINGS && gathered > CANDIDATES;
  let chunk_end = min(base + WG, cells);
  var s = 0u;
  var item = 0u;
  var k = base; // overflow: the next cell of the chunk, and its next site
  var site = 0u;
  var site_end = 0u;
  loop {
    var l = NONE;
    if (phase == PHASE_HULL) {
      if (item == 2u) {
        break;
      }
      l = select(next_hull, prev_hull, item == 0u);
    } else if (phase == PHASE_SEEDS) {
      if (item == params.hull_count) {
        break;
      }
      let m = hull_triples[3u * item];
      if (m != i && !in_star(m)) {
        l = m;
      }
    } else if (!overflow) {
      if (item == gathered) {
        break;
      }
      l = wg_cand[item];
    } else {
      if (site == site_end) {
        if (k == chunk_end) {
          break;
        }
        let d = band_cell(k, rings);
        k++;
        cells_visited++;
        if (cell_needed(d.x, d.y)) {
          let c = u32(cy + d.y) * params.grid_w + u32(cx + d.x);
          site = cell_start[c];
          site_end = cell_start[c + 1u];
        }
        continue;
      }
      let m = cell_sites[site];
      site++;
      if (!fresh_candidate(i, m)) {
        continue;
      }
      seen++;
      if (seen > params.max_candidates) {
        s = STATUS_BUDGET;
        break;
      }
      if (may_conflict(pi, f, m)) {
        l = m;
      }
    }
    item++;
    if (l != NONE) {
      s = insert(i, pi, l);
      if (s != 0u) {
        break;
      }
    }
  }
  if (phase == PHASE_RINGS && !overflow) {
    *budget += gathered;
    if (s == 0u && *budget > params.max_candidates) {
      s = STATUS_BUDGET;
    }
  }
  return s;
}
`,
});
