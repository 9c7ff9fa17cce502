import { scratchBuffer } from '../primitives/scratch.js';
import { type DevicePolygons, residentRun } from '../resident/device-polygons.js';
import { recordResident, residentDispatch } from '../resident/resident-measures.js';
import { residentTake } from '../resident/resident-take.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { remapUploads, submitForRead, type UploadPart, uploadParts } from '../runtime/staging.js';
import { BufferUsage } from '../runtime/usage.js';
import { CVT_CELL_MOMENTS_KERNEL } from './cell-moments-kernel.js';

/**
 * Square buckets over a region's box, for telling cells wholly inside the region from the others
 * on the GPU: `blocked` holds the (nx + 1)(ny + 1) prefix counts (row-major, `iy · (nx + 1) + ix`
 * counts the buckets of `[0, ix) × [0, iy)`) of buckets that a region edge touches or that lie
 * outside the region.
 */
export interface InteriorBuckets {
  minX: number;
  minY: number;
  /** A bucket's side. */
  size: number;
  nx: number;
  ny: number;
  blocked: Uint32Array;
}

/** The CVT moments of device-resident cells (see {@link cvtCellMomentsGpu}). */
export interface CvtCellMomentsGpu {
  /** Per row: 2m, 6sₓ, 6s_y and 12e about its site (m the area, s = ∫(p − site), e = ∫‖p − site‖²); 2m is NaN in the rows the host must answer. */
  raw: Float64Array;
  /** The rows whose 2m is NaN, ascending. */
  hostRows: Uint32Array;
  /** Their cells, one ring each in that order (copied from the device). */
  hostCells: { coords: Float64Array; ringOffsets: Int32Array };
}

/**
 * Uniform-density CVT moments of each cell about its site, on the device (`CVT_CELL_MOMENTS_KERNEL`:
 * exact integer sums of the ring snapped to 2^−50 of its extent, rounded once to f64). Cells
 * `cells` row i belongs to site i of `sites` (interleaved f64). With `interior`, only cells
 * wholly inside the region are answered; the others — and any row the kernel cannot answer
 * exactly — come back as rings for the host to clip and integrate (`hostRows`, `hostCells`).
 * Bytes: 16 a site and 8 a site of bucket positions up, 32 a row down, plus the host rows' rings.
 * `into` (4 per row), when given, receives the rows instead of a new array (an iterative caller
 * passes the same one each time).
 */
export async function cvtCellMomentsGpu(
  cells: DevicePolygons,
  sites: Float64Array,
  interior: InteriorBuckets | null,
  into?: Float64Array,
): Promise<CvtCellMomentsGpu> {
  const { ctx, rows } = cells;
  if (sites.length !== 2 * rows) {
    throw new RangeError(`cvtCellMomentsGpu: ${rows} cells but ${sites.length >> 1} sites`);
  }
  const raw = into?.length === 4 * rows ? into : new Float64Array(4 * rows);
  if (rows > 0) {
    await cells.use((buffers) =>
      residentRun(ctx, 'cvt cell moments', Math.max(rows, cells.points), () =>
        momentsPass(ctx, buffers, rows, sites, interior, raw),
      ),
    );
  }
  const hostRows = nanRows(raw, rows, interior !== null);
  const count = hostRows.length;
  if (count === 0)
    return { raw, hostRows, hostCells: { coords: new Float64Array(0), ringOffsets: new Int32Array(1) } };
  const taken = await residentTake(cells, hostRows);
  try {
    return { raw, hostRows, hostCells: await taken.toHost() };
  } finally {
    taken.destroy();
  }
}

/**
 * The rows whose 2m is NaN, ascending. Without interior buckets every row is answered unless the
 * kernel could not (none in practice): one scan; with them, a scan that collects as it goes.
 */
function nanRows(raw: Float64Array, rows: number, expectMany: boolean): Uint32Array {
  if (!expectMany) {
    let count = 0;
    for (let r = 0; r < rows; r++) if (Number.isNaN(raw[4 * r])) count++;
    const out = new Uint32Array(count);
    for (let r = 0, k = 0; k < count; r++) if (Number.isNaN(raw[4 * r])) out[k++] = r;
    return out;
  }
  let out = new Uint32Array(Math.max(64, rows >> 4));
  let k = 0;
  for (let r = 0; r < rows; r++) {
    if (!Number.isNaN(raw[4 * r])) continue;
    if (k === out.length) {
      const grown = new Uint32Array(2 * out.length);
      grown.set(out);
      out = grown;
    }
    out[k++] = r;
  }
  return out.subarray(0, k);
}

async function momentsPass(
  ctx: GpuContext,
  buffers: { coords: GPUBuffer; offsets: GPUBuffer },
  rows: number,
  sites: Float64Array,
  interior: InteriorBuckets | null,
  raw: Float64Array,
): Promise<void> {
  const siteBuffer = scratchBuffer(ctx, 'cvt-exact/sites', 8 * sites.length);
  const at = interior ? bucketPositions(sites, interior) : new Float32Array(2);
  const atBuffer = scratchBuffer(ctx, 'cvt-exact/at', at.byteLength);
  const blocked = interior ? interior.blocked : new Uint32Array(1);
  const { buffer: blockedBuffer, fresh } = blockedOnDevice(ctx, blocked);
  const out = scratchBuffer(ctx, 'cvt-exact/moments', 8 * raw.length);
  const upload = await recordResident(ctx, 'cvt-exact/upload', []);
  const parts: UploadPart[] = [
    { data: sites, target: siteBuffer },
    { data: at, target: atBuffer },
  ];
  if (fresh) parts.push({ data: blocked, target: blockedBuffer });
  await uploadParts(ctx, upload, 'cvt-exact/input', parts);
  ctx.device.queue.submit([upload.finish()]);
  const encoder = await recordResident(ctx, CVT_CELL_MOMENTS_KERNEL.name, [
    residentDispatch(CVT_CELL_MOMENTS_KERNEL, momentsParams(rows, interior), rows, {
      offsets: buffers.offsets,
      coords: buffers.coords,
      sites: siteBuffer,
      at: atBuffer,
      blocked: blockedBuffer,
      out,
    }),
  ]);
  const pending = await submitForRead(ctx, encoder, 'cvt-exact/moments', [
    { source: out, bytes: raw.byteLength },
  ]);
  remapUploads(ctx, 'cvt-exact/input');
  await pending.into([raw]);
}

/** Per context, the bucket counts last uploaded (a run's evaluations share them) and their buffer. */
const lastBlocked = new WeakMap<GpuContext, { blocked: Uint32Array; buffer: GPUBuffer }>();

/** The device copy of `blocked`: the last one when it is the same array, else a new one to fill. */
function blockedOnDevice(ctx: GpuContext, blocked: Uint32Array): { buffer: GPUBuffer; fresh: boolean } {
  const last = lastBlocked.get(ctx);
  if (last?.blocked === blocked) return { buffer: last.buffer, fresh: false };
  last?.buffer.destroy();
  const buffer = ctx.device.createBuffer({
    label: 'cvt-exact blocked buckets',
    size: Math.max(256, Math.ceil(blocked.byteLength / 256) * 256),
    usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
  });
  lastBlocked.set(ctx, { blocked, buffer });
  return { buffer, fresh: true };
}

/** rows, nx, ny, and the bucket side as mantissa (f32 bits, in [1, 2)) and exponent. */
function momentsParams(rows: number, interior: InteriorBuckets | null): number[] {
  if (interior === null) return [rows, 0, 0, 0, 0];
  let exponent = Math.floor(Math.log2(interior.size));
  let mantissa = interior.size / 2 ** exponent;
  if (mantissa >= 2) {
    mantissa /= 2;
    exponent++;
  } else if (mantissa < 1) {
    mantissa *= 2;
    exponent--;
  }
  const bits = new Uint32Array(new Float32Array([mantissa]).buffer)[0];
  return [rows, interior.nx, interior.ny, exponent >>> 0, bits];
}

/** Each site's position in buckets from the grid's corner, as f32 pairs. */
function bucketPositions(sites: Float64Array, g: InteriorBuckets): Float32Array {
  const at = new Float32Array(sites.length);
  for (let i = 0; i < sites.length; i += 2) {
    at[i] = (sites[i] - g.minX) / g.size;
    at[i + 1] = (sites[i + 1] - g.minY) / g.size;
  }
  return at;
}
