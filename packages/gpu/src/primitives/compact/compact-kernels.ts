import { defineKernel } from '../../runtime/pipeline-cache.js';

/** Constants of the compaction scatter kernel. */
export interface CompactConstants {
  [key: string]: number | boolean;
  workgroupSize: number;
  /** Scatter `values[i]` (true) or the index `i` (false). */
  withValues: boolean;
}

/**
 * One thread per element: where the flag is set, the element (or its index) goes to slot
 * `positions[i] - 1` (positions are the inclusive scan of the 0/1 flags, so kept elements keep
 * their order); the thread of the last element writes the kept count.
 */
const scatterSource = (c: CompactConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;
struct Params {
  count: u32,
  flags_base: u32,
  values_base: u32,
  out_base: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read> positions: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
@group(0) @binding(4) var<storage, read_write> count_out: array<u32>;
${c.withValues ? '@group(0) @binding(5) var<storage, read> values: array<u32>;' : ''}

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = (wid.y * nwg.x + wid.x) * WG + lid;
  if (i >= params.count) {
    return;
  }
  if (flags[params.flags_base + i] != 0u) {
    out[params.out_base + positions[i] - 1u] = ${c.withValues ? 'values[params.values_base + i]' : 'i'};
  }
  if (i == params.count - 1u) {
    count_out[0] = positions[i];
  }
}
`;

/** Scatter pass of compaction. */
export const COMPACT_SCATTER_KERNEL = defineKernel({
  name: 'compact/scatter',
  bindings: { flags: 1, positions: 2, out: 3, count_out: 4, values: { binding: 5, optional: true } },
  source: scatterSource,
});
