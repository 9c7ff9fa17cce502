import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl, type WgslModule, wgslModule } from '../runtime/wgsl-module.js';
import { STAR_BINDINGS, STAR_COMMON, STAR_WORKGROUP_SIZE } from './star-common-wgsl.js';
import { starSearchModule } from './star-search-wgsl.js';

/**
 * Workgroup memory a first-pass thread needs for a star of `capacity` entries: the star (u32s)
 * and its pairs' regions (vec4f), and one unused pending-region entry (a region, its box, its
 * triangle: the first pass keeps none, it only learns whether a star is final).
 */
export const starBytesPerLane = (capacity: number): number => 20 * capacity + 40;

/**
 * Lanes (threads a workgroup) and star capacity of the first pass within the device's workgroup
 * memory: 64 lanes when they fit, else 32, the capacity cut when even those do not (the stars
 * that need more start again in the tail pass).
 */
export function firstPassShape(
  capacity: number,
  workgroupBytes: number,
): { lanes: number; capacity: number } {
  const room = workgroupBytes - 256; // the statistics words and slack
  if (64 * starBytesPerLane(capacity) <= room) return { lanes: 64, capacity };
  return {
    lanes: 32,
    capacity: Math.max(4, Math.min(capacity, Math.floor(room / (32 * starBytesPerLane(1))))),
  };
}

/** Most workgroups of the tail pass (each takes the listed stars in turn). */
export const STAR_TAIL_GROUPS = 8192;

export {
  STAR_BUDGET,
  STAR_CAPACITY,
  STAR_FINAL,
  STAR_FIRST_CAPACITY,
  STAR_HULL_SEEDED,
  STAR_INCONSISTENT,
  STAR_OVERFLOW,
  STAR_RING_LIMIT,
  STAR_STATS_WORDS,
  STAR_WORKGROUP_SIZE,
} from './star-common-wgsl.js';

const MAIN = /* wgsl */ `@compute @workgroup_size(${STAR_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = thread_index(wid, nwg, lid, ${STAR_WORKGROUP_SIZE}u);
  if (i >= params.sites) {
    return;
  }`;

/**
 * Per-thread pass: builds a star a thread (`lanes` a workgroup), up to the ring limit of the
 * params with at most `capacity` entries (see {@link starSearchModule} for params and bindings
 * 0–8): every site's (the `'threads'` first pass), or (`listed`) those the pass by lanes handed
 * over, listed in binding 9 after its first n entries and counted in binding 10 (the tail
 * counts, see `TAIL_COUNTS`: `tiedStars`; the dispatch is indirect, `tiedArgs`). With
 * params.tail, a star still unfinished there or overflowing (then from scratch) is appended to
 * the tail list (binding 9, its first n entries), counted at `tailStars` with the tail pass's
 * workgroups at `tailArgs`, for the tail kernel.
 */
/** The star passes' bindings with the tail list's (9, 10), as {@link STAR_TAIL_APPEND} adds them. */
export const STAR_LIST_BINDINGS = { ...STAR_BINDINGS, tail_list: 9, tail_count: 10 } as const;

/**
 * Bindings 9–10 of the passes that hand stars on (the per-thread pass, the pass by lanes): the
 * lists and their counts (see {@link STAR_KERNEL}), and the tail list's append.
 */
export const STAR_TAIL_APPEND: WgslModule = wgslModule(
  'delaunay/star-tail-append',
  /* wgsl */ `
@group(0) @binding(9) var<storage, read_write> tail_list: array<u32>;
@group(0) @binding(10) var<storage, read_write> tail_count: array<atomic<u32>>;
const TAIL_GROUPS: u32 = ${STAR_TAIL_GROUPS}u;

fn to_tail(i: u32) {
  let k = atomicAdd(&tail_count[TAIL_STARS], 1u);
  tail_list[k] = i;
  // the tail pass's workgroups (its indirect x): one a star, at most TAIL_GROUPS
  if (k < TAIL_GROUPS) {
    atomicMax(&tail_count[TAIL_ARGS_X], k + 1u);
  }
  atomicAdd(&wg_stats[STAT_TAIL_SITES], 1u);
}
`,
  // it counts into `wg_stats`, which the kernel links (STAR_STATS_MODULE) where it needs it
  [STAR_COMMON],
);

export const STAR_KERNEL = defineKernel({
  name: 'delaunay/stars',
  bindings: STAR_LIST_BINDINGS,
  source: ({ capacity, lanes, listed }: { capacity: number; lanes: number; listed: boolean }) => /* wgsl */ `
${linkWgsl(starSearchModule(capacity, lanes, false), STAR_TAIL_APPEND)}

@compute @workgroup_size(${lanes})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  clear_stats(lid);
  slot = lid;
  workgroupBarrier();
  let thread = thread_index(wid, nwg, lid, ${lanes}u);
  ${
    listed
      ? `// the stars the pass by lanes handed over (after the tail list's n entries)
  if (thread < atomicLoad(&tail_count[TIED_STARS])) {
    build_star(tail_list[params.sites + thread]);
  }`
      : `// threads take the sites in cell order: neighbouring threads search neighbouring cells
  if (thread < params.sites) {
    build_star(cell_sites[thread]);
  }`
  }
  workgroupBarrier();
  flush_stats(lid);
}

fn build_star(i: u32) {
  let pi = sites[i];
  len = 0u;
  npend = NO_SKIP;
  hull_seeded = false;
  let at = begin_star(i, pi);
  let cx = at.c.x;
  let cy = at.c.y;
  let f = at.f;
  let hull = hull_nbr[i];
  var status = 0u;
  var ring = 0u;
  // Where the candidates come from, in turn: a hull site's two hull edges (always Delaunay: its
  // star then has its final open wedge at once), the rings, the finality check, and the hull's
  // vertices when the check asks for them (then the check again). All go through one call site
  // of the insertion: each inlined copy of its exact code costs the driver's compiler seconds.
  //
  // The rings: every site of rings 0..R (R the params' ring limit), then one finality check: the
  // threads of a warp then run the insertion and the check together (checks after each ring and
  // skipping by pending regions, as the tail pass does, had them run different code at the same
  // time). Two nested loops: the inner one steps through cells and candidates, at most
  // params.scan_steps steps, and runs only the float test of the star's regions, which turns
  // most candidates away; the outer one runs the exact tests and the edit for the candidate that
  // passed. One step an outer iteration (one flat loop) has a warp run the costly step whenever
  // any of its 32 threads has a candidate passing, nearly every iteration on irregular sites;
  // unbounded scans have a thread whose candidates pass often wait, at each of them, for the
  // thread scanning longest.
  let last = i32(params.max_ring);
  var r = 0;
  var g = ring_cells(0, cx, cy);
  var cells = ring_size(g);
  var k = 0u;
  var next_site = 0u;
  var end_site = 0u;
  var phase = select(PHASE_RINGS, PHASE_HULL, hull.x != 0u);
  var item = 0u; // the next hull edge or hull vertex
  loop {
    if (status != 0u) {
      break;
    }
    var l = NONE;
    var pl = vec4u(0u);
    var maybe = vec2u(0u);
    var from_list = false;
    if (phase == PHASE_HULL) {
      from_list = true;
      l = select(next_hull, prev_hull, item == 0u);
      item++;
      if (item == 2u) {
        phase = PHASE_RINGS;
      }
    } else if (phase == PHASE_SEEDS) {
      if (item == params.hull_count) {
        phase = PHASE_CHECK;
        continue;
      }
      let m = hull_triples[3u * item];
      item++;
      if (m == i || in_star(m)) {
        continue;
      }
      from_list = true;
      l = m;
    } else if (phase == PHASE_CHECK) {
      let verdict = ring_check(pi, last, cx, cy, f, hull);
      if (wants_hull_seeds(verdict, last)) {
        hull_seeded = true;
        phase = PHASE_SEEDS;
        item = 0u;
        continue;
      }
      status = verdict_status(verdict);
      break;
    } else {
      for (var step = 0u; step < params.scan_steps; step++) {
        if (next_site == end_site) {
          if (k == cells) {
            r++;
            if (r > last) {
              phase = PHASE_CHECK;
              break;
            }
            g = ring_cells(r, cx, cy);
            cells = ring_size(g);
            k = 0u;
            continue;
          }
          let d = ring_cell(g, k);
          k++;
          cells_visited++;
          let c = u32(cy + d.y) * params.grid_w + u32(cx + d.x);
          next_site = cell_start[c];
          end_site = cell_start[c + 1u];
          continue;
        }
        let m = cell_sites[next_site];
        let pm = sites[m];
        next_site++;
        if (!fresh_candidate(i, m)) {
          continue;
        }
        seen++;
        maybe = candidate_mask(f_site + cells_between(pi, pm));
        if (any(maybe != vec2u(0u)) || seen > params.max_candidates) {
          l = m;
          pl = pm;
          break;
        }
      }
      if (l == NONE) {
        continue;
      }
      if (seen > params.max_candidates) {
        status = STATUS_BUDGET;
        break;
      }
    }
    if (from_list) {
      // a hull edge or vertex: the float step of \`insert\` first
      pl = sites[l];
      maybe = candidate_mask(f_site + cells_between(pi, pl));
      if (all(maybe == vec2u(0u))) {
        continue;
      }
    }
    status = insert_masked(i, pi, l, pl, maybe);
  }
  ring = u32(min(r, last));
  if (status == 0u) {
    status = STATUS_RING_LIMIT;
  }
  // unfinished at this pass's ring limit: the tail pass goes on from the next ring, a workgroup
  // a star (a few boundary sites searching far, which one thread would search alone); over this
  // pass's capacity: the tail pass starts it again with the full one
  let goes_on = (status == STATUS_RING_LIMIT && params.tail != 0u) || status == STATUS_OVERFLOW;
  if (goes_on && status == STATUS_OVERFLOW) {
    len = 0u;
    hull_seeded = false;
    ring = RESTART;
  }
  store_star(i, status, ring);
  if (goes_on) {
    to_tail(i);
  }
  if (!goes_on) {
    add_stats(ring, ring, status != STATUS_FINAL);
    if (ring > 4u) {
      atomicAdd(&wg_stats[STAT_FAR_SITES], 1u);
    }
  } else {
    add_stats(0u, 0u, false); // its work; its rings are the tail pass's to count
  }
}
`,
});

/** Reading the stars: params, bindings 1–2 and the pair test of the count and emit kernels. */
const STAR_READ: WgslModule = wgslModule(
  'delaunay/star-read',
  /* wgsl */ `
struct Params { sites: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> stars: array<u32>;
@group(0) @binding(2) var<storage, read> star_info: array<vec2u>;

fn star_at(s: u32, t: u32) -> u32 {
  return stars[s * STRIDE + t];
}

// star of s holds x then y consecutively (cyclically)
fn has_pair(s: u32, x: u32, y: u32) -> bool {
  let info = star_info[s];
  if ((info.y & STATUS_BITS) != STATUS_FINAL) {
    return false;
  }
  let n = info.x;
  for (var t = 0u; t < n; t++) {
    if (star_at(s, t) == x) {
      return star_at(s, select(t + 1u, 0u, t + 1u == n)) == y;
    }
  }
  return false;
}
`,
  [STAR_COMMON],
);

/**
 * Checks each final star against its neighbours' (every finite triangle (i, a, b) of i's star
 * appears as (a, b, i) in a's and (b, i, a) in b's) and counts the triangles the site emits:
 * those whose other two vertices have larger indices. Params: sites. Bindings: 1 stars, 2 star
 * info, 3 counts (one more entry, for the scan), 4 statistics (word 6: disagreeing sites).
 */
export const STAR_COUNT_KERNEL = defineKernel({
  name: 'delaunay/star-count',
  bindings: { stars: 1, star_info: 2, counts: 3, stats: 4 },
  source: () => /* wgsl */ `
${linkWgsl(STAR_READ)}
@group(0) @binding(3) var<storage, read_write> counts: array<u32>;
@group(0) @binding(4) var<storage, read_write> stats: array<atomic<u32>>;
${MAIN}
  let info = star_info[i];
  if ((info.y & STATUS_BITS) != STATUS_FINAL) {
    counts[i] = 0u;
    return;
  }
  let n = info.x;
  var count = 0u;
  var agree = true;
  for (var t = 0u; t < n; t++) {
    let a = star_at(i, t);
    let b = star_at(i, select(t + 1u, 0u, t + 1u == n));
    if (a == NONE || b == NONE) {
      continue;
    }
    agree = agree && has_pair(a, b, i) && has_pair(b, i, a);
    count += u32(a > i && b > i);
  }
  if (!agree) {
    atomicAdd(&stats[STAT_DISAGREEING_SITES], 1u);
  }
  counts[i] = select(0u, count, agree);
}
`,
});

/**
 * Writes each site's triangles at its scanned offset, three site indices each, clockwise in a
 * y-up frame (delaunator's convention): the star's counter-clockwise (i, a, b) becomes (i, b, a).
 * Params: sites. Bindings: 1 stars, 2 star info, 3 offsets (scanned counts), 4 triangles.
 */
export const STAR_EMIT_KERNEL = defineKernel({
  name: 'delaunay/star-emit',
  bindings: { stars: 1, star_info: 2, offsets: 3, triangles: 4 },
  source: () => /* wgsl */ `
${linkWgsl(STAR_READ)}
@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> triangles: array<u32>;
${MAIN}
  let info = star_info[i];
  var at = 3u * offsets[i];
  let end = 3u * offsets[i + 1u];
  let n = info.x;
  for (var t = 0u; t < n && at < end; t++) {
    let a = star_at(i, t);
    let b = star_at(i, select(t + 1u, 0u, t + 1u == n));
    if (a != NONE && b != NONE && a > i && b > i) {
      triangles[at] = i;
      triangles[at + 1u] = b;
      triangles[at + 2u] = a;
      at += 3u;
    }
  }
}
`,
});
