import { defineKernel } from '../runtime/pipeline-cache.js';
import { gridWorkgroup, rasterHeader } from './raster-wgsl.js';
import { ringSearch } from './ring-search-wgsl.js';
import type { DimsConstants } from './seed-kernels.js';

/**
 * The f32 near-tie tolerance shared by the 'exact' kernel and its CPU re-decision, on squared
 * distances `d1s ≤ d2s` (scaled pixel units) of two candidates from a pixel centre whose largest
 * coordinate is `mc`: `32u·((mc + floor)·(√d1s + √d2s) + d1s + d2s)`, u = 2^-24. Each f32 squared
 * distance is within about `7u·mc·d + 10u·d²` of the exact one (site rounding ≤ u·(mc + d), centre
 * rounding ≤ u·mc, then subtraction, squares and sum), so this is about 4× the worst gap error;
 * `floor` adds the f64 reference's own rounding of pixel centres far from the origin.
 */
export const TIE_FACTOR = 32 * 2 ** -24;

/**
 * 'exact' labelling, one thread per pixel: searches the site buckets in growing rings (shells in
 * 3D) around the pixel's bucket, keeping the best (squared f32 distance, lower index on ties) and
 * second-best distance, and stops once every unvisited site is farther than the best by more than
 * twice the near-tie tolerance (the ring's distance bound shrunk by an absolute margin for the
 * f32 rounding of bucket borders). Writes the label; a pixel whose best two candidates are within
 * the tolerance (an f32 near-tie) is appended to `ties` (atomic counter, up to `auxu.x` entries)
 * for a re-decision in f64 on the CPU.
 *
 * Parameters: misc.xyz = buckets per axis; extra = (origin x, y, z, bucket edge); aux.x = bound
 * margin, aux.y = tolerance floor term, aux.z = tolerance factor.
 */
export const EXACT_KERNEL = defineKernel({
  name: 'raster/exact',
  bindings: { positions: 1, order: 2, start: 3, labels: 4, ties: 5, tie_count: 6 },
  source: ({ dims }: DimsConstants) => {
    const [wx, wy, wz] = gridWorkgroup(dims);
    return /* wgsl */ `
${rasterHeader(dims, null)}
@group(0) @binding(1) var<storage, read> positions: array<vec4f>;
@group(0) @binding(2) var<storage, read> order: array<u32>;
@group(0) @binding(3) var<storage, read> start: array<u32>;
@group(0) @binding(4) var<storage, read_write> labels: array<u32>;
@group(0) @binding(5) var<storage, read_write> ties: array<u32>;
@group(0) @binding(6) var<storage, read_write> tie_count: array<atomic<u32>>;

var<private> best: u32;
var<private> best_d: f32;
var<private> second_d: f32;

${TOLERANCE_WGSL}
${ringSearch(
  dims,
  'best',
  `if (d < best_d || (d == best_d && i < best)) {
              second_d = best_d;
              best_d = d;
              best = i;
            } else if (d < second_d) {
              second_d = d;
            }`,
)}

@compute @workgroup_size(${wx}, ${wy}, ${wz})
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (any(g >= params.size.xyz)) {
    return;
  }
  let c = centre_of(g);
  let mc = max(c.x, max(c.y, c.z));
  best = NONE;
  best_d = BIG;
  second_d = BIG;
  visit_rings_best(c, mc);
  let p = linear_of(g);
  labels[p] = best;
  if (second_d < BIG && second_d - best_d <= tolerance(mc, best_d, second_d)) {
    let slot = atomicAdd(&tie_count[0], 1u);
    if (slot < params.auxu.x) {
      ties[slot] = p;
    }
  }
}
`;
  },
});

/** The f32 near-tie tolerance of {@link TIE_FACTOR} in WGSL (aux.y = floor term, aux.z = factor). */
export const TOLERANCE_WGSL = /* wgsl */ `
fn tolerance(mc: f32, d1s: f32, d2s: f32) -> f32 {
  return params.aux.z * ((mc + params.aux.y) * (sqrt(d1s) + sqrt(d2s)) + d1s + d2s);
}`;
