import type { Box } from '@geoframe/core';
import { CELL_WORKGROUP_SIZE, HALFEDGE, threadEntry } from '../mesh/halfedge-wgsl.js';
import { type PlannedDispatch, planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { createStorage, readback, uploadStorage } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { runExclusive } from '../runtime/run-queue.js';
import { BufferUsage } from '../runtime/usage.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { type FixedGrid, floorLog2, GRID_VALUE_BITS, toGrid } from './fixed-grid.js';

/**
 * The grid of {@link fixedGrid} without converting the sites on the host: the exponent (from the
 * largest |coordinate| of the sites and the box) and the box words; `sites` is left empty because
 * {@link TO_GRID_KERNEL} converts the f64 sites on the device, bit for bit as `fixedGrid` does.
 * `extent`, the sites' bounding box when the caller has it, spares the scan of the sites.
 */
export function gridOfBounds(sites: Float64Array, box: Box, extent?: Box): FixedGrid {
  let max = Math.max(Math.abs(box.minX), Math.abs(box.minY), Math.abs(box.maxX), Math.abs(box.maxY));
  if (extent) {
    // the largest |coordinate| of the sites is at a corner of their bounding box
    max = Math.max(
      max,
      Math.abs(extent.minX),
      Math.abs(extent.minY),
      Math.abs(extent.maxX),
      Math.abs(extent.maxY),
    );
  } else {
    for (let k = 0; k < sites.length; k++) {
      const a = Math.abs(sites[k]);
      if (a > max) max = a;
    }
  }
  if (!Number.isFinite(max)) throw new RangeError('gridOfBounds: a coordinate is not finite');
  const exponent = max === 0 ? 0 : floorLog2(max) - (GRID_VALUE_BITS - 1);
  const words = new Uint32Array(8);
  [box.minX, box.minY, box.maxX, box.maxY].forEach((v, k) => {
    const q = toGrid(v, exponent);
    const hi = Math.floor(q / 4294967296);
    words[2 * k] = (q - hi * 4294967296) >>> 0;
    words[2 * k + 1] = hi >>> 0;
  });
  return { exponent, sites: new Uint32Array(0), box: words, inexactSites: 0 };
}

/**
 * One thread per site: its f64 coordinates (as bits) to grid values round(v / 2^e), rounding half
 * toward +∞ like `Math.round` — the host's `toGrid`, in integer operations only. The exponent
 * guarantees |v / 2^e| < 2^58, so a left shift never overflows.
 */
export const TO_GRID_KERNEL = defineKernel({
  name: 'voronoi/to-grid',
  bindings: { xy: 1, fixed: 2 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { sites: u32, exponent: i32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> xy: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> fixed: array<vec4u>;

// (lo, hi) shifted left by s < 64
fn shl64(v: vec2u, s: u32) -> vec2u {
  if (s == 0u) { return v; }
  if (s >= 32u) { return vec2u(0u, v.x << (s - 32u)); }
  return vec2u(v.x << s, (v.y << s) | (v.x >> (32u - s)));
}

// (lo, hi) shifted right by s < 64
fn shr64(v: vec2u, s: u32) -> vec2u {
  if (s == 0u) { return v; }
  if (s >= 32u) { return vec2u(v.y >> (s - 32u), 0u); }
  return vec2u((v.x >> s) | (v.y << (32u - s)), v.y >> s);
}

fn to_grid(bits: vec2u, e: i32) -> vec2u {
  let hi = bits.y;
  let biased = i32((hi >> 20u) & 0x7ffu);
  var m = vec2u(bits.x, hi & 0xfffffu);
  if (biased != 0) {
    m.y |= 0x100000u;
  }
  if (m.x == 0u && m.y == 0u) {
    return vec2u(0u, 0u);
  }
  let negative = (hi >> 31u) != 0u;
  // |v| = m · 2^(max(biased, 1) − 1075); the grid value is |v| · 2^−e
  let s = max(biased, 1) - 1075 - e;
  var q: vec2u;
  if (s >= 0) {
    q = shl64(m, u32(s));
  } else if (s <= -54) {
    q = vec2u(0u, 0u); // below half a unit (m < 2^53)
  } else {
    let k = u32(-s);
    q = shr64(m, k);
    let rest = m - shl64(q, k);
    let restHi = select(rest.y, rest.y - 1u, rest.x > m.x); // borrow of the low word
    let r = vec2u(rest.x, restHi);
    let half = shl64(vec2u(1u, 0u), k - 1u);
    // Math.round: half rounds toward +∞, i.e. up in magnitude for positives only
    let above = r.y > half.y || (r.y == half.y && r.x > half.x);
    let equal = all(r == half);
    if (above || (equal && !negative)) {
      let lo = q.x + 1u;
      q = vec2u(lo, q.y + select(0u, 1u, lo == 0u));
    }
  }
  if (negative && (q.x != 0u || q.y != 0u)) {
    let lo = ~q.x + 1u;
    q = vec2u(lo, ~q.y + select(0u, 1u, lo == 0u));
  }
  return q;
}

${threadEntry('i', 'params.sites')}
  let v = xy[i];
  fixed[i] = vec4u(to_grid(v.xy, params.exponent), to_grid(v.zw, params.exponent));
}
`,
});

/** The {@link TO_GRID_KERNEL} dispatch of `n` f64 sites in `input` to `vec4u` grid values in `fixed`. */
export function toGridDispatch(
  n: number,
  grid: FixedGrid,
  input: GPUBuffer,
  fixed: GPUBuffer,
): PlannedDispatch {
  return planned(TO_GRID_KERNEL, {
    params: [n, grid.exponent >>> 0],
    buffers: { xy: input, fixed },
    workgroups: Math.ceil(n / CELL_WORKGROUP_SIZE),
  });
}

/**
 * {@link TO_GRID_KERNEL} on its own: the grid words of `xy` (4 per site) for `grid.exponent`,
 * uploaded, converted and read back — for tests against `fixedGrid`.
 */
async function toGridGpuAlone(ctx: GpuContext, xy: Float64Array, grid: FixedGrid): Promise<Uint32Array> {
  const n = xy.length >> 1;
  const out = new Uint32Array(4 * n);
  if (n === 0) return out;
  const input = await uploadStorage(ctx, xy, 'to-grid input');
  const fixed = await createStorage(ctx, 16 * n, 'to-grid output', BufferUsage.COPY_SRC);
  try {
    const encoder = ctx.device.createCommandEncoder();
    await recordDispatches(
      ctx,
      encoder,
      'voronoi/to-grid',
      [toGridDispatch(n, grid, input, fixed)],
      ctx.limits.maxComputeWorkgroupsPerDimension,
    );
    ctx.device.queue.submit([encoder.finish()]);
    return await readback(ctx, fixed, out);
  } finally {
    input.destroy();
    fixed.destroy();
  }
}

/**
 * {@link toGridGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function toGridGpu(...args: Parameters<typeof toGridGpuAlone>): ReturnType<typeof toGridGpuAlone> {
  return runExclusive(args[0], () => toGridGpuAlone(...args));
}
