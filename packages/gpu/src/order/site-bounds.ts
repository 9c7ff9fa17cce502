import { planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { nonFinite } from '../primitives/hilbert/hilbert-grid.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { remapUploads, submitAndRead, uploadParts } from '../runtime/staging.js';

/** Threads of a bounds workgroup; the second pass is one workgroup over the first's partials. */
const BOUNDS_WORKGROUP_SIZE = 256;

/** Most workgroups of the first pass (each thread strides over the sites): the second pass's input. */
const BOUNDS_PARTIALS = 1024;

/** Words of one partial or of the result: min x, min y, max x, max y as 64-bit keys, then the first bad site. */
const BOUNDS_WORDS = 9;

/**
 * The f64 extremes as integers: a double's bits mapped to an unsigned 64-bit key whose order is
 * the numbers' (negatives reversed, positives above them; −0 just below +0, as `Math.min` has
 * it), so min and max select bit patterns and never round. A coordinate whose exponent bits are
 * all ones (NaN, ±∞) is reported by the lowest such site index instead.
 */
const BOUNDS_WGSL = /* wgsl */ `
const NONE: u32 = 0xffffffffu;
const WG: u32 = ${BOUNDS_WORKGROUP_SIZE}u;

struct Extremes { lo: vec4u, hi: vec4u, bad: u32 }

fn key(bits: vec2u) -> vec2u {
  if ((bits.y >> 31u) != 0u) { return ~bits; }
  return vec2u(bits.x, bits.y | 0x80000000u);
}

fn below(a: vec2u, b: vec2u) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn lower(a: vec2u, b: vec2u) -> vec2u { return select(b, a, below(a, b)); }
fn higher(a: vec2u, b: vec2u) -> vec2u { return select(a, b, below(a, b)); }

fn empty() -> Extremes {
  return Extremes(vec4u(NONE), vec4u(0u), NONE);
}

fn merge(a: Extremes, b: Extremes) -> Extremes {
  return Extremes(
    vec4u(lower(a.lo.xy, b.lo.xy), lower(a.lo.zw, b.lo.zw)),
    vec4u(higher(a.hi.xy, b.hi.xy), higher(a.hi.zw, b.hi.zw)),
    min(a.bad, b.bad),
  );
}

fn finite(bits: vec2u) -> bool {
  return ((bits.y >> 20u) & 0x7ffu) != 0x7ffu;
}

var<workgroup> shared_lo: array<vec4u, WG>;
var<workgroup> shared_hi: array<vec4u, WG>;
var<workgroup> shared_bad: array<u32, WG>;

// the workgroup's extremes, in thread 0's result
fn reduce(mine: Extremes, lid: u32) -> Extremes {
  shared_lo[lid] = mine.lo;
  shared_hi[lid] = mine.hi;
  shared_bad[lid] = mine.bad;
  workgroupBarrier();
  for (var half = WG / 2u; half > 0u; half /= 2u) {
    if (lid < half) {
      let m = merge(
        Extremes(shared_lo[lid], shared_hi[lid], shared_bad[lid]),
        Extremes(shared_lo[lid + half], shared_hi[lid + half], shared_bad[lid + half]),
      );
      shared_lo[lid] = m.lo;
      shared_hi[lid] = m.hi;
      shared_bad[lid] = m.bad;
    }
    workgroupBarrier();
  }
  return Extremes(shared_lo[0], shared_hi[0], shared_bad[0]);
}

fn words_of(e: Extremes) -> array<u32, ${BOUNDS_WORDS}> {
  return array<u32, ${BOUNDS_WORDS}>(e.lo.x, e.lo.y, e.lo.z, e.lo.w, e.hi.x, e.hi.y, e.hi.z, e.hi.w, e.bad);
}
`;

/** First pass: each workgroup's extremes of the sites it strides over, into `partials`. */
const SITE_BOUNDS_KERNEL = defineKernel({
  name: 'voronoi/site-bounds',
  bindings: { xy: 1, partials: 2 },
  source: () => /* wgsl */ `
${BOUNDS_WGSL}
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> xy: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> partials: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  var mine = empty();
  let stride = nwg.x * WG;
  for (var i = wid.x * WG + lid; i < params.count; i += stride) {
    let v = xy[i];
    if (finite(v.xy) && finite(v.zw)) {
      let k = vec4u(key(v.xy), key(v.zw));
      mine = merge(mine, Extremes(k, k, NONE));
    } else {
      mine.bad = min(mine.bad, i);
    }
  }
  let words = words_of(reduce(mine, lid));
  if (lid == 0u) {
    for (var k = 0u; k < ${BOUNDS_WORDS}u; k++) { partials[wid.x * ${BOUNDS_WORDS}u + k] = words[k]; }
  }
}
`,
});

/** Second pass: one workgroup merges the partials into the result (the first 9 words of `out`). */
const MERGE_BOUNDS_KERNEL = defineKernel({
  name: 'voronoi/site-bounds-merge',
  bindings: { partials: 1, out: 2 },
  source: () => /* wgsl */ `
${BOUNDS_WGSL}
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> partials: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

fn load(at: u32) -> Extremes {
  return Extremes(
    vec4u(partials[at], partials[at + 1u], partials[at + 2u], partials[at + 3u]),
    vec4u(partials[at + 4u], partials[at + 5u], partials[at + 6u], partials[at + 7u]),
    partials[at + 8u],
  );
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) lid: u32) {
  var mine = empty();
  for (var p = lid; p < params.count; p += WG) {
    mine = merge(mine, load(p * ${BOUNDS_WORDS}u));
  }
  let words = words_of(reduce(mine, lid));
  if (lid == 0u) {
    for (var k = 0u; k < ${BOUNDS_WORDS}u; k++) { out[k] = words[k]; }
  }
}
`,
});

/** The sites on the device and their bounding box: what {@link sitesUp} leaves. */
export interface SitesUp {
  /** The caller's f64 sites on the device (`vec4<u32>` of bits per site), a scratch buffer. */
  input: GPUBuffer;
  /** minX, minY, maxX, maxY: the sites' extremes, exactly as `hilbertBounds` finds them. */
  bounds: [number, number, number, number];
}

/** The double whose {@link BOUNDS_WGSL} key is (lo, hi). */
function fromKey(lo: number, hi: number, view: DataView): number {
  const negative = (hi & 0x80000000) === 0;
  view.setUint32(0, negative ? ~lo >>> 0 : lo, true);
  view.setUint32(4, negative ? ~hi >>> 0 : (hi & 0x7fffffff) >>> 0, true);
  return view.getFloat64(0, true);
}

/**
 * The sites go up (f64, 16 bytes a site, through the reused staging buffer) and their bounding
 * box comes back from a GPU reduction: the host's own scan of the sites (60–70 ms at 10M sites
 * on the hosts measured, about 2.5 GB/s) becomes two passes of the GPU and a 36-byte readback.
 * The extremes are bit patterns selected, never computed, so they equal `hilbertBounds`'s.
 *
 * @throws InvalidGeometryError naming the first site with a NaN or infinite coordinate.
 */
export async function sitesUp(ctx: GpuContext, xy: Float64Array): Promise<SitesUp> {
  const n = xy.length >> 1;
  const input = scratchBuffer(ctx, 'voronoi/input-xy', 16 * Math.max(1, n));
  const partials = scratchBuffer(ctx, 'voronoi/bounds-partials', 4 * BOUNDS_WORDS * BOUNDS_PARTIALS);
  const result = scratchBuffer(ctx, 'voronoi/bounds', 4 * BOUNDS_WORDS);
  const encoder = ctx.device.createCommandEncoder({ label: 'voronoi/sites-up' });
  await uploadParts(ctx, encoder, 'voronoi/input-xy', [{ data: xy, target: input }]);
  const groups = Math.max(1, Math.min(BOUNDS_PARTIALS, Math.ceil(n / (4 * BOUNDS_WORKGROUP_SIZE))));
  await recordDispatches(
    ctx,
    encoder,
    'voronoi/site-bounds',
    [
      planned(SITE_BOUNDS_KERNEL, { params: [n], buffers: { xy: input, partials }, workgroups: groups }),
      planned(MERGE_BOUNDS_KERNEL, { params: [groups], buffers: { partials, out: result }, workgroups: 1 }),
    ],
    DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
  );
  const words = new Uint32Array(BOUNDS_WORDS);
  await submitAndRead(ctx, encoder, 'voronoi/bounds', [{ source: result, target: words }]);
  remapUploads(ctx, 'voronoi/input-xy');
  const bad = words[8];
  if (bad !== 0xffffffff) throw nonFinite(bad, xy[2 * bad], xy[2 * bad + 1]);
  const view = new DataView(new ArrayBuffer(8));
  const bounds: SitesUp['bounds'] = [
    fromKey(words[0], words[1], view),
    fromKey(words[2], words[3], view),
    fromKey(words[4], words[5], view),
    fromKey(words[6], words[7], view),
  ];
  return { input, bounds };
}
