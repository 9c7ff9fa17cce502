import { defineKernel } from '../../runtime/pipeline-cache.js';

/** Constants of the histogram kernels. */
export interface HistogramConstants {
  [key: string]: number;
  workgroupSize: number;
  /** Keys per thread (a workgroup covers `workgroupSize * items` keys). */
  items: number;
  /** Size of the workgroup-private histogram (≥ bins; 0 for the global-atomics kernel). */
  privateBins: number;
}

const HEADER = /* wgsl */ `
struct Params {
  count: u32,
  keys_base: u32,
  bins: u32,
  pad: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;
`;

/**
 * Few bins: each workgroup counts its keys (striped, `items` per thread) into a private
 * histogram in workgroup memory, then adds its non-zero bins to the global counts: one global
 * atomic per bin and workgroup instead of one per key. Keys ≥ bins are not counted.
 */
const privateSource = (c: HistogramConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;
const ITEMS: u32 = ${c.items}u;
const PRIVATE_BINS: u32 = ${c.privateBins}u;
${HEADER}
var<workgroup> local_counts: array<atomic<u32>, PRIVATE_BINS>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  let start = block * WG * ITEMS;
  if (start >= params.count) {
    return;
  }
  for (var j = 0u; j < ITEMS; j++) {
    let i = start + j * WG + lid;
    if (i < params.count) {
      let k = keys[params.keys_base + i];
      if (k < params.bins) {
        atomicAdd(&local_counts[k], 1u);
      }
    }
  }
  workgroupBarrier();
  for (var b = lid; b < params.bins; b += WG) {
    let v = atomicLoad(&local_counts[b]);
    if (v != 0u) {
      atomicAdd(&counts[b], v);
    }
  }
}
`;

/** Many bins: one global atomic per key (keys ≥ bins are not counted). */
const globalSource = (c: HistogramConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;
${HEADER}

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = (wid.y * nwg.x + wid.x) * WG + lid;
  if (i < params.count) {
    let k = keys[params.keys_base + i];
    if (k < params.bins) {
      atomicAdd(&counts[k], 1u);
    }
  }
}
`;

/** Histogram with workgroup-private counts. */
export const HISTOGRAM_PRIVATE_KERNEL = defineKernel({
  name: 'histogram/private',
  bindings: { keys: 1, counts: 2 },
  source: privateSource,
});

/** Histogram with global atomics only. */
export const HISTOGRAM_GLOBAL_KERNEL = defineKernel({
  name: 'histogram/global',
  bindings: { keys: 1, counts: 2 },
  source: globalSource,
});

/** Constants of the count-scatter kernels. */
export interface CountScatterConstants {
  [key: string]: number;
  workgroupSize: number;
}

/**
 * Count-scatter pass 1: `matrix[key * blocks + block] += 1` for every key, one block per
 * workgroup of `WG` keys, so that an exclusive scan of the matrix (bin-major) gives each
 * (bin, block) pair its first output slot.
 */
const blockCountsSource = (c: CountScatterConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;
struct Params {
  count: u32,
  blocks: u32,
  bins: u32,
  pad: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> matrix: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  let i = block * WG + lid;
  if (i < params.count) {
    atomicAdd(&matrix[keys[i] * params.blocks + block], 1u);
  }
}
`;

/**
 * Count-scatter pass 2: element `i` goes to `slots[key * blocks + block]` plus the number of
 * earlier elements of its block with the same key (counted from the block's keys in workgroup
 * memory), so elements of one key keep their input order. Also writes `offsets[b]` (the first
 * slot of bin `b`, `b ≤ bins`) from the scanned matrix.
 */
const scatterSource = (c: CountScatterConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;
struct Params {
  count: u32,
  blocks: u32,
  bins: u32,
  pad: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read> slots: array<u32>;
@group(0) @binding(3) var<storage, read_write> order: array<u32>;
@group(0) @binding(4) var<storage, read_write> offsets: array<u32>;
var<workgroup> block_keys: array<u32, WG>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  if (block >= params.blocks) {
    return;
  }
  let i = block * WG + lid;
  var key = 0xffffffffu;
  if (i < params.count) {
    key = keys[i];
  }
  block_keys[lid] = key;
  workgroupBarrier();
  if (i < params.count) {
    var rank = 0u;
    for (var j = 0u; j < lid; j++) {
      rank += select(0u, 1u, block_keys[j] == key);
    }
    order[slots[key * params.blocks + block] + rank] = i;
  }
  // offsets: bins + 1 values spread over all threads of the grid
  for (var b = i; b <= params.bins; b += params.blocks * WG) {
    offsets[b] = slots[b * params.blocks];
  }
}
`;

/** Count-scatter pass 1: per-block counts of each key. */
export const COUNT_SCATTER_COUNTS_KERNEL = defineKernel({
  name: 'count-scatter/counts',
  bindings: { keys: 1, matrix: 2 },
  source: blockCountsSource,
});

/** Count-scatter pass 2: stable scatter and bin offsets. */
export const COUNT_SCATTER_SCATTER_KERNEL = defineKernel({
  name: 'count-scatter/scatter',
  bindings: { keys: 1, slots: 2, order: 3, offsets: 4 },
  source: scatterSource,
});
