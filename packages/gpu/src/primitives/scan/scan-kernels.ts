import { defineKernel } from '../../runtime/pipeline-cache.js';
import { scanAndStoreTile, stageAndScanTile } from './tile-scan-wgsl.js';
import {
  enableDirective,
  initRank,
  scanBuiltins,
  type WorkgroupScanConstants,
  workgroupScanWgsl,
} from './workgroup-scan.js';

/** Constants of the reduce-then-scan kernels. */
export interface ScanKernelConstants extends WorkgroupScanConstants {
  /** Elements each thread handles; a tile is `workgroupSize * items` elements. */
  items: number;
  /** Input values are mapped to 0/1 (non-zero → 1) as they are read (compaction flags). */
  nonzero: boolean;
  /** Downsweep only: input and output are one binding (`data`), read and written in place. */
  inPlace: boolean;
}

/**
 * Per-dispatch parameters, 8 u32 (one 256-byte uniform slot each): element counts and bases are
 * relative to the bound ranges; carry slots index the 4-word carry buffer (0/1 alternate between
 * segments of the top level, 2 is always zero, 3 is a sink for inner levels).
 */
const PARAMS = /* wgsl */ `
struct Params {
  count: u32,
  in_base: u32,
  out_base: u32,
  num_blocks: u32,
  carry_in: u32,
  carry_out: u32,
  inclusive: u32,
  use_prefix: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
`;

const header = (c: ScanKernelConstants) => /* wgsl */ `
${enableDirective(c)}
${workgroupScanWgsl(c)}
const ITEMS: u32 = ${c.items}u;
const TILE: u32 = WG * ITEMS;
${PARAMS}
`;

const mapped = (c: ScanKernelConstants, v: string) => (c.nonzero ? `select(0u, 1u, ${v} != 0u)` : v);

/** Pass 1: the sum of each tile (wrapping) into `sums[block]`; loads are coalesced (striped). */
const reduceSource = (c: ScanKernelConstants) => /* wgsl */ `
${header(c)}
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, ${scanBuiltins(c)}) {
  ${initRank(c)}
  let block = wid.y * nwg.x + wid.x;
  if (block >= params.num_blocks) {
    return;
  }
  let start = block * TILE;
  var sum = 0u;
  for (var j = 0u; j < ITEMS; j++) {
    let i = start + j * WG + lid;
    if (i < params.count) {
      sum += ${mapped(c, 'src[params.in_base + i]')};
    }
  }
  let s = wg_scan(sum);
  if (lid == 0u) {
    sums[block] = s.y;
  }
}
`;

/**
 * Pass 3 (and the whole scan of an array of one tile): each tile is staged in workgroup memory
 * (striped loads), every thread scans its `ITEMS` consecutive elements after the workgroup scan
 * of the threads' sums, the block's prefix (from the scanned block sums) and the segment's carry
 * are added, and the tile is written back striped. The last block writes the carry for the next
 * segment: carry in + everything this segment summed.
 */
const downsweepSource = (c: ScanKernelConstants) => {
  const bindings = c.inPlace
    ? '@group(0) @binding(1) var<storage, read_write> data: array<u32>;'
    : `@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;`;
  const load = c.inPlace ? 'data[params.in_base + i]' : 'src[params.in_base + i]';
  const store = c.inPlace ? 'data[params.out_base + i] = v;' : 'dst[params.out_base + i] = v;';
  return /* wgsl */ `
${header(c)}
${bindings}
@group(0) @binding(3) var<storage, read> prefixes: array<u32>;
@group(0) @binding(4) var<storage, read_write> carry: array<u32>;
var<workgroup> tile: array<u32, TILE>;

fn load(i: u32) -> u32 {
  return ${mapped(c, load)};
}

fn store(i: u32, v: u32) {
  ${store}
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, ${scanBuiltins(c)}) {
  ${initRank(c)}
  let block = wid.y * nwg.x + wid.x;
  if (block >= params.num_blocks) {
    return;
  }
  ${stageAndScanTile('block')}
  var block_prefix = 0u;
  if (params.use_prefix != 0u) {
    block_prefix = prefixes[block];
  }
  let carry_in = carry[params.carry_in];
  ${scanAndStoreTile('carry_in + block_prefix + s.x')}
  if (block == params.num_blocks - 1u && lid == 0u) {
    carry[params.carry_out] = carry_in + block_prefix + s.y;
  }
}
`;
};

/** Reduce pass of the reduce-then-scan: tile sums. */
export const SCAN_REDUCE_KERNEL = defineKernel({
  name: 'scan/reduce',
  bindings: { src: 1, sums: 2 },
  source: reduceSource,
});

/** Downsweep pass of the reduce-then-scan: tile scans plus block prefixes and carry. */
export const SCAN_DOWNSWEEP_KERNEL = defineKernel({
  name: 'scan/downsweep',
  bindings: {
    data: { binding: 1, optional: true },
    src: { binding: 1, optional: true },
    dst: { binding: 2, optional: true },
    prefixes: 3,
    carry: 4,
  },
  source: downsweepSource,
});
