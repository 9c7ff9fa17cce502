import type { Box } from '@geoframe/core';
import type { FixedGrid } from '../exact/fixed-grid.js';
import { toGrid } from '../exact/fixed-grid.js';
import { gridOfBounds, TO_GRID_KERNEL } from '../exact/to-grid-kernel.js';
import { CELL_WORKGROUP_SIZE } from '../mesh/halfedge-wgsl.js';
import { sitesInOrder } from '../order/hilbert-order.js';
import { type PlannedDispatch, recordDispatches } from '../primitives/dispatch-recorder.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { uploadStorage } from '../runtime/buffers.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { type BindingLayout, type BoundBuffers, bindingEntries } from '../runtime/kernel-bindings.js';
import {
  type ConstantsArg,
  type KernelConstants,
  kernelUse,
  type NamedKernel,
} from '../runtime/pipeline-cache.js';
import { BUCKET_WORKGROUP_SIZE, CELL_COUNT_KERNEL } from './bucket-kernels.js';
import type { DelaunayGpuOptions } from './delaunay-options.js';
import { CLUSTER_LIMIT, GUARD_BYTES } from './guard.js';
import { GUARD_HEADER_WORDS } from './guard-kernel.js';
import { type StarGrid, starGridOf } from './star-grid.js';

/** The sites' bounds (grid values come from them). */
export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * A grid value from its i64 words (low, high): exact, because grid values of sites are f64
 * values scaled by a power of two and rounded to an integer (53 significant bits at most).
 */
export function fromWords(lo: number, hi: number): number {
  return (hi | 0) * 4294967296 + lo;
}

export function boundsOf(xy: Float64Array): Bounds {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < xy.length; k += 2) {
    const x = xy[k];
    const y = xy[k + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      throw new RangeError(`delaunayGpu: site ${k >> 1} has coordinates (${x}, ${y})`);
    }
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** What every stage of one {@link gpuDelaunayStage} call shares. */
export interface DelaunayRun {
  ctx: GpuContext;
  sites: Float64Array;
  n: number;
  options: DelaunayGpuOptions;
  bounds: Bounds;
  /** The caller's curve order of device-resident sites (`options.order` with `options.fixed`). */
  given: DelaunayGpuOptions['order'];
  /** The order on the host, read (once) only where it is needed. */
  orderOf(): Promise<Uint32Array>;
  /** The sites in the triangulation's order (only a CPU fallback needs them all). */
  ordered(): Promise<Float64Array>;
  maxPerDimension: number;
  /** A dispatch of `threads` threads in workgroups of `size`, binding `buffers` by name. */
  plan<C extends KernelConstants, L extends BindingLayout>(
    kernel: NamedKernel<C, L>,
    params: ArrayLike<number>,
    buffers: BoundBuffers<L>,
    threads: number,
    size: number,
    ...constants: ConstantsArg<C>
  ): PlannedDispatch;
  /** The context's scratch buffer `delaunay/<name>` of at least `bytes`. */
  buffer(name: string, bytes: number): GPUBuffer;
}

/** The state of one call: its sites (at least 3), options, order and dispatch helpers. */
export function startRun(ctx: GpuContext, sites: Float64Array, options: DelaunayGpuOptions): DelaunayRun {
  const n = sites.length >> 1;
  const bounds: Bounds = options.bounds ?? boundsOf(sites);
  const given = options.fixed ? options.order : undefined;
  if (given instanceof Uint32Array && given.length !== n)
    throw new RangeError(`delaunayGpu: ${given.length} order entries for ${n} sites`);
  // the order on the host, read (once) only where it is needed
  let order: Promise<Uint32Array> | null = given instanceof Uint32Array ? Promise.resolve(given) : null;
  const orderOf = (): Promise<Uint32Array> => {
    if (order !== null) return order;
    if (typeof given !== 'function') throw new Error('unreachable: no order');
    order = given().then((o) => {
      if (o.length !== n) throw new RangeError(`delaunayGpu: ${o.length} order entries for ${n} sites`);
      return o;
    });
    return order;
  };
  // the sites in the triangulation's order (only a CPU fallback needs them all)
  const ordered = async (): Promise<Float64Array> =>
    given === undefined ? sites : sitesInOrder(sites, await orderOf());
  const maxPerDimension = ctx.limits.maxComputeWorkgroupsPerDimension;
  const plan = <C extends KernelConstants, L extends BindingLayout>(
    kernel: NamedKernel<C, L>,
    params: ArrayLike<number>,
    buffers: BoundBuffers<L>,
    threads: number,
    size: number,
    ...constants: ConstantsArg<C>
  ): PlannedDispatch => ({
    kernel: kernelUse(kernel, constants[0]),
    params,
    entries: bindingEntries(kernel.bindings, buffers),
    workgroups: Math.ceil(threads / size),
  });
  const buffer = (name: string, bytes: number): GPUBuffer => scratchBuffer(ctx, `delaunay/${name}`, bytes);

  return { ctx, sites, n, options, bounds, given, orderOf, ordered, maxPerDimension, plan, buffer };
}

/** The sites on the fixed grid, counted by star-grid cell, in the first submission's encoder. */
export interface GridStage {
  grid: FixedGrid;
  fixed: GPUBuffer;
  /** The f64 sites uploaded here (null when they came on the device). */
  upload: GPUBuffer | null;
  /** The hull's submission (grid, cell counts, extremes). */
  first: GPUCommandEncoder;
  guardOut: GPUBuffer;
  star: StarGrid;
  cells: number;
  clusterLimit: number;
  gridParams: number[];
  cellOf: GPUBuffer;
  cellStart: GPUBuffer;
}

/** Records the sites' grid values (unless given on the device) and their star-grid cell counts. */
export async function recordGrid(run: DelaunayRun): Promise<GridStage> {
  const { ctx, sites, n, options, bounds, plan, buffer, maxPerDimension } = run;
  // sites on the fixed grid
  let grid: FixedGrid;
  let fixed: GPUBuffer;
  let upload: GPUBuffer | null = null;
  const first = ctx.device.createCommandEncoder({ label: 'delaunay hull' });
  if (options.fixed) {
    grid = options.fixed.grid;
    fixed = options.fixed.sites;
  } else {
    const box: Box = bounds;
    grid = gridOfBounds(sites, box);
    fixed = buffer('fixed', 16 * n);
    const xy = await uploadStorage(ctx, sites, 'delaunay sites');
    upload = xy;
    await recordDispatches(
      ctx,
      first,
      'delaunay/to-grid',
      [plan(TO_GRID_KERNEL, [n, grid.exponent >>> 0], { xy, fixed }, n, CELL_WORKGROUP_SIZE)],
      maxPerDimension,
    );
  }

  // the guard's words: cleared, then the cluster count (word 2) goes into the hull's submission
  const guardOut = buffer('guard', GUARD_BYTES);
  first.clearBuffer(guardOut, 0, 4 * GUARD_HEADER_WORDS);
  const e = grid.exponent;
  const star: StarGrid = starGridOf(
    n,
    toGrid(bounds.minX, e),
    toGrid(bounds.minY, e),
    toGrid(bounds.maxX, e),
    toGrid(bounds.maxY, e),
    options.sitesPerCell ?? 1,
  );
  const cells = star.width * star.height;
  const clusterLimit = options.clusterLimit ?? CLUSTER_LIMIT;
  const gridParams = [n, star.width, star.shift, clusterLimit, ...star.minWords];
  const cellOf = buffer('cell-of', 4 * n);
  const cellStart = buffer('cell-start', 4 * (cells + 1));
  first.clearBuffer(cellStart, 0, 4 * (cells + 1));
  await recordDispatches(
    ctx,
    first,
    'delaunay/cell-count',
    [
      plan(
        CELL_COUNT_KERNEL,
        gridParams,
        { sites: fixed, cell_of: cellOf, counts: cellStart, guard: guardOut },
        n,
        BUCKET_WORKGROUP_SIZE,
      ),
    ],
    maxPerDimension,
  );

  return { grid, fixed, upload, first, guardOut, star, cells, clusterLimit, gridParams, cellOf, cellStart };
}
