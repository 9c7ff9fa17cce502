import { type FixedGrid, floorLog2, toGrid } from '../exact/fixed-grid.js';
import { toGridDispatch } from '../exact/to-grid-kernel.js';
import { CELL_WORKGROUP_SIZE, HALFEDGE, threadEntry } from '../mesh/halfedge-wgsl.js';
import { planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { encodeHilbertKeys } from '../primitives/hilbert/hilbert.js';
import { type HilbertBounds, hilbertBounds } from '../primitives/hilbert/hilbert-grid.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { encodeRadixSort } from '../primitives/sort/radix-sort.js';
import { readback } from '../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../runtime/dispatch.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { remapUploads, uploadParts } from '../runtime/staging.js';
import { linkWgsl } from '../runtime/wgsl-module.js';

/** `order[i] = i` for the first `params.x` elements. */
const IOTA_KERNEL = defineKernel({
  name: 'voronoi/iota',
  bindings: { order: 1 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> order: array<u32>;

${threadEntry('i', 'params.count')}
  order[i] = i;
}
`,
});

/**
 * Cells of a 2^16 × 2^16 grid over the sites' bounding box, from their fixed-point grid values:
 * (q − min) shifted right so the span fits 16 bits, packed as x | y << 16 for the Hilbert kernel.
 * Integer operations only, so the order does not depend on the device's float rounding.
 */
const QUANTIZE_KERNEL = defineKernel({
  name: 'voronoi/hilbert-quantize',
  bindings: { fixed: 1, cells: 2 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { count: u32, shift_x: u32, shift_y: u32, _pad: u32, min: vec4u }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> fixed: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> cells: array<u32>;

// (a − b) >> s for a ≥ b, i64 words, clamped to 16 bits
fn cell(a: vec2u, b: vec2u, s: u32) -> u32 {
  let lo = a.x - b.x;
  let hi = a.y - b.y - select(0u, 1u, a.x < b.x);
  var v: u32;
  if (s == 0u) {
    v = select(lo, 0xffffffffu, hi != 0u);
  } else if (s < 32u) {
    v = select((lo >> s) | (hi << (32u - s)), 0xffffffffu, (hi >> s) != 0u);
  } else {
    v = hi >> (s - 32u);
  }
  return min(v, 0xffffu);
}

${threadEntry('i', 'params.count')}
  let q = fixed[i];
  cells[i] = cell(q.xy, params.min.xy, params.shift_x) | (cell(q.zw, params.min.zw, params.shift_y) << 16u);
}
`,
});

/** What stage 1 leaves: the order on the device, and on the host on demand. */
export interface DeviceSites {
  /**
   * `order[k]`: the caller's index of the k-th site along the curve, read back on the first call
   * (the GPU stages need it on the device only; the CPU Delaunay stage and a fallback read it).
   * Call it before the next pipeline run on the context, which reuses the device buffer.
   */
  readOrder(): Promise<Uint32Array>;
  /** The same order on the device (u32 per site). */
  orderBuffer: GPUBuffer;
  /** The sites' Hilbert keys, sorted (u32 per site, `orderBuffer` in step). */
  keys: GPUBuffer;
  /** The sites on the fixed-point grid, in the caller's order (`vec4<u32>` per site). */
  fixed: GPUBuffer;
  /** Wall time of the stage's steps (ms): the sites into staging, recording, submission. */
  steps: { stage: string; ms: number }[];
}

/**
 * Stage 1 of the GPU Voronoi pipeline: the sites go up once (f64, 16 bytes a site), are put on
 * the fixed-point `grid` on the device (where they stay for the later stages) and ordered along a
 * Hilbert curve (16 bits per axis over their bounding box): cells, curve keys, a stable radix sort
 * of the site indices (sites in one cell keep their input order). Nothing comes back: the order
 * is read on demand (`readOrder`).
 * `extent` is the sites' bounding box (`hilbertBounds`, which also checks them finite) when the
 * caller has it already, and `uploaded` the buffer the sites are in on the device when the caller
 * put them there (see `sitesUp`, which also finds their box).
 *
 * Sorting makes the CPU Delaunay stage faster (delaunator walks a local neighbourhood) and every
 * later GPU stage local in memory: neighbouring triangles and sites are near each other. The
 * device buffers are the context's named scratch buffers: valid until the next pipeline run.
 */
export async function hilbertOrderGpu(
  ctx: GpuContext,
  xy: Float64Array,
  grid: FixedGrid,
  extent: HilbertBounds = hilbertBounds(xy),
  uploaded?: GPUBuffer,
): Promise<DeviceSites> {
  const n = xy.length >> 1;
  const input = uploaded ?? scratchBuffer(ctx, 'voronoi/input-xy', 16 * n);
  const fixed = scratchBuffer(ctx, 'voronoi/input-fixed', 16 * n);
  const cells = scratchBuffer(ctx, 'voronoi/hilbert-cells', 4 * n);
  const keys = scratchBuffer(ctx, 'voronoi/hilbert-keys', 4 * n);
  const values = scratchBuffer(ctx, 'voronoi/hilbert-order', 4 * n);
  const encoder = ctx.device.createCommandEncoder({ label: 'voronoi/hilbert-order' });
  let clock = performance.now();
  const steps: DeviceSites['steps'] = [];
  const lap = (stage: string) => {
    const now = performance.now();
    steps.push({ stage, ms: now - clock });
    clock = now;
  };
  if (!uploaded) {
    await uploadParts(ctx, encoder, 'voronoi/input-xy', [{ data: xy, target: input }]);
    lap('sites into staging');
  }
  // the box of the sites in grid values, and the shifts that bring each span into 16 bits
  const [minX, minY, maxX, maxY] = extent;
  const min = new Uint32Array(4);
  const shifts = [0, 0];
  [
    [minX, maxX],
    [minY, maxY],
  ].forEach(([lo, hi], axis) => {
    const qlo = toGrid(lo, grid.exponent);
    const span = toGrid(hi, grid.exponent) - qlo;
    shifts[axis] = span > 0 ? Math.max(0, floorLog2(span) + 1 - 16) : 0;
    const high = Math.floor(qlo / 4294967296);
    min[2 * axis] = (qlo - high * 4294967296) >>> 0;
    min[2 * axis + 1] = high >>> 0;
  });
  const maxPerDimension = Math.min(
    DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  const workgroups = Math.ceil(n / CELL_WORKGROUP_SIZE);
  await recordDispatches(
    ctx,
    encoder,
    'voronoi/hilbert-prepare',
    [
      toGridDispatch(n, grid, input, fixed),
      planned(QUANTIZE_KERNEL, {
        params: [n, shifts[0], shifts[1], 0, ...min],
        buffers: { fixed, cells },
        workgroups,
      }),
      planned(IOTA_KERNEL, {
        params: [n],
        buffers: { order: { buffer: values, offset: 0, size: 4 * n } },
        workgroups,
      }),
    ],
    maxPerDimension,
  );
  await encodeHilbertKeys(ctx, encoder, { bits: 16, count: n, grid: cells, keys });
  await encodeRadixSort(ctx, encoder, { keys, values, count: n, scratchPrefix: 'voronoi/hilbert-sort' });
  lap('recording keys and sort');
  // nothing comes back: the next stages queue behind the sort, and the order is read on demand
  ctx.device.queue.submit([encoder.finish()]);
  if (!uploaded) remapUploads(ctx, 'voronoi/input-xy');
  lap('submission');
  let order: Promise<Uint32Array> | null = null;
  const readOrder = () => {
    order ??= readback(ctx, values, new Uint32Array(n));
    return order;
  };
  return { readOrder, orderBuffer: values, keys, fixed, steps };
}

/** `out[k] = fixed[order[k]]`: the grid sites in curve order, gathered on the device. */
export const GATHER_SITES_KERNEL = defineKernel({
  name: 'voronoi/gather-sites',
  bindings: { fixed: 1, order: 2, curve: 3 },
  source: () => /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> fixed: array<vec4u>;
@group(0) @binding(2) var<storage, read> order: array<u32>;
@group(0) @binding(3) var<storage, read_write> curve: array<vec4u>;

${threadEntry('k', 'params.count')}
  curve[k] = fixed[order[k]];
}
`,
});

/** The sites in curve order: `sites[order[k]]` for k = 0, 1, … (interleaved xy). */
export function sitesInOrder(sites: Float64Array, order: Uint32Array): Float64Array {
  const n = order.length;
  const curve = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    curve[2 * k] = sites[2 * order[k]];
    curve[2 * k + 1] = sites[2 * order[k] + 1];
  }
  return curve;
}
