import type { FixedGrid } from '../../exact/fixed-grid.js';
import { gridUniformWords } from '../../exact/fixed-point-wgsl.js';
import { createStorage, readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchThreads } from '../../runtime/dispatch.js';
import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { bindingEntries, groupEntry } from '../../runtime/kernel-bindings.js';
import { uniformBlock } from '../../runtime/uniform-block.js';
import { BufferUsage } from '../../runtime/usage.js';
import { CIRCUMCENTER_KERNEL } from './circumcenter-kernel.js';

const WORKGROUP_SIZE = 128;

/** Buffers of {@link encodeCircumcenters}. */
export interface CircumcenterArgs {
  /** The grid's sites, 16 bytes (`vec4<u32>`) each, as `FixedGrid.sites` lays them out. */
  sites: GPUBuffer;
  /** 3 u32 site indices per triangle (delaunator's layout), from byte 0. */
  triangles: GPUBuffer;
  /** Receives one fixed point (16 bytes) per triangle. */
  cc: GPUBuffer;
  /** Receives one u32 per triangle: bit 0 inside the closed box, bit 1 far (`CC_INSIDE`, `CC_FAR`). */
  flags: GPUBuffer;
  triangleCount: number;
  /** Box and exponent (only the box matters here: the points stay on the grid). */
  grid: FixedGrid;
  /** Descriptor of the compute pass (e.g. a profiler's); default a labelled pass. */
  pass?: GPUComputePassDescriptor;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Records one compute pass computing every triangle's circumcenter on the grid, exactly rounded
 * down (`circumcenter_fixed`: the same rational gives the same bits, so cocircular triangles of a
 * lattice share their vertex bit for bit), with its inside/far flags. Nothing is submitted; the
 * parameter block is a new small uniform buffer left to garbage collection after submission.
 *
 * @throws RangeError for a bad count or more triangles than one binding holds.
 * @throws GpuValidationError naming the kernel when the pipeline cannot be made.
 */
export async function encodeCircumcenters(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: CircumcenterArgs,
): Promise<void> {
  ctx.assertUsable();
  const nt = args.triangleCount;
  if (!Number.isSafeInteger(nt) || nt < 0)
    throw new RangeError(`circumcenters: ${nt} is not a triangle count`);
  if (16 * nt > ctx.limits.maxStorageBufferBindingSize) {
    throw new RangeError(`circumcenters: ${nt} triangles exceed one storage binding`);
  }
  const pipeline = await ctx.pipelines.get(CIRCUMCENTER_KERNEL, { workgroupSize: WORKGROUP_SIZE });
  const params = new Uint32Array(16);
  params.set(gridUniformWords(args.grid), 0);
  params[12] = nt;
  const uniform = uniformBlock(ctx, params, 'voronoi/circumcenters params');
  const pass = encoder.beginComputePass(args.pass ?? { label: 'voronoi/circumcenters' });
  if (nt > 0) {
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      ctx.device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: uniform } },
          ...bindingEntries(CIRCUMCENTER_KERNEL.bindings, {
            sites: args.sites,
            triangles: { buffer: args.triangles, offset: 0, size: 12 * nt },
            cc: { buffer: args.cc, offset: 0, size: 16 * nt },
            ccFlags: { buffer: args.flags, offset: 0, size: 4 * nt },
          }).map(groupEntry),
        ],
      }),
    );
    const maxPerDimension = Math.min(
      args.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
      ctx.limits.maxComputeWorkgroupsPerDimension,
    );
    dispatchThreads(pass, nt, WORKGROUP_SIZE, maxPerDimension);
  }
  pass.end();
}

/** Result of {@link circumcentersGpu}. */
export interface CircumcentersResult {
  /** 4 words per triangle: the fixed-point circumcenter (x.lo, x.hi, y.lo, y.hi). */
  cc: Uint32Array;
  /** Per triangle: bit 0 inside the closed box, bit 1 far. */
  flags: Uint32Array;
}

/**
 * {@link encodeCircumcenters} from host arrays, for tests and small inputs: uploads the grid's
 * sites and the triangles, runs the pass, reads both outputs back.
 *
 * @throws GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError (`'voronoi/circumcenters'`).
 */
export async function circumcentersGpu(
  ctx: GpuContext,
  grid: FixedGrid,
  triangles: Uint32Array,
  options: { maxWorkgroupsPerDimension?: number } = {},
): Promise<CircumcentersResult> {
  ctx.assertUsable();
  const nt = Math.floor(triangles.length / 3);
  const result = { cc: new Uint32Array(4 * nt), flags: new Uint32Array(nt) };
  if (nt === 0) return result;
  const owned: GPUBuffer[] = [];
  try {
    const sites = await uploadStorage(ctx, grid.sites, 'circumcenters sites');
    owned.push(sites);
    const tri = await uploadStorage(ctx, triangles.subarray(0, 3 * nt), 'circumcenters triangles');
    owned.push(tri);
    const cc = await createStorage(ctx, 16 * nt, 'circumcenters cc', BufferUsage.COPY_SRC);
    owned.push(cc);
    const flags = await createStorage(ctx, 4 * nt, 'circumcenters flags', BufferUsage.COPY_SRC);
    owned.push(flags);
    const device = ctx.device;
    device.pushErrorScope('validation');
    let thrown: unknown;
    try {
      const encoder = device.createCommandEncoder({ label: 'voronoi/circumcenters' });
      await encodeCircumcenters(ctx, encoder, {
        sites,
        triangles: tri,
        cc,
        flags,
        triangleCount: nt,
        grid,
        maxWorkgroupsPerDimension: options.maxWorkgroupsPerDimension,
      });
      device.queue.submit([encoder.finish()]);
    } catch (error) {
      thrown = error;
    }
    const error = await device.popErrorScope();
    if (thrown) throw thrown;
    if (error) throw new GpuValidationError('voronoi/circumcenters', error.message);
    await readback(ctx, cc, result.cc);
    await readback(ctx, flags, result.flags);
    return result;
  } finally {
    for (const b of owned) b.destroy();
  }
}
