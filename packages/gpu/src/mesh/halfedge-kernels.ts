import { planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { encodeScan } from '../primitives/scan/encode-scan.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { createStorage, readback, uploadStorage } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { defineKernel } from '../runtime/pipeline-cache.js';
import { runExclusive } from '../runtime/run-queue.js';
import { BufferUsage } from '../runtime/usage.js';
import { linkWgsl } from '../runtime/wgsl-module.js';
import { CELL_WORKGROUP_SIZE, HALFEDGE, threadEntry } from './halfedge-wgsl.js';

/*
 * The half-edge twins of a triangulation rebuilt on the device from its triangles alone, so only
 * the triangles travel (a quarter of the upload saved): every half-edge is listed under its
 * origin site (count, scan, scatter), then half-edge a→b finds its twin b→a in b's short list.
 * The result does not depend on the scatter's order: a twin is unique.
 */

const HEADER = /* wgsl */ `
${linkWgsl(HALFEDGE)}
struct Params { halfedges: u32 }
@group(0) @binding(0) var<uniform> params: Params;
`;

const MAIN = threadEntry('e', 'params.halfedges');

/** Counts the half-edges leaving each site (`counts` cleared first; one more entry for the scan). */
export const COUNT_OUTGOING_KERNEL = defineKernel({
  name: 'voronoi/count-outgoing',
  bindings: { triangles: 1, counts: 2 },
  source: () => /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> triangles: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;
${MAIN}
  atomicAdd(&counts[triangles[e]], 1u);
}
`,
});

/** Lists each half-edge under its origin, from the scanned counts (`cursor` cleared first). */
export const LIST_OUTGOING_KERNEL = defineKernel({
  name: 'voronoi/list-outgoing',
  bindings: { triangles: 1, offsets: 2, cursor: 3, outgoing: 4 },
  source: () => /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> triangles: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> cursor: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> outgoing: array<u32>;
${MAIN}
  let a = triangles[e];
  outgoing[offsets[a] + atomicAdd(&cursor[a], 1u)] = e;
}
`,
});

/** Per half-edge a→b: its twin b→a from b's list, or −1 (a hull edge). */
export const FIND_TWINS_KERNEL = defineKernel({
  name: 'voronoi/find-twins',
  bindings: { triangles: 1, offsets: 2, outgoing: 3, halfedges: 4 },
  source: () => /* wgsl */ `${HEADER}
@group(0) @binding(1) var<storage, read> triangles: array<u32>;
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read> outgoing: array<u32>;
@group(0) @binding(4) var<storage, read_write> halfedges: array<i32>;
${MAIN}
  let a = triangles[e];
  let b = triangles[next_halfedge(e)];
  var twin = -1;
  for (var p = offsets[b]; p < offsets[b + 1u]; p++) {
    let f = outgoing[p];
    if (triangles[next_halfedge(f)] == a) {
      twin = i32(f);
      break;
    }
  }
  halfedges[e] = twin;
}
`,
});

/**
 * Records the twin rebuild of `triangles` (`halfedgeCount` u32 site indices of `sites` sites) into
 * `halfedges`, with scratch buffers of this context: count, scan, list, find.
 */
export async function encodeTwins(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: {
    triangles: GPUBuffer;
    halfedges: GPUBuffer;
    sites: number;
    halfedgeCount: number;
    pass?: GPUComputePassDescriptor;
  },
): Promise<void> {
  const { sites: n, halfedgeCount: nh } = args;
  const outgoing = scratchBuffer(ctx, 'voronoi/outgoing', 4 * nh);
  const offsets = scratchBuffer(ctx, 'voronoi/outgoing-offsets', 4 * (n + 1));
  const cursor = scratchBuffer(ctx, 'voronoi/outgoing-cursor', 4 * n);
  encoder.clearBuffer(offsets, 0, 4 * (n + 1));
  encoder.clearBuffer(cursor, 0, 4 * n);
  const maxPerDimension = ctx.limits.maxComputeWorkgroupsPerDimension;
  const workgroups = Math.ceil(nh / CELL_WORKGROUP_SIZE);
  await recordDispatches(
    ctx,
    encoder,
    'voronoi/count-outgoing',
    [
      planned(COUNT_OUTGOING_KERNEL, {
        params: [nh],
        buffers: { triangles: args.triangles, counts: offsets },
        workgroups,
      }),
    ],
    maxPerDimension,
  );
  await encodeScan(ctx, encoder, { input: offsets, output: offsets, count: n + 1 });
  await recordDispatches(
    ctx,
    encoder,
    'voronoi/twins',
    [
      planned(LIST_OUTGOING_KERNEL, {
        params: [nh],
        buffers: { triangles: args.triangles, offsets, cursor, outgoing },
        workgroups,
      }),
      planned(FIND_TWINS_KERNEL, {
        params: [nh],
        buffers: { triangles: args.triangles, offsets, outgoing, halfedges: args.halfedges },
        workgroups,
      }),
    ],
    maxPerDimension,
    args.pass,
  );
}

/** {@link encodeTwins} on its own, from host triangles: the half-edge twins (for tests). */
async function twinsGpuAlone(ctx: GpuContext, triangles: Uint32Array, sites: number): Promise<Int32Array> {
  const out = new Int32Array(triangles.length);
  if (triangles.length === 0) return out;
  const input = await uploadStorage(ctx, triangles, 'twins input');
  const halfedges = await createStorage(ctx, 4 * triangles.length, 'twins output', BufferUsage.COPY_SRC);
  try {
    const encoder = ctx.device.createCommandEncoder();
    await encodeTwins(ctx, encoder, { triangles: input, halfedges, sites, halfedgeCount: triangles.length });
    ctx.device.queue.submit([encoder.finish()]);
    return await readback(ctx, halfedges, out);
  } finally {
    input.destroy();
    halfedges.destroy();
  }
}

/**
 * {@link twinsGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function twinsGpu(...args: Parameters<typeof twinsGpuAlone>): ReturnType<typeof twinsGpuAlone> {
  return runExclusive(args[0], () => twinsGpuAlone(...args));
}
