import { defineKernel } from '../runtime/pipeline-cache.js';
import { TOLERANCE_WGSL } from './exact-kernel.js';
import { LIST_BUILTINS, LIST_INDEX, LIST_WORKGROUP, rasterHeader } from './raster-wgsl.js';
import { ringSearch } from './ring-search-wgsl.js';
import type { DimsConstants } from './seed-kernels.js';

/** Most near-tie candidates a pixel brings back (more: the pixel is re-decided from host buckets). */
export const TIE_CANDIDATES = 8;

/** The coordinates' f64 bits of site i, axis a, with −0 read as +0 (equal numbers, equal bits). */
const COORD_BITS = /* wgsl */ `
fn coord_bits(i: u32, a: u32) -> vec2u {
  let w = (i * DIMS + a) * 2u;
  let lo = coords[w];
  let hi = coords[w + 1u];
  if (lo == 0u && hi == 0x80000000u) {
    return vec2u(0u);
  }
  return vec2u(lo, hi);
}`;

/**
 * Duplicate removal, one thread per site (misc.x sites): inserts the site's f64 coordinates into
 * an open-addressing table (misc.y = table size − 1, at least twice the sites, filled with NONE),
 * keyed by their bits. The first site of a group of equal coordinates claims a slot; later ones
 * find it and `atomicMin` their index into it, so the slot ends holding the group's lowest index,
 * whichever thread came first. `slot_of[i]` = the slot of site i's group.
 */
export const EXACT_DEDUP_KERNEL = defineKernel({
  name: 'raster/exact-dedup',
  bindings: { coords: 1, table: 2, slot_of: 3 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> coords: array<u32>;
@group(0) @binding(2) var<storage, read_write> table: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> slot_of: array<u32>;
${COORD_BITS}

fn same_site(i: u32, j: u32) -> bool {
  for (var a = 0u; a < DIMS; a++) {
    if (any(coord_bits(i, a) != coord_bits(j, a))) {
      return false;
    }
  }
  return true;
}

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i >= params.misc.x) {
    return;
  }
  var h = 0x9e3779b9u;
  for (var a = 0u; a < DIMS; a++) {
    let b = coord_bits(i, a);
    h = (h ^ b.x) * 0x85ebca6bu;
    h ^= h >> 13u;
    h = (h ^ b.y) * 0x85ebca6bu;
    h ^= h >> 13u;
  }
  h = (h ^ (h >> 16u)) * 0xc2b2ae35u;
  h ^= h >> 16u;
  let mask = params.misc.y;
  var s = h & mask;
  // the table has more slots than sites, so a free or matching slot comes within mask + 1 probes
  for (var probe = 0u; probe <= mask; probe++) {
    let r = atomicCompareExchangeWeak(&table[s], NONE, i);
    if (r.exchanged) {
      slot_of[i] = s;
      return;
    }
    if (r.old_value == NONE) {
      // a weak exchange may fail spuriously: try the same slot again
      continue;
    }
    if (same_site(i, r.old_value)) {
      atomicMin(&table[s], i);
      slot_of[i] = s;
      return;
    }
    s = (s + 1u) & mask;
  }
}
`,
});

/**
 * Bucket counts, one thread per site: a site that is its group's lowest index (the table's slot
 * holds it) goes to the bucket containing its f32 position, `floor((p − origin) / edge)` per axis
 * clamped into the bucket grid (size.xyz buckets, extra = origin, edge); `bucket[i]` = its bucket
 * or NONE for a duplicate; counts per bucket by atomics.
 */
export const EXACT_BUCKET_COUNT_KERNEL = defineKernel({
  name: 'raster/exact-bucket-count',
  bindings: { sites: 1, table: 2, slot_of: 3, bucket: 4, counts: 5 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read_write> table: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read> slot_of: array<u32>;
@group(0) @binding(4) var<storage, read_write> bucket: array<u32>;
@group(0) @binding(5) var<storage, read_write> counts: array<atomic<u32>>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i >= params.misc.x) {
    return;
  }
  if (atomicLoad(&table[slot_of[i]]) != i) {
    bucket[i] = NONE;
    return;
  }
  let nb = vec3i(params.size.xyz);
  let p = ${dims === 2 ? 'vec3f(sites[i], 0.0)' : 'sites[i].xyz'};
  let cell = clamp(vec3i(floor((p - params.extra.xyz) / params.extra.w)), vec3i(0), nb - 1);
  let b = u32((cell.z * nb.y + cell.y) * nb.x + cell.x);
  bucket[i] = b;
  atomicAdd(&counts[b], 1u);
}
`,
});

/**
 * Bucket scatter, one thread per site: each unique site takes a place in its bucket's range
 * (`start[b]` + an atomic cursor; the order within a bucket is arbitrary, which the search does
 * not depend on: it breaks ties by index), writing its index to `order` and its f32 position to
 * `positions` (vec4).
 */
export const EXACT_BUCKET_SCATTER_KERNEL = defineKernel({
  name: 'raster/exact-bucket-scatter',
  bindings: { sites: 1, bucket: 2, start: 3, cursor: 4, order: 5, positions: 6 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, 1)}
@group(0) @binding(2) var<storage, read> bucket: array<u32>;
@group(0) @binding(3) var<storage, read> start: array<u32>;
@group(0) @binding(4) var<storage, read_write> cursor: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> order: array<u32>;
@group(0) @binding(6) var<storage, read_write> positions: array<vec4f>;

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let i = ${LIST_INDEX};
  if (i >= params.misc.x) {
    return;
  }
  let b = bucket[i];
  if (b == NONE) {
    return;
  }
  let k = start[b] + atomicAdd(&cursor[b], 1u);
  order[k] = i;
  positions[k] = ${dims === 2 ? 'vec4f(sites[i], 0.0, 0.0)' : 'vec4f(sites[i].xyz, 0.0)'};
}
`,
});

/**
 * Near-tie candidates, one thread per listed near-tie (the first min(tie count, auxu.x)): the
 * ring search again from the pixel's centre, first for the nearest f32 distance, then listing
 * every site within twice the near-tie tolerance of it — a superset of the sites the f64
 * re-decision must compare (the f32 distances err by a quarter of the tolerance at most). Up to
 * {@link TIE_CANDIDATES} go to `candidates[t·K …]`; `candidate_count[t]` is the full count (more
 * than K: the host re-decides that pixel from its own buckets).
 */
export const EXACT_TIE_CANDIDATES_KERNEL = defineKernel({
  name: 'raster/exact-tie-candidates',
  bindings: { positions: 1, order: 2, start: 3, ties: 4, tie_count: 5, candidates: 6, candidate_count: 7 },
  source: ({ dims }: DimsConstants) => /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> order: array<u32>;
@group(0) @binding(3) var<storage, read> start: array<u32>;
@group(0) @binding(4) var<storage, read> ties: array<u32>;
@group(0) @binding(5) var<storage, read> tie_count: array<u32>;
@group(0) @binding(6) var<storage, read_write> candidates: array<u32>;
@group(0) @binding(7) var<storage, read_write> candidate_count: array<u32>;

const K: u32 = ${TIE_CANDIDATES}u;
var<private> best: u32;
var<private> best_d: f32;
var<private> listed: u32;
var<private> slot: u32;

${TOLERANCE_WGSL}
${ringSearch(
  dims,
  'nearest',
  `if (d < best_d || (d == best_d && i < best)) {
              best_d = d;
              best = i;
            }`,
)}
${ringSearch(
  dims,
  'list',
  `if (d - best_d <= 2.0 * tolerance(mc, best_d, d)) {
              if (listed < K) {
                candidates[slot * K + listed] = i;
              }
              listed++;
            }`,
)}

@compute @workgroup_size(${LIST_WORKGROUP})
fn main(${LIST_BUILTINS}) {
  let t = ${LIST_INDEX};
  if (t >= min(tie_count[0], params.auxu.x)) {
    return;
  }
  let p = ties[t];
  let plane = params.size.x * params.size.y;
  let q = vec3u(p % params.size.x, (p % plane) / params.size.x, p / plane);
  let c = centre_of(q);
  let mc = max(c.x, max(c.y, c.z));
  best = NONE;
  best_d = BIG;
  visit_rings_nearest(c, mc);
  listed = 0u;
  slot = t;
  visit_rings_list(c, mc);
  candidate_count[t] = listed;
}
`,
});
