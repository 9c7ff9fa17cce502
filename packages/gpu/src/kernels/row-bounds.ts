import type { GeometryArray } from '@geoframe/core';
import { createStorage, readback, uploadStorage, uploadUniform } from '../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchThreads } from '../runtime/dispatch.js';
import { GpuValidationError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import type { KernelSpec } from '../runtime/pipeline-cache.js';
import { runExclusive } from '../runtime/run-queue.js';
import { BufferUsage } from '../runtime/usage.js';
import {
  type BoundsChunk,
  BYTES_PER_PIECE,
  BYTES_PER_ROW,
  planChunks,
  type RowPieces,
  rowCoordStarts,
  splitRows,
} from './row-bounds-plan.js';

/** Threads per workgroup of both entry points. */
const WORKGROUP_SIZE = 256;

/** Coordinates one thread walks at most; longer rows are cut into pieces of this size. */
export const DEFAULT_PIECE_SIZE = 1024;

interface RowBoundsConstants {
  [key: string]: number;
  workgroupSize: number;
}

/**
 * WGSL shared by both passes. f64 values arrive as their bit patterns, two u32 words each (low
 * word first, as WebGPU buffers are little-endian), and are compared as order-preserving 64-bit
 * keys `vec2u(hi, lo)`: a positive value gets its sign bit set, a negative one all its bits
 * flipped, so unsigned lexicographic order of keys is the numeric order of the values, with
 * -0 < 0 and ±Infinity at the ends. NaNs are skipped before keying. No float math is involved,
 * so the result is exactly one of the input values.
 *
 * A min key of all ones (and a max key of zero) means "no value": both are keys of NaNs only.
 */
const common = (c: RowBoundsConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;
const NONE_MIN = vec2u(0xffffffffu, 0xffffffffu);
const NONE_MAX = vec2u(0u, 0u);

fn is_nan(lo: u32, hi: u32) -> bool {
  return (hi & 0x7ff00000u) == 0x7ff00000u && ((hi & 0x000fffffu) | lo) != 0u;
}

fn order_key(lo: u32, hi: u32) -> vec2u {
  if ((hi & 0x80000000u) != 0u) {
    return vec2u(~hi, ~lo);
  }
  return vec2u(hi | 0x80000000u, lo);
}

fn key_less(a: vec2u, b: vec2u) -> bool {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

fn key_min(a: vec2u, b: vec2u) -> vec2u {
  return select(a, b, key_less(b, a));
}

fn key_max(a: vec2u, b: vec2u) -> vec2u {
  return select(a, b, key_less(a, b));
}

fn linear_id(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.y * nwg.x + wid.x) * WG + lid;
}
`;

/**
 * Pass 1, one thread per piece: min/max keys of the piece's coordinates (at most `pieceSize`,
 * so no thread walks a whole long row), written as 8 words: xmin, ymin, xmax, ymax keys.
 */
const piecesSource = (c: RowBoundsConstants) => /* wgsl */ `
${common(c)}
struct Params {
  piece_count: u32,
  coord_base: u32,
  stride_words: u32,
  pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> coords: array<u32>;
@group(0) @binding(2) var<storage, read> piece_start: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials: array<u32>;

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let p = linear_id(wid, nwg, lid);
  if (p >= params.piece_count) {
    return;
  }
  let start = piece_start[p] - params.coord_base;
  let end = piece_start[p + 1u] - params.coord_base;
  var xmin = NONE_MIN;
  var ymin = NONE_MIN;
  var xmax = NONE_MAX;
  var ymax = NONE_MAX;
  for (var k = start; k < end; k++) {
    let w = k * params.stride_words;
    let xlo = coords[w];
    let xhi = coords[w + 1u];
    let ylo = coords[w + 2u];
    let yhi = coords[w + 3u];
    if (!is_nan(xlo, xhi)) {
      let kx = order_key(xlo, xhi);
      xmin = key_min(xmin, kx);
      xmax = key_max(xmax, kx);
    }
    if (!is_nan(ylo, yhi)) {
      let ky = order_key(ylo, yhi);
      ymin = key_min(ymin, ky);
      ymax = key_max(ymax, ky);
    }
  }
  let o = p * 8u;
  partials[o] = xmin.x;
  partials[o + 1u] = xmin.y;
  partials[o + 2u] = ymin.x;
  partials[o + 3u] = ymin.y;
  partials[o + 4u] = xmax.x;
  partials[o + 5u] = xmax.y;
  partials[o + 6u] = ymax.x;
  partials[o + 7u] = ymax.y;
}
`;

/**
 * Pass 2, one thread per row: combines the row's pieces within this chunk and writes the four
 * f64 bit patterns (NaN for null rows and axes without values).
 */
const rowsSource = (c: RowBoundsConstants) => /* wgsl */ `
${common(c)}
struct Params {
  row_count: u32,
  first_piece: u32,
  end_piece: u32,
  validity_shift: u32,
  has_validity: u32,
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> row_piece: array<u32>;
@group(0) @binding(2) var<storage, read> partials: array<u32>;
@group(0) @binding(3) var<storage, read> validity: array<u32>;
@group(0) @binding(4) var<storage, read_write> bounds: array<u32>;

const NAN_HI: u32 = 0x7ff80000u;

// Low word first: the f64 bit pattern of the value a key was made from, or NaN for no value.
fn key_bits(key: vec2u, none: vec2u) -> vec2u {
  if (all(key == none)) {
    return vec2u(0u, NAN_HI);
  }
  if ((key.x & 0x80000000u) != 0u) {
    return vec2u(key.y, key.x & 0x7fffffffu);
  }
  return vec2u(~key.y, ~key.x);
}

fn read_key(p: u32, slot: u32) -> vec2u {
  let o = (p - params.first_piece) * 8u + slot * 2u;
  return vec2u(partials[o], partials[o + 1u]);
}

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let r = linear_id(wid, nwg, lid);
  if (r >= params.row_count) {
    return;
  }
  var xmin = NONE_MIN;
  var ymin = NONE_MIN;
  var xmax = NONE_MAX;
  var ymax = NONE_MAX;
  let bit = r + params.validity_shift;
  let valid = params.has_validity == 0u || ((validity[bit >> 5u] >> (bit & 31u)) & 1u) != 0u;
  if (valid) {
    let first = max(row_piece[r], params.first_piece);
    let end = min(row_piece[r + 1u], params.end_piece);
    for (var p = first; p < end; p++) {
      xmin = key_min(xmin, read_key(p, 0u));
      ymin = key_min(ymin, read_key(p, 1u));
      xmax = key_max(xmax, read_key(p, 2u));
      ymax = key_max(ymax, read_key(p, 3u));
    }
  }
  var out = array<vec2u, 4>(
    key_bits(xmin, NONE_MIN),
    key_bits(ymin, NONE_MIN),
    key_bits(xmax, NONE_MAX),
    key_bits(ymax, NONE_MAX),
  );
  for (var i = 0u; i < 4u; i++) {
    bounds[r * 8u + i * 2u] = out[i].x;
    bounds[r * 8u + i * 2u + 1u] = out[i].y;
  }
}
`;

/** Pass 1 of {@link computeRowBoundsGpu}: per-piece min/max keys. */
export const ROW_BOUNDS_PIECES_KERNEL: KernelSpec<RowBoundsConstants> = {
  name: 'row-bounds/pieces',
  source: piecesSource,
};

/** Pass 2 of {@link computeRowBoundsGpu}: per-row combination and f64 output. */
export const ROW_BOUNDS_ROWS_KERNEL: KernelSpec<RowBoundsConstants> = {
  name: 'row-bounds/rows',
  source: rowsSource,
};

/** Tuning knobs of {@link computeRowBoundsGpu}; the defaults suit real use, tests shrink them. */
export interface RowBoundsOptions {
  /** Coordinates one GPU thread walks at most (default {@link DEFAULT_PIECE_SIZE}). */
  pieceSize?: number;
  /** Largest buffer bound at once; default the device's `maxStorageBufferBindingSize` (and `maxBufferSize`). */
  maxBindingBytes?: number;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Per-row bounds `[xmin, ymin, xmax, ymax]` of a geometry column on the GPU, 4 values per row,
 * exactly equal to {@link computeRowBoundsCpu} (same NaN, ±Infinity and -0 semantics: NaN for null
 * and empty rows, NaN values skipped per axis, min of {0, -0} is -0), although WGSL has no f64:
 * values travel as bit patterns and are compared as order-preserving integer keys.
 *
 * How: row → coordinate ranges are composed on the CPU from the offsets (one pass over the rows;
 * about as costly as uploading the offset arrays would be) and cut into pieces of at most
 * `pieceSize` coordinates, so a row of a million vertices is a thousand threads, not one.
 * Pass 1 reduces each piece, pass 2 combines each row's pieces in one thread (a thousand for
 * that row: the longest walk of either pass is about `max(pieceSize, rowLength / pieceSize)`). When the
 * coordinates or per-row buffers exceed one binding, the work runs in chunks, each uploading
 * only its coordinate window; a row split between chunks is merged on the CPU. Z and M travel
 * with x and y (stride 3–4) but are not read.
 *
 * @throws GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError (naming the kernel);
 *   RangeError for a `pieceSize` that is not a positive integer or does not fit `maxBindingBytes`.
 */
async function computeRowBoundsGpuAlone(
  ctx: GpuContext,
  array: GeometryArray,
  options: RowBoundsOptions = {},
): Promise<Float64Array> {
  ctx.assertUsable();
  const n = array.length;
  const result = new Float64Array(n * 4);
  if (n === 0) return result;
  const pieceSize = options.pieceSize ?? DEFAULT_PIECE_SIZE;
  if (!Number.isInteger(pieceSize) || pieceSize < 1)
    throw new RangeError(`pieceSize ${pieceSize} is not a positive integer`);
  const maxBindingBytes =
    options.maxBindingBytes ?? Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  const maxPerDimension = Math.min(
    options.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  const starts = rowCoordStarts(array);
  const pieces = splitRows(starts, pieceSize);
  const chunks = planChunks(pieces, pieceSize, { maxBindingBytes, stride: array.stride });
  const constants = { workgroupSize: WORKGROUP_SIZE };
  const [piecesPipeline, rowsPipeline] = await Promise.all([
    ctx.pipelines.get(ROW_BOUNDS_PIECES_KERNEL, constants),
    ctx.pipelines.get(ROW_BOUNDS_ROWS_KERNEL, constants),
  ]);
  let previousEnd = 0;
  for (const chunk of chunks) {
    const out = result.subarray(chunk.firstRow * 4, chunk.endRow * 4);
    // the first row was split off the previous chunk: keep its partial result to merge
    const carried = chunk.firstRow < previousEnd ? out.slice(0, 4) : null;
    await runChunk(ctx, array, pieces, chunk, out, [piecesPipeline, rowsPipeline], maxPerDimension);
    if (carried) mergeBounds(out, carried);
    previousEnd = chunk.endRow;
  }
  return result;
}

async function runChunk(
  ctx: GpuContext,
  array: GeometryArray,
  { rowPiece, pieceStart }: RowPieces,
  chunk: BoundsChunk,
  out: Float64Array,
  [piecesPipeline, rowsPipeline]: [GPUComputePipeline, GPUComputePipeline],
  maxPerDimension: number,
): Promise<void> {
  const { firstRow, endRow, firstPiece, endPiece } = chunk;
  const rows = endRow - firstRow;
  const pieceCount = endPiece - firstPiece;
  const stride = array.stride;
  const coordBase = pieceStart[firstPiece];
  const window = array.coords.subarray(coordBase * stride, pieceStart[endPiece] * stride);
  const { words: validity, shift } = validityWords(array, firstRow, rows);
  const buffers: GPUBuffer[] = [];
  const track = async (buffer: Promise<GPUBuffer>) => {
    const b = await buffer;
    buffers.push(b);
    return b;
  };
  try {
    const coords = await track(uploadStorage(ctx, window, 'row-bounds coords'));
    const starts = await track(
      uploadStorage(ctx, pieceStart.subarray(firstPiece, endPiece + 1), 'row-bounds pieces'),
    );
    const partials = await track(createStorage(ctx, pieceCount * BYTES_PER_PIECE, 'row-bounds partials'));
    const rowPieces = await track(
      uploadStorage(ctx, rowPiece.subarray(firstRow, endRow + 1), 'row-bounds rows'),
    );
    const valid = await track(uploadStorage(ctx, validity ?? new Uint32Array(1), 'row-bounds validity'));
    const bounds = await track(
      createStorage(ctx, rows * BYTES_PER_ROW, 'row-bounds output', BufferUsage.COPY_SRC),
    );
    const piecesParams = await track(
      uploadUniform(ctx, new Uint32Array([pieceCount, coordBase, stride * 2, 0]), 'row-bounds pieces params'),
    );
    const rowsParams = await track(
      uploadUniform(
        ctx,
        new Uint32Array([rows, firstPiece, endPiece, shift, validity ? 1 : 0, 0, 0, 0]),
        'row-bounds rows params',
      ),
    );
    const device = ctx.device;
    device.pushErrorScope('validation');
    const encoder = device.createCommandEncoder({ label: 'row-bounds' });
    const pass = encoder.beginComputePass({ label: 'row-bounds' });
    if (pieceCount > 0) {
      pass.setPipeline(piecesPipeline);
      pass.setBindGroup(0, bindGroup(device, piecesPipeline, [piecesParams, coords, starts, partials]));
      dispatchThreads(pass, pieceCount, WORKGROUP_SIZE, maxPerDimension);
    }
    pass.setPipeline(rowsPipeline);
    pass.setBindGroup(0, bindGroup(device, rowsPipeline, [rowsParams, rowPieces, partials, valid, bounds]));
    dispatchThreads(pass, rows, WORKGROUP_SIZE, maxPerDimension);
    pass.end();
    device.queue.submit([encoder.finish()]);
    const error = await device.popErrorScope();
    if (error) throw new GpuValidationError('row-bounds', error.message);
    await readback(ctx, bounds, out);
  } finally {
    for (const b of buffers) b.destroy();
  }
}

function bindGroup(device: GPUDevice, pipeline: GPUComputePipeline, buffers: GPUBuffer[]): GPUBindGroup {
  return device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}

/**
 * The validity bits of rows `[firstRow, firstRow + rows)` as u32 words, starting at the byte that
 * holds the first bit; `shift` is that bit's position in it. Null words when all rows are valid.
 */
function validityWords(
  array: GeometryArray,
  firstRow: number,
  rows: number,
): { words: Uint32Array | null; shift: number } {
  if (array.validity === null) return { words: null, shift: 0 };
  const bit = array.validityOffset + firstRow;
  const firstByte = bit >> 3;
  const shift = bit & 7;
  const bytes = Math.ceil((shift + rows) / 8);
  const words = new Uint32Array(Math.max(1, Math.ceil(bytes / 4)));
  new Uint8Array(words.buffer).set(array.validity.subarray(firstByte, firstByte + bytes));
  return { words, shift };
}

/** Merges bounds `other` (4 values) into `into`'s first row, with the kernel's min/max semantics. */
function mergeBounds(into: Float64Array, other: Float64Array): void {
  for (let i = 0; i < 4; i++) {
    const a = into[i];
    const b = other[i];
    if (Number.isNaN(a)) into[i] = b;
    else if (!Number.isNaN(b)) into[i] = i < 2 ? Math.min(a, b) : Math.max(a, b);
  }
}

/**
 * {@link computeRowBoundsGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function computeRowBoundsGpu(
  ...args: Parameters<typeof computeRowBoundsGpuAlone>
): ReturnType<typeof computeRowBoundsGpuAlone> {
  return runExclusive(args[0], () => computeRowBoundsGpuAlone(...args));
}
