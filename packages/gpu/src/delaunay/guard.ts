import type { Box } from '@geoframe/core';
import type { FixedGrid } from '../exact/fixed-grid.js';
import { gridUniformWords } from '../exact/fixed-point-wgsl.js';
import { CELL_WORKGROUP_SIZE } from '../mesh/halfedge-wgsl.js';
import { planned, recordDispatches } from '../primitives/dispatch-recorder.js';
import { scratchBuffer } from '../primitives/scratch.js';
import { readback } from '../runtime/buffers.js';
import { GpuPrecisionError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { uniformBlock } from '../runtime/uniform-block.js';
import { certifyRecords, GUARD_TOLERANCE } from './grid-certificate.js';
import { GUARD_CAPACITY, GUARD_HEADER_WORDS, GUARD_KERNEL, GUARD_RECORD_WORDS } from './guard-kernel.js';

/**
 * Most sites one cell of the star search's bucket grid may hold (about one a cell on average):
 * a cell holding this many is a cluster the grid cannot resolve, whose stars would each scan the
 * whole cell (quadratic work: 10,000 sites 1e-9 wide took minutes on a software GPU), so the run
 * is declined up front (adr/0020).
 */
export const CLUSTER_LIMIT = 1024;

/** Bytes of the guard's buffer: its header and {@link GUARD_CAPACITY} records. */
export const GUARD_BYTES = 4 * (GUARD_HEADER_WORDS + GUARD_RECORD_WORDS * GUARD_CAPACITY);

/** What the guard kernel reads besides the triangulation. */
export interface GuardInput {
  /** The grid sites in the triangulation's order. */
  fixed: GPUBuffer;
  /** The caller's f64 sites (`vec4u` of bits a site), in the caller's order. */
  xy: GPUBuffer;
  /** Curve index → caller index, or null when the triangulation numbers the caller's sites. */
  order: GPUBuffer | null;
  grid: FixedGrid;
  /** The clip box when the cells' geometry is guarded too (Voronoi), else null. */
  box: Box | null;
}

/**
 * Records the guard kernel (`GUARD_KERNEL`) over `nt` triangles and `h` hull triples into
 * `encoder`; its header and records land in `out` (header cleared by the caller before the
 * cluster count, whose word it shares).
 */
export async function recordGuard(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  buffers: { triangles: GPUBuffer; halfedges: GPUBuffer; triples: GPUBuffer; out: GPUBuffer },
  input: GuardInput,
  nt: number,
  h: number,
  pass?: GPUComputePassDescriptor,
): Promise<void> {
  const tolUnits = input.box === null ? 0 : GUARD_TOLERANCE * diagonal(input.box) * 2 ** -input.grid.exponent;
  const tolBits = new Uint32Array(new Float32Array([Math.min(tolUnits, 3e38)]).buffer)[0];
  const gridUniform = uniformBlock(ctx, gridUniformWords(input.grid), 'delaunay/guard-grid');
  const plan = planned(GUARD_KERNEL, {
    params: [
      nt,
      h,
      input.grid.exponent >>> 0,
      GUARD_CAPACITY,
      input.order === null ? 0 : 1,
      input.box === null ? 0 : 1,
      tolBits,
    ],
    buffers: {
      fixed: input.fixed,
      triangles: buffers.triangles,
      halfedges: buffers.halfedges,
      triples: buffers.triples,
      xy: input.xy,
      order: input.order ?? input.xy,
      out: buffers.out,
      grid_uniforms: gridUniform,
    },
    workgroups: Math.ceil((nt + h) / CELL_WORKGROUP_SIZE),
  });
  await recordDispatches(
    ctx,
    encoder,
    'delaunay/guard',
    [plan],
    ctx.limits.maxComputeWorkgroupsPerDimension,
    pass,
  );
}

function diagonal(box: Box): number {
  return Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
}

/** The cluster check of the header read with the hull candidates: throws when a cell is full. */
export function checkClusters(header: Uint32Array, limit: number): void {
  if (header[2] > 0) {
    throw new GpuPrecisionError(
      `${header[2]} cells of the star search's bucket grid hold ${limit} or more sites (a cluster far denser than the sites' box; its stars would take quadratic time)`,
    );
  }
}

/**
 * Decides the triangles the guard kernel left uncertain (header read with the statistics): none,
 * nothing to do; more than it kept, declined; else the records come back and the host decides
 * them exactly on the input (`certifyRecords`). Throws {@link GpuPrecisionError} naming why.
 * `sites` are the caller's (records hold caller indices).
 */
export async function decideGuard(
  ctx: GpuContext,
  header: Uint32Array,
  out: GPUBuffer,
  sites: Float64Array,
  input: GuardInput,
): Promise<void> {
  const uncertain = header[0];
  if (uncertain === 0) return;
  if (uncertain > GUARD_CAPACITY) {
    throw new GpuPrecisionError(
      `${uncertain} of the ${header[1]} triangles touching sites the grid rounds are too close to a degenerate case to certify (more than ${GUARD_CAPACITY})`,
    );
  }
  const records = await readback(
    ctx,
    out,
    new Uint32Array(GUARD_RECORD_WORDS * uncertain),
    4 * GUARD_HEADER_WORDS,
  );
  const why = certifyRecords(records, uncertain, {
    sites,
    exponent: input.grid.exponent,
    box: input.box,
  });
  if (why !== null) throw new GpuPrecisionError(why);
}

/**
 * Where the guard finds the caller's f64 sites and the curve order: the caller's device buffers
 * when given (`input`), the stage's own upload when the triangulation numbers the caller's sites,
 * else both written into scratch buffers of this context.
 */
export async function guardSites(
  ctx: GpuContext,
  sites: Float64Array,
  upload: GPUBuffer | null,
  given: { xy: GPUBuffer; order: GPUBuffer } | undefined,
  order: (() => Promise<Uint32Array>) | null,
): Promise<{ xy: GPUBuffer; order: GPUBuffer | null }> {
  if (given) return given;
  if (upload !== null && order === null) return { xy: upload, order: null };
  const n = sites.length >> 1;
  const xy = scratchBuffer(ctx, 'delaunay/guard-xy', 16 * n);
  ctx.device.queue.writeBuffer(xy, 0, sites.buffer, sites.byteOffset, sites.byteLength);
  if (order === null) return { xy, order: null };
  const map = await order();
  const buffer = scratchBuffer(ctx, 'delaunay/guard-order', 4 * n);
  ctx.device.queue.writeBuffer(buffer, 0, map.buffer, map.byteOffset, map.byteLength);
  return { xy, order: buffer };
}
