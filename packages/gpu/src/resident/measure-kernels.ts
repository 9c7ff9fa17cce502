import { defineKernel } from '../runtime/pipeline-cache.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { F64_BITS } from './f64-bits-wgsl.js';

/** Threads per workgroup of the kernels over device-resident rings. */
export const RESIDENT_WORKGROUP_SIZE = 128;

/** Ring points one thread of the total-bounds kernel reduces. */
export const TOTAL_BOUNDS_CHUNK = 256;

/** The entry point of a one-thread-per-item kernel up to its first statement (threads past `bound` return). */
export function residentEntry(index: string, bound: string): string {
  return /* wgsl */ `@compute @workgroup_size(${RESIDENT_WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let ${index} = (wid.y * nwg.x + wid.x) * ${RESIDENT_WORKGROUP_SIZE}u + lid;
  if (${index} >= ${bound}) {
    return;
  }`;
}

/** Rows and their ring offsets (binding 1) and points as f64 bits, x then y (binding 2). */
const RINGS_BINDINGS = /* wgsl */ `
struct Params { rows: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> coords: array<vec4<u32>>;
`;

/**
 * The area of each single-ring polygon, exact then rounded once: every coordinate of the ring is
 * an integer multiple of the smallest power of two 2^k among them (f64 values are), so with
 * coordinates as i64 multiples of 2^k relative to the first vertex the shoelace sum is an exact
 * integer (i128 products summed in 256 bits) and the area, |sum| · 2^(2k − 1), is rounded to the
 * nearest f64 (ties to even) once. A ring whose coordinates span more than 61 bits at that unit,
 * holds a NaN or infinity, or whose area is subnormal or overflows is counted in `declined` (its
 * area written as 0): the host answers the call instead. Rings of fewer than 3 points have area 0,
 * as on the host (`area` of @geoframe/core, which sums the same polygon in f64 and so may differ
 * from this in the last bits).
 */
export const RING_AREA_KERNEL = defineKernel({
  name: 'resident/ring-area',
  bindings: { offsets: 1, coords: 2, area: 3, declined: 4 },
  source: () => /* wgsl */ `
${linkWgsl(F64_BITS)}
${RINGS_BINDINGS}
@group(0) @binding(3) var<storage, read_write> area: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read_write> declined: array<atomic<u32>>;

const UNSET: i32 = 100000;

// the coordinate as an i64 multiple of 2^k, or ok = false when it needs more than 61 bits
var<private> ok: bool;
fn at_unit(p: F64Parts, k: i32) -> vec2<u32> {
  if (p.m.x == 0u && p.m.y == 0u) {
    return vec2<u32>(0u, 0u);
  }
  let shift = u32(p.k - k);
  if (u64_bit_length(p.m) + shift > 61u) {
    ok = false;
    return vec2<u32>(0u, 0u);
  }
  let v = u64_shl(p.m, shift);
  return select(v, i64_neg(v), p.neg);
}

fn lowest_unit(a: vec2<u32>, k: i32) -> i32 {
  let p = f64_parts(a);
  if (!p.finite) {
    ok = false;
  }
  if (p.m.x == 0u && p.m.y == 0u) {
    return k;
  }
  return min(k, p.k);
}

${residentEntry('r', 'params.rows')}
  let start = offsets[r];
  let end = offsets[r + 1u];
  area[r] = vec2<u32>(0u, 0u);
  if (end < start + 3u) {
    return;
  }
  ok = true;
  var k = UNSET;
  for (var i = start; i < end; i++) {
    let c = coords[i];
    k = lowest_unit(c.zw, lowest_unit(c.xy, k));
  }
  if (!ok) {
    atomicAdd(&declined[0], 1u);
    return;
  }
  if (k == UNSET) {
    return; // every coordinate is zero
  }
  let c0 = coords[start];
  let x0 = at_unit(f64_parts(c0.xy), k);
  let y0 = at_unit(f64_parts(c0.zw), k);
  var sum = W8(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  var px = vec2<u32>(0u, 0u);
  var py = vec2<u32>(0u, 0u);
  for (var i = start + 1u; i < end; i++) {
    let c = coords[i];
    let dx = i64_sub(at_unit(f64_parts(c.xy), k), x0);
    let dy = i64_sub(at_unit(f64_parts(c.zw), k), y0);
    // |d| < 2^62, so each product is below 2^124 and their difference fits an i128
    let cross = i128_sub(i64_mul(px, dy), i64_mul(dx, py));
    sum = w8_add(sum, w8_from_i128(cross));
    px = dx;
    py = dy;
  }
  if (!ok) {
    atomicAdd(&declined[0], 1u);
    return;
  }
  if (w8_is_neg(sum)) {
    sum = w8_neg(sum);
  }
  let rounded = w8_to_f64(sum, 2 * k - 1);
  if (rounded.z != 0u) {
    atomicAdd(&declined[0], 1u);
    return;
  }
  area[r] = rounded.xy;
}
`,
});

/**
 * Each row's bounds `[minx, miny, maxx, maxy]` as f64 bits (two vec4 a row), exact: the extremes
 * are picked by the values' total order on their bits. An empty row gives four NaN, as on the
 * host; a NaN coordinate is counted in `declined`.
 */
export const RING_BOUNDS_KERNEL = defineKernel({
  name: 'resident/ring-bounds',
  bindings: { offsets: 1, coords: 2, bounds: 3, declined: 4 },
  source: () => /* wgsl */ `
${linkWgsl(F64_BITS)}
${RINGS_BINDINGS}
@group(0) @binding(3) var<storage, read_write> bounds: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> declined: array<atomic<u32>>;

const NAN_BITS = vec4<u32>(0u, 0x7ff80000u, 0u, 0x7ff80000u);

${residentEntry('r', 'params.rows')}
  let start = offsets[r];
  let end = offsets[r + 1u];
  if (end <= start) {
    bounds[2u * r] = NAN_BITS;
    bounds[2u * r + 1u] = NAN_BITS;
    return;
  }
  var lo = coords[start];
  var hi = lo;
  var finite = true;
  for (var i = start; i < end; i++) {
    let c = coords[i];
    finite = finite && f64_parts(c.xy).finite && f64_parts(c.zw).finite;
    if (u64_less(f64_key(c.xy), f64_key(lo.xy))) { lo.x = c.x; lo.y = c.y; }
    if (u64_less(f64_key(c.zw), f64_key(lo.zw))) { lo.z = c.z; lo.w = c.w; }
    if (u64_less(f64_key(hi.xy), f64_key(c.xy))) { hi.x = c.x; hi.y = c.y; }
    if (u64_less(f64_key(hi.zw), f64_key(c.zw))) { hi.z = c.z; hi.w = c.w; }
  }
  if (!finite) {
    atomicAdd(&declined[0], 1u);
  }
  bounds[2u * r] = lo;
  bounds[2u * r + 1u] = hi;
}
`,
});

/**
 * The bounds of every ring point of the rows, in chunks of {@link TOTAL_BOUNDS_CHUNK} points a
 * thread: chunk t writes its `[minx, miny | maxx, maxy]` as f64 bits (two vec4), and the host
 * takes the extremes of the chunks. Params: first point, point count.
 */
export const TOTAL_BOUNDS_KERNEL = defineKernel({
  name: 'resident/total-bounds',
  bindings: { coords: 1, chunks: 2 },
  source: () => /* wgsl */ `
${linkWgsl(F64_BITS)}
struct Params { first: u32, points: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> coords: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> chunks: array<vec4<u32>>;

${residentEntry('t', `(params.points + ${TOTAL_BOUNDS_CHUNK - 1}u) / ${TOTAL_BOUNDS_CHUNK}u`)}
  let start = params.first + t * ${TOTAL_BOUNDS_CHUNK}u;
  let end = min(start + ${TOTAL_BOUNDS_CHUNK}u, params.first + params.points);
  var lo = coords[start];
  var hi = lo;
  for (var i = start + 1u; i < end; i++) {
    let c = coords[i];
    if (u64_less(f64_key(c.xy), f64_key(lo.xy))) { lo.x = c.x; lo.y = c.y; }
    if (u64_less(f64_key(c.zw), f64_key(lo.zw))) { lo.z = c.z; lo.w = c.w; }
    if (u64_less(f64_key(hi.xy), f64_key(c.xy))) { hi.x = c.x; hi.y = c.y; }
    if (u64_less(f64_key(hi.zw), f64_key(c.zw))) { hi.z = c.z; hi.w = c.w; }
  }
  chunks[2u * t] = lo;
  chunks[2u * t + 1u] = hi;
}
`,
});
