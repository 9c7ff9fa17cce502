import { createStorage, readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchThreads } from '../../runtime/dispatch.js';
import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { bindingEntries, groupEntry } from '../../runtime/kernel-bindings.js';
import { defineKernel } from '../../runtime/pipeline-cache.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { checkBits, type HilbertBits, type HilbertOptions, quantizeHilbertGrid } from './hilbert-grid.js';

/** Threads per workgroup of the Hilbert kernel. */
const WORKGROUP_SIZE = 256;

interface HilbertConstants {
  [key: string]: number;
  bits: number;
  workgroupSize: number;
}

/**
 * One thread per point. 16 bits: reads `x | y << 16`, writes the 32-bit index. 32 bits: reads
 * `vec2u(x, y)`, writes `vec2u(hi, lo)` of the 64-bit index, 16 levels per word. The point count
 * is the length of the bound key range (bindings are sized to it), so no uniform is needed.
 * Integer operations only: the keys equal the CPU's exactly.
 */
const hilbertSource = (c: HilbertConstants) => /* wgsl */ `
const WG: u32 = ${c.workgroupSize}u;

@group(0) @binding(0) var<storage, read> grid: array<${c.bits === 16 ? 'u32' : 'vec2u'}>;
@group(0) @binding(1) var<storage, read_write> keys: array<${c.bits === 16 ? 'u32' : 'vec2u'}>;

// 16 levels from bit top down: 2 key bits per level, the quadrant digit (3 rx) ^ ry, then the
// lower bits moved into the sub-square's frame (transpose, or complement and transpose).
// p holds x, y and is left transformed for the levels below.
fn levels(p: ptr<function, vec2u>, top: u32) -> u32 {
  var x = (*p).x;
  var y = (*p).y;
  var key = 0u;
  for (var j = 0u; j < 16u; j++) {
    let k = top - j;
    let rx = (x >> k) & 1u;
    let ry = (y >> k) & 1u;
    key = (key << 2u) | ((3u * rx) ^ ry);
    let flip = select(0u, 0xffffffffu, rx == 1u && ry == 0u);
    x ^= flip;
    y ^= flip;
    let t = x;
    x = select(x, y, ry == 0u);
    y = select(y, t, ry == 0u);
  }
  *p = vec2u(x, y);
  return key;
}

@compute @workgroup_size(WG)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = (wid.y * nwg.x + wid.x) * WG + lid;
  if (i >= arrayLength(&keys)) {
    return;
  }
${
  c.bits === 16
    ? `  let g = grid[i];
  var p = vec2u(g & 0xffffu, g >> 16u);
  keys[i] = levels(&p, 15u);`
    : `  var p = grid[i];
  let hi = levels(&p, 31u);
  let lo = levels(&p, 15u);
  keys[i] = vec2u(hi, lo);`
}
}
`;

/** The Hilbert key kernel (constants: `bits`, `workgroupSize`). */
export const HILBERT_KERNEL = defineKernel({
  name: 'hilbert/keys',
  bindings: { grid: 0, keys: 1 },
  source: hilbertSource,
});

/** u32 words per point of a grid or key buffer: 1 for 16 bits, 2 for 32. */
export function hilbertWordsPerPoint(bits: HilbertBits): 1 | 2 {
  return bits === 16 ? 1 : 2;
}

/** Buffers and ranges of {@link encodeHilbertKeys}. */
export interface EncodeHilbertKeysOptions {
  bits: HilbertBits;
  /** Points to key; 0 encodes an empty pass (so a profiler's timestamps still get written). */
  count: number;
  /** Grid cells as {@link quantizeHilbertGrid} lays them out; needs `STORAGE` usage. */
  grid: GPUBuffer;
  /** Byte offset of the first point's cell in `grid` (a multiple of the storage offset alignment, 256 by default). */
  gridOffset?: number;
  /** Where the keys go, in the layout of {@link hilbertKeysCpu}; needs `STORAGE` usage. */
  keys: GPUBuffer;
  /** Byte offset in `keys` (same alignment rule). */
  keysOffset?: number;
  /** Descriptor of the compute pass, e.g. `profiler.passDescriptor('hilbert')`; default a labelled pass. */
  pass?: GPUComputePassDescriptor;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Encodes one compute pass into `encoder` that writes the Hilbert keys of `count` grid cells
 * (already quantized, e.g. by {@link quantizeHilbertGrid}) from `grid` into `keys`, for pipelines
 * whose cells are on the GPU already. Async only to get the (cached) pipeline; nothing is
 * submitted. Bindings are sized to exactly `count` points, so larger (pooled) buffers are fine.
 *
 * @throws RangeError when `count` points exceed one storage binding
 *   (`maxStorageBufferBindingSize`): split the work.
 * @throws GpuValidationError naming the kernel when the pipeline cannot be made.
 */
export async function encodeHilbertKeys(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  options: EncodeHilbertKeysOptions,
): Promise<void> {
  ctx.assertUsable();
  const bits = checkBits(options.bits);
  const pipeline = await ctx.pipelines.get(HILBERT_KERNEL, { bits, workgroupSize: WORKGROUP_SIZE });
  encodeWithPipeline(ctx, encoder, pipeline, options);
}

/** The synchronous part of {@link encodeHilbertKeys}, so callers can wrap it in an error scope. */
function encodeWithPipeline(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  pipeline: GPUComputePipeline,
  options: EncodeHilbertKeysOptions,
): void {
  const { count, bits } = options;
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${count} is not a point count`);
  const bytes = count * 4 * hilbertWordsPerPoint(bits);
  if (bytes > ctx.limits.maxStorageBufferBindingSize) {
    throw new RangeError(
      `${count} Hilbert keys need ${bytes} bytes, over the ${ctx.limits.maxStorageBufferBindingSize}-byte binding limit`,
    );
  }
  const maxPerDimension = Math.min(
    options.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  const pass = encoder.beginComputePass(options.pass ?? { label: 'hilbert/keys' });
  if (count > 0) {
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      ctx.device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: bindingEntries(HILBERT_KERNEL.bindings, {
          grid: { buffer: options.grid, offset: options.gridOffset ?? 0, size: bytes },
          keys: { buffer: options.keys, offset: options.keysOffset ?? 0, size: bytes },
        }).map(groupEntry),
      }),
    );
    dispatchThreads(pass, count, WORKGROUP_SIZE, maxPerDimension);
  }
  pass.end();
}

/** Options of {@link hilbertKeysGpu}: those of the CPU reference plus tuning knobs for tests. */
export interface HilbertGpuOptions extends HilbertOptions {
  /** Largest grid or key buffer bound at once; never more than the device's binding and buffer limits. */
  maxBindingBytes?: number;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Hilbert keys of interleaved points `xy` on the GPU, bit for bit equal to
 * {@link hilbertKeysCpu} (same layout: one u32 per point for 16 bits, `[hi, lo]` for 32).
 *
 * The CPU checks the points (NaN or infinity is an error naming the point), takes the f64
 * bounding box and quantizes to grid cells in f64 ({@link quantizeHilbertGrid}); only the cells
 * travel (4 bytes a point for 16 bits, 8 for 32, against 16 for the f64 coordinates), and the GPU
 * computes the curve index with integer operations. Inputs larger than one binding run in chunks.
 *
 * @throws InvalidGeometryError naming the point index of a NaN or infinite coordinate.
 * @throws RangeError for bad `bits`, `bounds` or `maxBindingBytes`, or an odd-length `xy`.
 * @throws GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError (naming the kernel).
 */
async function hilbertKeysGpuAlone(
  ctx: GpuContext,
  xy: Float64Array,
  options: HilbertGpuOptions,
): Promise<Uint32Array> {
  ctx.assertUsable();
  const bits = checkBits(options.bits);
  const grid = quantizeHilbertGrid(xy, options);
  const keys = new Uint32Array(grid.length);
  const words = hilbertWordsPerPoint(bits);
  const n = grid.length / words;
  if (n === 0) return keys;
  const maxBindingBytes = Math.min(
    options.maxBindingBytes ?? Number.POSITIVE_INFINITY,
    ctx.limits.maxStorageBufferBindingSize,
    ctx.limits.maxBufferSize,
  );
  const perChunk = Math.floor(maxBindingBytes / (4 * words));
  if (!(perChunk >= 1)) throw new RangeError(`maxBindingBytes ${maxBindingBytes} holds no point`);
  for (let first = 0; first < n; first += perChunk) {
    const count = Math.min(perChunk, n - first);
    const range = [first * words, (first + count) * words] as const;
    await keyChunk(ctx, grid.subarray(...range), keys.subarray(...range), bits, count, options);
  }
  return keys;
}

async function keyChunk(
  ctx: GpuContext,
  grid: Uint32Array,
  out: Uint32Array,
  bits: HilbertBits,
  count: number,
  options: HilbertGpuOptions,
): Promise<void> {
  const buffers: GPUBuffer[] = [];
  try {
    const gridBuffer = await uploadStorage(ctx, grid, 'hilbert grid');
    buffers.push(gridBuffer);
    const keysBuffer = await createStorage(ctx, out.byteLength, 'hilbert keys', BufferUsage.COPY_SRC);
    buffers.push(keysBuffer);
    const pipeline = await ctx.pipelines.get(HILBERT_KERNEL, { bits, workgroupSize: WORKGROUP_SIZE });
    const device = ctx.device;
    // pushed and popped with no await between, so no other task's errors land in the scope
    device.pushErrorScope('validation');
    const encoder = device.createCommandEncoder({ label: 'hilbert' });
    encodeWithPipeline(ctx, encoder, pipeline, {
      bits,
      count,
      grid: gridBuffer,
      keys: keysBuffer,
      ...(options.maxWorkgroupsPerDimension
        ? { maxWorkgroupsPerDimension: options.maxWorkgroupsPerDimension }
        : {}),
    });
    device.queue.submit([encoder.finish()]);
    const error = await device.popErrorScope();
    if (error) throw new GpuValidationError(HILBERT_KERNEL.name, error.message);
    await readback(ctx, keysBuffer, out);
  } finally {
    for (const b of buffers) b.destroy();
  }
}

/**
 * {@link hilbertKeysGpuAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function hilbertKeysGpu(
  ...args: Parameters<typeof hilbertKeysGpuAlone>
): ReturnType<typeof hilbertKeysGpuAlone> {
  return runExclusive(args[0], () => hilbertKeysGpuAlone(...args));
}
