import { defineKernel } from '../../runtime/pipeline-cache.js';

/** Threads per workgroup of the segmented kernels. */
export const SEGMENT_WORKGROUP = 256;
/**
 * Longest segment the in-workgroup path sorts. A workgroup owns the segments that start in its
 * tile of this many elements, so it holds at most twice as many (start in the tile, end past it).
 */
export const SEGMENT_TILE = 1024;
/** Workgroup memory of the tile kernel: keys, values and tags of 2 × SEGMENT_TILE elements. */
export const SEGMENT_WORKGROUP_BYTES = (3 * 2 * SEGMENT_TILE + 8) * 4;

/**
 * Parameters of every segmented kernel: `count` elements, `segments` segments whose bounds are
 * `offsets[0..segments]`, `groups` workgroups (or threads) of work. Shared WGSL: the segment
 * searches over `offsets`.
 */
const common = /* wgsl */ `
const WG: u32 = ${SEGMENT_WORKGROUP}u;

struct Params {
  count: u32,
  segments: u32,
  groups: u32,
  pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;

// first s in [0, n) with offsets[s] >= x, or n
fn lower_bound(x: u32, n: u32) -> u32 {
  var lo = 0u;
  var hi = n;
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (offsets[mid] < x) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// first s in [0, n) with offsets[s] > x, or n
fn upper_bound(x: u32, n: u32) -> u32 {
  var lo = 0u;
  var hi = n;
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (offsets[mid] <= x) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

fn linear_id(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.y * nwg.x + wid.x;
}
`;

/**
 * One workgroup per tile of SEGMENT_TILE elements sorts the segments that start in the tile (each
 * at most SEGMENT_TILE long) in workgroup memory. Every element gets a tag `(segment start << 12)
 * | position`; segments are contiguous, so sorting by (tag's segment start, key, position) sorts each
 * segment stably and never moves an element out of its segment. Short segments take odd–even
 * transposition rounds (as many as the longest segment, only neighbours of one segment swap, only
 * when strictly greater: stable); otherwise a bitonic network over the composite order.
 */
const tileSource = () => /* wgsl */ `
${common}
const T: u32 = ${SEGMENT_TILE}u;
const CAP: u32 = ${2 * SEGMENT_TILE}u;

@group(0) @binding(2) var<storage, read_write> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> vals: array<u32>;

var<workgroup> s_keys: array<u32, CAP>;
var<workgroup> s_vals: array<u32, CAP>;
var<workgroup> s_tags: array<u32, CAP>;
var<workgroup> s_info: array<u32, 4>;
var<workgroup> s_max: atomic<u32>;
var<workgroup> s_uniform: u32;

fn before(a: u32, b: u32) -> bool {
  let sa = s_tags[a] >> 12u;
  let sb = s_tags[b] >> 12u;
  if (sa != sb) {
    return sa < sb;
  }
  if (s_keys[a] != s_keys[b]) {
    return s_keys[a] < s_keys[b];
  }
  return (s_tags[a] & 0xfffu) < (s_tags[b] & 0xfffu);
}

fn swap(a: u32, b: u32, tags: bool) {
  let k = s_keys[a];
  s_keys[a] = s_keys[b];
  s_keys[b] = k;
  let v = s_vals[a];
  s_vals[a] = s_vals[b];
  s_vals[b] = v;
  if (tags) {
    let t = s_tags[a];
    s_tags[a] = s_tags[b];
    s_tags[b] = t;
  }
}

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let tile = linear_id(wid, nwg);
  if (tile >= params.groups) {
    return;
  }
  if (lid == 0u) {
    let s0 = lower_bound(tile * T, params.segments);
    let s1 = lower_bound((tile + 1u) * T, params.segments);
    s_info[0] = s0;
    s_info[1] = s1;
    s_info[2] = offsets[s0];
    s_info[3] = offsets[s1] - offsets[s0];
    atomicStore(&s_max, 0u);
  }
  workgroupBarrier();
  let s0 = s_info[0];
  let s1 = s_info[1];
  let lo = s_info[2];
  let n = workgroupUniformLoad(&s_info[3]);
  if (n == 0u) {
    return;
  }
  for (var p = lid; p < CAP; p += WG) {
    if (p < n) {
      s_keys[p] = keys[lo + p];
      s_vals[p] = vals[lo + p];
    } else {
      s_keys[p] = 0xffffffffu;
      s_tags[p] = 0xffffffffu;
    }
  }
  for (var s = s0 + lid; s < s1; s += WG) {
    let start = offsets[s] - lo;
    let end = offsets[s + 1u] - lo;
    atomicMax(&s_max, end - start);
    for (var p = start; p < end; p++) {
      s_tags[p] = (start << 12u) | p;
    }
  }
  workgroupBarrier();
  let longest = atomicLoad(&s_max);
  s_uniform = longest;
  var size = 2u;
  var steps = 1u;
  while (size < n) {
    size <<= 1u;
    steps += 1u;
  }
  let bitonic_rounds = steps * (steps + 1u) / 2u;
  if (workgroupUniformLoad(&s_uniform) <= bitonic_rounds) {
    let rounds = workgroupUniformLoad(&s_uniform);
    for (var r = 0u; r < rounds; r++) {
      for (var j = lid; 2u * j + 1u < n; j += WG) {
        let a = 2u * j + (r & 1u);
        let b = a + 1u;
        if (b < n && (s_tags[a] >> 12u) == (s_tags[b] >> 12u) && s_keys[a] > s_keys[b]) {
          swap(a, b, false);
        }
      }
      workgroupBarrier();
    }
  } else {
    for (var k = 2u; k <= size; k <<= 1u) {
      for (var j = k >> 1u; j > 0u; j >>= 1u) {
        for (var t = lid; t < size / 2u; t += WG) {
          let a = 2u * j * (t / j) + (t % j);
          let b = a + j;
          let ascending = (a & k) == 0u;
          if (before(b, a) == ascending) {
            swap(a, b, true);
          }
        }
        workgroupBarrier();
      }
    }
  }
  for (var p = lid; p < n; p += WG) {
    keys[lo + p] = s_keys[p];
    vals[lo + p] = s_vals[p];
  }
}
`;

/** Composite path, step 1: copies keys and values aside, sort keys = keys, sort values = indices. */
const initSource = () => /* wgsl */ `
${common}
@group(0) @binding(2) var<storage, read> keys: array<u32>;
@group(0) @binding(3) var<storage, read> vals: array<u32>;
@group(0) @binding(4) var<storage, read_write> keys_copy: array<u32>;
@group(0) @binding(5) var<storage, read_write> vals_copy: array<u32>;
@group(0) @binding(6) var<storage, read_write> sort_keys: array<u32>;
@group(0) @binding(7) var<storage, read_write> sort_index: array<u32>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  // offsets are bound for a layout shared with the other kernels; a phony read keeps the binding
  _ = offsets[0];
  let i = linear_id(wid, nwg) * WG + lid;
  if (i >= params.count) {
    return;
  }
  let k = keys[i];
  keys_copy[i] = k;
  vals_copy[i] = vals[i];
  sort_keys[i] = k;
  sort_index[i] = i;
}
`;

/**
 * Composite path, step 2 (after sorting by key): the sort key of each element becomes its
 * segment's rank: 0 before `offsets[0]`, s + 1 in segment s, segments + 1 past the last segment.
 */
const segmentIdSource = () => /* wgsl */ `
${common}
@group(0) @binding(2) var<storage, read> sort_index: array<u32>;
@group(0) @binding(3) var<storage, read_write> sort_keys: array<u32>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let p = linear_id(wid, nwg) * WG + lid;
  if (p >= params.count) {
    return;
  }
  sort_keys[p] = upper_bound(sort_index[p], params.segments + 1u);
}
`;

/**
 * Composite path, step 3 (after the stable sort by segment rank): position p inside the segments
 * takes the element `sort_index[p]` from the copies. Elements outside every segment are not written.
 */
const gatherSource = () => /* wgsl */ `
${common}
@group(0) @binding(2) var<storage, read> sort_index: array<u32>;
@group(0) @binding(3) var<storage, read> keys_copy: array<u32>;
@group(0) @binding(4) var<storage, read> vals_copy: array<u32>;
@group(0) @binding(5) var<storage, read_write> keys: array<u32>;
@group(0) @binding(6) var<storage, read_write> vals: array<u32>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let p = linear_id(wid, nwg) * WG + lid;
  if (p >= params.count || p < offsets[0] || p >= offsets[params.segments]) {
    return;
  }
  let source = sort_index[p];
  keys[p] = keys_copy[source];
  vals[p] = vals_copy[source];
}
`;

/**
 * Segmented reduce, pass 1: zero the sums (one thread per segment).
 * Pass 2: one thread per chunk of REDUCE_CHUNK elements adds its run of each segment and
 * `atomicAdd`s it to the segment's sum (u32 addition wraps, so the order does not matter).
 */
export const REDUCE_CHUNK = 32;

const reduceZeroSource = () => /* wgsl */ `
${common}
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  // offsets are bound for a layout shared with the sum kernel; a phony read keeps the binding
  _ = offsets[0];
  let s = linear_id(wid, nwg) * WG + lid;
  if (s < params.segments) {
    sums[s] = 0u;
  }
}
`;

const reduceSource = () => /* wgsl */ `
${common}
const CHUNK: u32 = ${REDUCE_CHUNK}u;
@group(0) @binding(2) var<storage, read> values: array<u32>;
@group(0) @binding(3) var<storage, read_write> sums: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let chunk = linear_id(wid, nwg) * WG + lid;
  if (chunk >= params.groups) {
    return;
  }
  let first = max(chunk * CHUNK, offsets[0]);
  let end = min(min(chunk * CHUNK + CHUNK, params.count), offsets[params.segments]);
  if (first >= end) {
    return;
  }
  var s = upper_bound(first, params.segments + 1u) - 1u;
  var segment_end = offsets[s + 1u];
  var acc = 0u;
  for (var e = first; e < end; e++) {
    while (e >= segment_end) {
      if (acc != 0u) {
        atomicAdd(&sums[s], acc);
      }
      acc = 0u;
      s += 1u;
      segment_end = offsets[s + 1u];
    }
    acc += values[e];
  }
  if (acc != 0u) {
    atomicAdd(&sums[s], acc);
  }
}
`;

/** In-workgroup sort of the segments starting in each tile. */
export const SEGMENT_TILE_KERNEL = defineKernel({
  name: 'segmented-sort/tile',
  bindings: { offsets: 1, keys: 2, vals: 3 },
  source: tileSource,
});
/** Composite path: copies and sort inputs. */
export const SEGMENT_INIT_KERNEL = defineKernel({
  name: 'segmented-sort/init',
  bindings: { offsets: 1, keys: 2, vals: 3, keys_copy: 4, vals_copy: 5, sort_keys: 6, sort_index: 7 },
  source: initSource,
});
/** Composite path: segment rank of each key-sorted element. */
export const SEGMENT_ID_KERNEL = defineKernel({
  name: 'segmented-sort/segment-id',
  bindings: { offsets: 1, sort_index: 2, sort_keys: 3 },
  source: segmentIdSource,
});
/** Composite path: gather into the caller's buffers. */
export const SEGMENT_GATHER_KERNEL = defineKernel({
  name: 'segmented-sort/gather',
  bindings: { offsets: 1, sort_index: 2, keys_copy: 3, vals_copy: 4, keys: 5, vals: 6 },
  source: gatherSource,
});
/** Segmented reduce: zero the sums. */
export const SEGMENT_REDUCE_ZERO_KERNEL = defineKernel({
  name: 'segmented-reduce/zero',
  bindings: { offsets: 1, sums: 2 },
  source: reduceZeroSource,
});
/** Segmented reduce: per-chunk runs added atomically. */
export const SEGMENT_REDUCE_KERNEL = defineKernel({
  name: 'segmented-reduce/sum',
  bindings: { offsets: 1, values: 2, sums: 3 },
  source: reduceSource,
});
