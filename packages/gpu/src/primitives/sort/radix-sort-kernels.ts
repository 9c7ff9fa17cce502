import { defineKernel } from '../../runtime/pipeline-cache.js';

/** Threads per workgroup of every radix kernel; equals the number of buckets of an 8-bit digit. */
export const RADIX_WORKGROUP = 256;
/** Keys each downsweep/upsweep thread handles. */
export const RADIX_ITEMS = 8;
/** Keys per workgroup tile. */
export const RADIX_TILE = RADIX_WORKGROUP * RADIX_ITEMS;
/** Histogram entries each scan thread handles per round. */
const SCAN_ITEMS = 8;
/** Workgroup memory the downsweep needs with values (keys, values, 8 packed counter words per thread, 2 × 256 bases). */
export const RADIX_WORKGROUP_BYTES = (2 * RADIX_TILE + 8 * RADIX_WORKGROUP + 2 * 256 + 16) * 4;

export interface RadixConstants {
  [key: string]: boolean;
  values: boolean;
}

/**
 * Per-pass parameters: `count` keys, the digit is `bits` bits (0–8) from bit `shift`, `num_blocks`
 * tiles of {@link RADIX_TILE} keys. Tiles are numbered `workgroup_id.y * num_workgroups.x + x`.
 */
const common = /* wgsl */ `
const WG: u32 = ${RADIX_WORKGROUP}u;
const ITEMS: u32 = ${RADIX_ITEMS}u;
const TILE: u32 = ${RADIX_TILE}u;

struct Params {
  count: u32,
  shift: u32,
  bits: u32,
  num_blocks: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

fn digit_of(key: u32) -> u32 {
  return (key >> params.shift) & ((1u << params.bits) - 1u);
}
`;

/** Upsweep: each tile's digit histogram, stored digit-major: `hist[digit * num_blocks + tile]`. */
const upsweepSource = () => /* wgsl */ `
${common}
@group(0) @binding(1) var<storage, read> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> hist: array<u32>;

var<workgroup> counts: array<atomic<u32>, 256>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  if (block >= params.num_blocks) {
    return;
  }
  atomicStore(&counts[lid], 0u);
  workgroupBarrier();
  let base = block * TILE;
  for (var i = 0u; i < ITEMS; i++) {
    let idx = base + i * WG + lid;
    if (idx < params.count) {
      atomicAdd(&counts[digit_of(keys[idx])], 1u);
    }
  }
  workgroupBarrier();
  hist[lid * params.num_blocks + block] = atomicLoad(&counts[lid]);
}
`;

/**
 * Scan: workgroup `d` turns row `d` of the histogram table into exclusive prefix sums over the
 * tiles (where tile t's keys of digit d start among all keys of digit d) and writes the row's
 * total to `totals[d]`. 256 workgroups, each walking its row in rounds of WG × SCAN_ITEMS.
 */
const scanSource = () => /* wgsl */ `
${common}
const SI: u32 = ${SCAN_ITEMS}u;

@group(0) @binding(1) var<storage, read_write> hist: array<u32>;
@group(0) @binding(2) var<storage, read_write> totals: array<u32>;

var<workgroup> sums: array<u32, WG>;

// Hillis–Steele over the workgroup: (exclusive prefix of v, total). Uniform control flow only.
fn scan_exclusive(lid: u32, v: u32) -> vec2u {
  sums[lid] = v;
  workgroupBarrier();
  var acc = v;
  for (var off = 1u; off < WG; off <<= 1u) {
    var add = 0u;
    if (lid >= off) {
      add = sums[lid - off];
    }
    workgroupBarrier();
    acc += add;
    sums[lid] = acc;
    workgroupBarrier();
  }
  let total = sums[WG - 1u];
  workgroupBarrier();
  return vec2u(acc - v, total);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32) {
  let n = params.num_blocks;
  let row = wid.x * n;
  var carry = 0u;
  for (var chunk = 0u; chunk < n; chunk += WG * SI) {
    var prefix: array<u32, SI>;
    var sum = 0u;
    for (var j = 0u; j < SI; j++) {
      let i = chunk + lid * SI + j;
      var v = 0u;
      if (i < n) {
        v = hist[row + i];
      }
      prefix[j] = sum;
      sum += v;
    }
    let s = scan_exclusive(lid, sum);
    for (var j = 0u; j < SI; j++) {
      let i = chunk + lid * SI + j;
      if (i < n) {
        hist[row + i] = carry + s.x + prefix[j];
      }
    }
    carry += s.y;
  }
  if (lid == 0u) {
    totals[wid.x] = carry;
  }
}
`;

/**
 * Downsweep: loads a tile, sorts it stably by the digit in workgroup memory (two 4-bit split
 * rounds, or one for digits of ≤ 4 bits: each thread counts its ITEMS consecutive keys into 16
 * counters packed as 16-bit halves of 8 words, a workgroup scan of those words ranks every key),
 * then writes each key to `digit start among all keys + tile's offset for the digit + position
 * within the tile's run of the digit`. Consecutive threads write consecutive addresses within a
 * run. The last tile is padded with all-ones keys, which sort after every real key.
 */
const downsweepSource = (c: RadixConstants) => {
  const v = c.values;
  return /* wgsl */ `
${common}
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read> hist: array<u32>;
@group(0) @binding(3) var<storage, read> totals: array<u32>;
@group(0) @binding(4) var<storage, read_write> keys_out: array<u32>;
${
  v
    ? `@group(0) @binding(5) var<storage, read> vals_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> vals_out: array<u32>;
var<workgroup> s_vals: array<u32, TILE>;`
    : ''
}

var<workgroup> s_keys: array<u32, TILE>;
var<workgroup> s_scan: array<u32, 8u * WG>;
var<workgroup> s_base: array<u32, 256>;
var<workgroup> s_start: array<u32, 256>;
var<workgroup> s_bins: array<u32, 16>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  if (block >= params.num_blocks) {
    return;
  }
  let base = block * TILE;
  let valid = min(TILE, params.count - base);

  // where each digit's keys of this tile go: exclusive scan of the digit totals (lid = digit)
  let total = totals[lid];
  s_scan[lid] = total;
  workgroupBarrier();
  var run = total;
  for (var off = 1u; off < WG; off <<= 1u) {
    var add = 0u;
    if (lid >= off) {
      add = s_scan[lid - off];
    }
    workgroupBarrier();
    run += add;
    s_scan[lid] = run;
    workgroupBarrier();
  }
  s_base[lid] = run - total + hist[lid * params.num_blocks + block];

  for (var i = 0u; i < ITEMS; i++) {
    let p = i * WG + lid;
    if (p < valid) {
      s_keys[p] = keys_in[base + p];
      ${v ? 's_vals[p] = vals_in[base + p];' : ''}
    } else {
      s_keys[p] = 0xffffffffu;
    }
  }
  workgroupBarrier();

  var k: array<u32, ITEMS>;
  ${v ? 'var vv: array<u32, ITEMS>;' : ''}
  for (var i = 0u; i < ITEMS; i++) {
    k[i] = s_keys[lid * ITEMS + i];
    ${v ? 'vv[i] = s_vals[lid * ITEMS + i];' : ''}
  }
  let rounds = (params.bits + 3u) / 4u;
  for (var r = 0u; r < rounds; r++) {
    // explicit zeros: a loop-scoped \`var\` without initializer kept the previous iteration's
    // contents on Dawn + lavapipe
    var c = array<u32, 8>();
    var lr = array<u32, ITEMS>();
    for (var i = 0u; i < ITEMS; i++) {
      let b = (digit_of(k[i]) >> (4u * r)) & 15u;
      let s = (b & 1u) * 16u;
      lr[i] = (c[b >> 1u] >> s) & 0xffffu;
      c[b >> 1u] += 1u << s;
    }
    // inclusive scan of the packed counters over threads (no field exceeds TILE < 2^16)
    var acc = c;
    for (var j = 0u; j < 8u; j++) {
      s_scan[j * WG + lid] = acc[j];
    }
    workgroupBarrier();
    for (var off = 1u; off < WG; off <<= 1u) {
      var add = array<u32, 8>();
      if (lid >= off) {
        for (var j = 0u; j < 8u; j++) {
          add[j] = s_scan[j * WG + lid - off];
        }
      }
      workgroupBarrier();
      for (var j = 0u; j < 8u; j++) {
        acc[j] += add[j];
        s_scan[j * WG + lid] = acc[j];
      }
      workgroupBarrier();
    }
    if (lid == WG - 1u) {
      for (var b = 0u; b < 16u; b++) {
        s_bins[b] = (acc[b >> 1u] >> ((b & 1u) * 16u)) & 0xffffu;
      }
    }
    workgroupBarrier();
    var starts: array<u32, 16>;
    var sum = 0u;
    for (var b = 0u; b < 16u; b++) {
      starts[b] = sum;
      sum += s_bins[b];
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i++) {
      let b = (digit_of(k[i]) >> (4u * r)) & 15u;
      let w = b >> 1u;
      let s = (b & 1u) * 16u;
      let rank = starts[b] + (((acc[w] - c[w]) >> s) & 0xffffu) + lr[i];
      s_keys[rank] = k[i];
      ${v ? 's_vals[rank] = vv[i];' : ''}
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i++) {
      k[i] = s_keys[lid * ITEMS + i];
      ${v ? 'vv[i] = s_vals[lid * ITEMS + i];' : ''}
    }
  }

  // first position of each digit's run in the sorted tile
  for (var i = 0u; i < ITEMS; i++) {
    let p = i * WG + lid;
    let d = digit_of(s_keys[p]);
    if (p == 0u || digit_of(s_keys[p - 1u]) != d) {
      s_start[d] = p;
    }
  }
  workgroupBarrier();
  for (var i = 0u; i < ITEMS; i++) {
    let p = i * WG + lid;
    if (p < valid) {
      let key = s_keys[p];
      let dst = s_base[digit_of(key)] + p - s_start[digit_of(key)];
      keys_out[dst] = key;
      ${v ? 'vals_out[dst] = s_vals[p];' : ''}
    }
  }
}
`;
};

/** Upsweep of one radix pass: per-tile digit histograms. */
export const RADIX_UPSWEEP_KERNEL = defineKernel({
  name: 'radix-sort/upsweep',
  bindings: { keys: 1, hist: 2 },
  source: upsweepSource,
});

/** Scan of one radix pass: per-digit exclusive prefix over tiles, and digit totals. */
export const RADIX_SCAN_KERNEL = defineKernel({
  name: 'radix-sort/scan',
  bindings: { hist: 1, totals: 2 },
  source: scanSource,
});

/** Downsweep of one radix pass: stable in-tile split by digit, then scatter. */
export const RADIX_DOWNSWEEP_KERNEL = defineKernel({
  name: 'radix-sort/downsweep',
  bindings: {
    keys_in: 1,
    hist: 2,
    totals: 3,
    keys_out: 4,
    vals_in: { binding: 5, optional: true },
    vals_out: { binding: 6, optional: true },
  },
  source: downsweepSource,
});
