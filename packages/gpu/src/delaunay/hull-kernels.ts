import { EXACT_FIXED } from '../exact/fixed-wgsl.js';
import { DELAUNAY_PREDICATES } from '../exact/predicates/predicates-wgsl.js';
import { HALFEDGE } from '../mesh/halfedge-wgsl.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';

/*
 * The Akl–Toussaint filter of the convex hull: the extreme sites in 8 directions (E, NE, N, NW,
 * W, SW, S, SE, counter-clockwise) span a convex octagon inscribed in the hull; a site strictly
 * inside it is strictly inside the hull, so only the others go to the CPU's monotone chain.
 */

/** Threads per workgroup of the extremes reduction. */
export const EXTREMES_WORKGROUP_SIZE = 256;
/** Sites one thread of the first reduction pass folds. */
export const EXTREMES_ITEMS = 16;

const DIRECTIONS = /* wgsl */ `
// direction k (counter-clockwise from east) as (dx, dy) in {-1, 0, 1}
fn direction(k: u32) -> vec2i {
  let table = array<vec2i, 8>(vec2i(1, 0), vec2i(1, 1), vec2i(0, 1), vec2i(-1, 1),
                              vec2i(-1, 0), vec2i(-1, -1), vec2i(0, -1), vec2i(1, -1));
  return table[k];
}

// dx·x + dy·y in i64 (|x|, |y| < 2^58)
fn along(d: vec2i, p: vec4u) -> vec2u {
  var v = vec2u(0u, 0u);
  if (d.x > 0) { v = p.xy; }
  if (d.x < 0) { v = i64_neg(p.xy); }
  if (d.y > 0) { v = i64_add(v, p.zw); }
  if (d.y < 0) { v = i64_sub(v, p.zw); }
  return v;
}

// site p (index ip) is further than q in direction k: by d·p, then by the counter-clockwise
// perpendicular (so ties along an edge pick its counter-clockwise end), then by lower index
fn further(k: u32, p: vec4u, ip: u32, q: vec4u, iq: u32) -> bool {
  if (iq == NONE) { return ip != NONE; }
  if (ip == NONE) { return false; }
  let d = direction(k);
  let a = along(d, p);
  let b = along(d, q);
  if (any(a != b)) { return i64_lt(b, a); }
  let e = vec2i(-d.y, d.x);
  let c = along(e, p);
  let f = along(e, q);
  if (any(c != f)) { return i64_lt(f, c); }
  return ip < iq;
}
`;

/**
 * The 8 extreme sites, one reduction pass: workgroup w folds items [w·chunk, (w+1)·chunk) with
 * chunk = 256 · {@link EXTREMES_ITEMS} and writes 8 site indices at `out[8w ..]`. Params: items,
 * mode (0: item k is site k; 1: item k is site `candidates[k]`, NONE skipped). Bindings: 1 fixed
 * sites, 2 candidates (any buffer in mode 0), 3 out.
 */
export const EXTREMES_KERNEL = defineKernel({
  name: 'delaunay/hull-extremes',
  bindings: { sites: 1, candidates: 2, out: 3 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE, EXACT_FIXED)}
${DIRECTIONS}
struct Params { items: u32, mode: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read> candidates: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

var<workgroup> best_shared: array<u32, ${8 * EXTREMES_WORKGROUP_SIZE}>;

@compute @workgroup_size(${EXTREMES_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let w = wid.y * nwg.x + wid.x;
  if (w * ${EXTREMES_WORKGROUP_SIZE * EXTREMES_ITEMS}u >= params.items) {
    return; // surplus workgroup of a 2D grid (uniform per workgroup)
  }
  var best = array<u32, 8>(NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE);
  let first = w * ${EXTREMES_WORKGROUP_SIZE * EXTREMES_ITEMS}u + lid;
  for (var j = 0u; j < ${EXTREMES_ITEMS}u; j++) {
    let item = first + j * ${EXTREMES_WORKGROUP_SIZE}u;
    if (item >= params.items) {
      break;
    }
    let s = select(item, candidates[item], params.mode == 1u);
    if (s == NONE) {
      continue;
    }
    let p = sites[s];
    for (var k = 0u; k < 8u; k++) {
      if (best[k] == NONE || further(k, p, s, sites[best[k]], best[k])) {
        best[k] = s;
      }
    }
  }
  for (var k = 0u; k < 8u; k++) {
    best_shared[8u * lid + k] = best[k];
  }
  workgroupBarrier();
  for (var stride = ${EXTREMES_WORKGROUP_SIZE / 2}u; stride > 0u; stride >>= 1u) {
    if (lid < stride) {
      for (var k = 0u; k < 8u; k++) {
        let mine = best_shared[8u * lid + k];
        let other = best_shared[8u * (lid + stride) + k];
        if (other != NONE && (mine == NONE || further(k, sites[other], other, sites[mine], mine))) {
          best_shared[8u * lid + k] = other;
        }
      }
    }
    workgroupBarrier();
  }
  if (lid < 8u) {
    out[8u * w + lid] = best_shared[lid];
  }
}
`,
});

/**
 * Flags every site not strictly inside the octagon of the 8 extremes (1: maybe on the hull).
 * A degenerate octagon (fewer than two distinct vertices) keeps every site. Params: sites.
 * Bindings: 1 fixed sites, 2 the 8 extremes, 3 flags.
 */
export const OCTAGON_FILTER_KERNEL = defineKernel({
  name: 'delaunay/hull-octagon-filter',
  bindings: { sites: 1, extremes: 2, flags: 3 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE, EXACT_FIXED, DELAUNAY_PREDICATES)}
struct Params { sites: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sites: array<vec4u>;
@group(0) @binding(2) var<storage, read> extremes: array<u32>;
@group(0) @binding(3) var<storage, read_write> flags: array<u32>;

@compute @workgroup_size(${EXTREMES_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = thread_index(wid, nwg, lid, ${EXTREMES_WORKGROUP_SIZE}u);
  if (i >= params.sites) {
    return;
  }
  let p = sites[i];
  var inside = true;
  var edges = 0u;
  for (var k = 0u; k < 8u; k++) {
    let a = sites[extremes[k]];
    let b = sites[extremes[(k + 1u) % 8u]];
    if (fixed_equal(a, b)) {
      continue;
    }
    edges++;
    inside = inside && orient_sign(a, b, p) > 0;
  }
  flags[i] = select(1u, 0u, inside && edges >= 2u);
}
`,
});

/**
 * Scatters the hull's neighbours: `hull_nbr[site] = (prev + 1, next + 1)` for each of `count`
 * triples (site, prev, next). Params: count. Bindings: 1 triples, 2 hull neighbours (cleared).
 */
export const HULL_SCATTER_KERNEL = defineKernel({
  name: 'delaunay/hull-scatter',
  bindings: { triples: 1, hull_nbr: 2 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triples: array<u32>;
@group(0) @binding(2) var<storage, read_write> hull_nbr: array<vec2u>;

@compute @workgroup_size(${EXTREMES_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let k = thread_index(wid, nwg, lid, ${EXTREMES_WORKGROUP_SIZE}u);
  if (k < params.count) {
    hull_nbr[triples[3u * k]] = vec2u(triples[3u * k + 1u] + 1u, triples[3u * k + 2u] + 1u);
  }
}
`,
});

/**
 * The grid values of the first `params.count` hull candidates (as many as there are):
 * `out[k] = fixed[candidates[k]]`, read back with the candidates so the host's monotone chain
 * needs neither the caller's f64 sites nor their order. Bindings: 1 fixed sites, 2 candidates,
 * 3 their count, 4 out.
 */
export const HULL_GATHER_KERNEL = defineKernel({
  name: 'delaunay/hull-gather',
  bindings: { fixed: 1, candidates: 2, candidate_count: 3, out: 4 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> fixed: array<vec4u>;
@group(0) @binding(2) var<storage, read> candidates: array<u32>;
@group(0) @binding(3) var<storage, read> candidate_count: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<vec4u>;

@compute @workgroup_size(${EXTREMES_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let k = thread_index(wid, nwg, lid, ${EXTREMES_WORKGROUP_SIZE}u);
  if (k < params.count && k < candidate_count[0]) {
    out[k] = fixed[candidates[k]];
  }
}
`,
});
