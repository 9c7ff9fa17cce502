import { recordDispatches } from '../../primitives/dispatch-recorder.js';
import { encodeHilbertKeys } from '../../primitives/hilbert/hilbert.js';
import { quantizeHilbertGrid } from '../../primitives/hilbert/hilbert-grid.js';
import { scratchBuffer } from '../../primitives/scratch.js';
import { encodeRadixSort } from '../../primitives/sort/radix-sort.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../../runtime/dispatch.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import type { KernelSpec } from '../../runtime/pipeline-cache.js';
import { remapUploads, submitAndRead, uploadParts } from '../transfer/staging.js';

const WORKGROUP_SIZE = 256;

/** `order[i] = i` for the first `params.x` elements. */
const IOTA_KERNEL: KernelSpec<Record<string, never>> = {
  name: 'voronoi/iota',
  source: () => /* wgsl */ `
struct Params { count: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> order: array<u32>;

@compute @workgroup_size(${WORKGROUP_SIZE})
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
        @builtin(local_invocation_index) lid: u32) {
  let i = (wid.y * nwg.x + wid.x) * ${WORKGROUP_SIZE}u + lid;
  if (i < params.count) {
    order[i] = i;
  }
}
`,
};

/**
 * Stage 1 of the GPU Voronoi pipeline: the sites' order along a Hilbert curve (16 bits per
 * axis over their bounding box), computed on the GPU: the CPU quantizes each site to its grid
 * cell (4 bytes a site travel instead of 16), the GPU computes the curve keys and sorts the
 * site indices by them (stable radix sort, so sites in one cell keep their input order), and
 * the order comes back. `order[k]` is the input index of the k-th site along the curve.
 *
 * Sorting makes the CPU Delaunay stage faster (delaunator walks a local neighbourhood) and every
 * later GPU stage local in memory: neighbouring triangles and sites are near each other.
 */
export async function hilbertOrderGpu(ctx: GpuContext, xy: Float64Array): Promise<Uint32Array> {
  const n = xy.length >> 1;
  const order = new Uint32Array(n);
  if (n < 2) {
    if (n === 1) order[0] = 0;
    return order;
  }
  const grid = quantizeHilbertGrid(xy, { bits: 16 });
  const gridBuffer = scratchBuffer(ctx, 'voronoi/hilbert-grid', 4 * n);
  const keys = scratchBuffer(ctx, 'voronoi/hilbert-keys', 4 * n);
  const values = scratchBuffer(ctx, 'voronoi/hilbert-order', 4 * n);
  const encoder = ctx.device.createCommandEncoder({ label: 'voronoi/hilbert-order' });
  await uploadParts(ctx, encoder, 'voronoi/hilbert-grid', [{ data: grid, target: gridBuffer }]);
  await encodeHilbertKeys(ctx, encoder, {
    bits: 16,
    count: n,
    grid: gridBuffer,
    keys,
  });
  const maxPerDimension = Math.min(
    DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  await recordDispatches(
    ctx,
    encoder,
    'voronoi/iota',
    [
      {
        kernel: IOTA_KERNEL as KernelSpec<never>,
        constants: {},
        params: [n],
        entries: [{ binding: 1, buffer: values, offset: 0, size: 4 * n }],
        workgroups: Math.ceil(n / WORKGROUP_SIZE),
      },
    ],
    maxPerDimension,
  );
  await encodeRadixSort(ctx, encoder, { keys, values, count: n, scratchPrefix: 'voronoi/hilbert-sort' });
  await submitAndRead(ctx, encoder, 'voronoi/hilbert-order', [{ source: values, target: order }]);
  remapUploads(ctx, 'voronoi/hilbert-grid');
  return order;
}
