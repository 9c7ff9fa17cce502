import { encodeScan } from '../primitives/scan/index.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { BufferUsage } from '../runtime/usage.js';
import { type BucketGrid, bucketGrid } from './exact-buckets.js';
import {
  EXACT_BUCKET_COUNT_KERNEL,
  EXACT_BUCKET_SCATTER_KERNEL,
  EXACT_DEDUP_KERNEL,
  EXACT_TIE_CANDIDATES_KERNEL,
  TIE_CANDIDATES,
} from './exact-gpu-kernels.js';
import { EXACT_KERNEL, TIE_FACTOR } from './exact-kernel.js';
import type { Alloc } from './level-grid.js';
import { boundMargin, toleranceFloor } from './near-ties-cpu.js';
import type { RasterProgram } from './raster-program.js';
import { NO_SITE, type RasterSetup } from './raster-setup.js';
import { gridWorkgroups, LIST_WORKGROUP, paramBlock } from './raster-wgsl.js';
import { FILL_KERNEL } from './seed-kernels.js';

/** What an 'exact' run leaves on the GPU for the host's f64 pass over its near-ties. */
export interface ExactGpu {
  grid: BucketGrid;
  /** Near-tie pixels (the first `tiePrefix`) and their count (one u32). */
  ties: GPUBuffer;
  tieCount: GPUBuffer;
  /** Per listed near-tie: up to {@link TIE_CANDIDATES} site indices, and the full count. */
  candidates: GPUBuffer;
  candidateCount: GPUBuffer;
  /** Bucket offsets; word `buckets` is the number of unique sites. */
  start: GPUBuffer;
  buckets: number;
  tiePrefix: number;
}

/**
 * Records the 'exact' labelling with the sites bucketed on the GPU: duplicates removed (a hash
 * table of the f64 bits, lowest index kept), unique sites counted per bucket, offsets by a scan,
 * scattered into bucket order; then the ring search per pixel, and for the first `tiePrefix`
 * near-ties the candidates the host's f64 re-decision needs. Returns null (labels all NONE) for
 * no sites. The host computes only the bucket grid (one pass over the f32 positions).
 */
export async function buildExactGpu(
  ctx: GpuContext,
  program: RasterProgram,
  setup: RasterSetup,
  sites: Float64Array,
  positions: GPUBuffer,
  labels: GPUBuffer,
  make: Alloc,
  tiePrefix: number,
): Promise<ExactGpu | null> {
  const { dims, count, pixels } = setup;
  const groups = gridWorkgroups(dims, setup.width, setup.height, setup.depth);
  if (count === 0) {
    program.pass('exact').dispatch(FILL_KERNEL, {
      constants: { dims },
      params: paramBlock([setup.width, setup.height, setup.depth, pixels, pixels, NO_SITE], []),
      buffers: { out: labels },
      workgroups: { linear: Math.ceil(pixels / LIST_WORKGROUP) },
    });
    return null;
  }
  const grid = bucketGrid(setup, count);
  const [nx, ny, nz] = grid.counts;
  const buckets = nx * ny * nz;
  const { order, bucketed, start } = await recordBuckets(ctx, program, setup, sites, positions, make, grid);
  // every near-tie is listed (rarely more than the prefix: then they are read back again)
  const ties = await make.storage(pixels * 4, 'exact near-ties', BufferUsage.COPY_SRC);
  const tieCount = await make.storage(4, 'exact near-tie count', BufferUsage.COPY_SRC);
  const candidates = await make.storage(tiePrefix * TIE_CANDIDATES * 4, 'exact tie candidates');
  const candidateCount = await make.storage(tiePrefix * 4, 'exact tie candidate counts');
  const [ox, oy, oz] = grid.origin;
  const [sx, sy, sz] = setup.scale;
  const searchParams = (auxu: number) =>
    paramBlock(
      [setup.width, setup.height, setup.depth, pixels, nx, ny, nz, 0],
      [sx, sy, sz, 1, ox, oy, oz, grid.edge, boundMargin(setup, grid), toleranceFloor(setup), TIE_FACTOR, 0],
      [auxu],
    );
  const searched = { positions: bucketed, order, start };
  program.pass('exact').dispatch(EXACT_KERNEL, {
    constants: { dims },
    params: searchParams(pixels),
    buffers: {
      ...searched,
      labels,
      ties,
      tie_count: tieCount,
    },
    workgroups: { grid: groups },
  });
  program.pass('exact tie candidates').dispatch(EXACT_TIE_CANDIDATES_KERNEL, {
    constants: { dims },
    params: searchParams(tiePrefix),
    buffers: {
      ...searched,
      ties,
      tie_count: tieCount,
      candidates,
      candidate_count: candidateCount,
    },
    workgroups: { linear: Math.ceil(tiePrefix / LIST_WORKGROUP) },
  });
  return { grid, ties, tieCount, candidates, candidateCount, start, buckets, tiePrefix };
}

/**
 * The unique sites bucketed on the GPU: duplicates removed (a hash table of the f64 bits, the
 * lowest index kept), counted per bucket, offsets by a scan, scattered into bucket order.
 */
async function recordBuckets(
  ctx: GpuContext,
  program: RasterProgram,
  setup: RasterSetup,
  sites: Float64Array,
  positions: GPUBuffer,
  make: Alloc,
  grid: ReturnType<typeof bucketGrid>,
): Promise<{ order: GPUBuffer; bucketed: GPUBuffer; start: GPUBuffer }> {
  const { dims, count } = setup;
  const [nx, ny, nz] = grid.counts;
  const buckets = nx * ny * nz;
  const [ox, oy, oz] = grid.origin;
  let tableSize = 2;
  while (tableSize < 2 * count) tableSize *= 2;
  const coords = await make.upload(
    new Uint32Array(sites.buffer, sites.byteOffset, sites.length * 2),
    'exact coords',
  );
  const table = await make.storage(tableSize * 4, 'exact dedup table');
  const slotOf = await make.storage(count * 4, 'exact dedup slots');
  const bucketOf = await make.storage(count * 4, 'exact site buckets');
  const counts = await make.storage((buckets + 1) * 4, 'exact bucket counts');
  const start = await make.storage((buckets + 1) * 4, 'exact bucket offsets', BufferUsage.COPY_SRC);
  const cursor = await make.storage(buckets * 4, 'exact bucket cursors');
  const order = await make.storage(count * 4, 'exact site order');
  const bucketed = await make.storage(count * 16, 'exact site positions');
  const siteWorkgroups = { linear: Math.ceil(count / LIST_WORKGROUP) };
  const bucketParams = paramBlock(
    [nx, ny, nz, buckets, count, tableSize - 1],
    [0, 0, 0, 0, ox, oy, oz, grid.edge],
  );
  program
    .pass('exact buckets')
    .dispatch(FILL_KERNEL, {
      constants: { dims },
      params: paramBlock([0, 0, 0, 0, tableSize, NO_SITE], []),
      buffers: { out: table },
      workgroups: { linear: Math.ceil(tableSize / LIST_WORKGROUP) },
    })
    .dispatch(EXACT_DEDUP_KERNEL, {
      constants: { dims },
      params: bucketParams,
      buffers: {
        coords,
        table,
        slot_of: slotOf,
      },
      workgroups: siteWorkgroups,
    })
    .dispatch(EXACT_BUCKET_COUNT_KERNEL, {
      constants: { dims },
      params: bucketParams,
      buffers: {
        sites: positions,
        table,
        slot_of: slotOf,
        bucket: bucketOf,
        counts,
      },
      workgroups: siteWorkgroups,
    });
  program.encode((encoder) => encodeScan(ctx, encoder, { input: counts, output: start, count: buckets + 1 }));
  program.pass('exact scatter').dispatch(EXACT_BUCKET_SCATTER_KERNEL, {
    constants: { dims },
    params: bucketParams,
    buffers: {
      sites: positions,
      bucket: bucketOf,
      start,
      cursor,
      order,
      positions: bucketed,
    },
    workgroups: siteWorkgroups,
  });
  return { order, bucketed, start };
}
