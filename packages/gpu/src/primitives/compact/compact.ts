import { createStorage, readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../../runtime/dispatch.js';
import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { planned, recordDispatches } from '../dispatch-recorder.js';
import { encodeScanWith } from '../scan/encode-scan.js';
import type { ScanOptions } from '../scan/scan-plan.js';
import { scratchBuffer } from '../scratch.js';
import { COMPACT_SCATTER_KERNEL } from './compact-kernels.js';

const WORKGROUP_SIZE = 256;

/** What {@link encodeCompact} compacts. */
export interface CompactArgs {
  /** `count` u32 flags from element 0; non-zero keeps the element (1 is the intended value). */
  flags: GPUBuffer;
  count: number;
  /** Receives the kept indices, in increasing order, from element 0 (room for `count` is safe). */
  indicesOut: GPUBuffer;
  /** Receives the number kept, one u32 at byte 0. */
  countOut: GPUBuffer;
  /** Options of the underlying scan (variant, subgroups). */
  scan?: ScanOptions;
}

/** What {@link encodeCompactValues} compacts: `values[i]` where `flags[i]` is set. */
export interface CompactValuesArgs {
  values: GPUBuffer;
  flags: GPUBuffer;
  count: number;
  /** Receives the kept values, in their order, from element 0. */
  valuesOut: GPUBuffer;
  countOut: GPUBuffer;
  scan?: ScanOptions;
}

/**
 * Records a stream compaction: the indices `i < count` whose flag is non-zero, in increasing
 * order (stable), into `indicesOut`, and their number into `countOut[0]`. Implemented as an
 * inclusive scan of the flags read as 0/1 (into a scratch buffer) and a scatter pass; `count` 0
 * writes 0 to `countOut`. The flags and outputs are bound whole, so `count * 4` must fit one
 * storage binding (`maxStorageBufferBindingSize`); the scan itself has no such limit.
 *
 * @throws RangeError for a bad count or a count over one binding; GpuDeviceLostError.
 */
export async function encodeCompact(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: CompactArgs,
): Promise<void> {
  return encodeCompaction(ctx, encoder, { ...args, out: args.indicesOut, values: null });
}

/**
 * {@link encodeCompact} moving `values[i]` (u32 words) instead of indices: the kept values in
 * their original order into `valuesOut`, their number into `countOut[0]`.
 */
export async function encodeCompactValues(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: CompactValuesArgs,
): Promise<void> {
  return encodeCompaction(ctx, encoder, { ...args, out: args.valuesOut });
}

async function encodeCompaction(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: {
    flags: GPUBuffer;
    count: number;
    out: GPUBuffer;
    countOut: GPUBuffer;
    values: GPUBuffer | null;
    scan?: ScanOptions;
  },
): Promise<void> {
  ctx.assertUsable();
  const n = args.count;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`compact: count ${n} is not a valid count`);
  if (n * 4 > ctx.limits.maxStorageBufferBindingSize) {
    throw new RangeError(`compact: ${n} elements exceed one storage binding`);
  }
  if (n === 0) {
    encoder.clearBuffer(args.countOut, 0, 4);
    return;
  }
  const positions = scratchBuffer(ctx, 'compact/positions', n * 4);
  await encodeScanWith(
    ctx,
    encoder,
    { ...args.scan, input: args.flags, output: positions, count: n, inclusive: true },
    { nonzero: true },
  );
  const withValues = args.values !== null;
  const dispatch = planned(COMPACT_SCATTER_KERNEL, {
    constants: { workgroupSize: WORKGROUP_SIZE, withValues },
    params: [n, 0, 0, 0],
    buffers: {
      // explicit sizes: a buffer (scratch ones grow geometrically) may exceed one binding
      flags: { buffer: args.flags, offset: 0, size: n * 4 },
      positions: { buffer: positions, offset: 0, size: n * 4 },
      out: { buffer: args.out, offset: 0, size: n * 4 },
      count_out: { buffer: args.countOut, offset: 0, size: 4 },
      values: args.values ? { buffer: args.values, offset: 0, size: n * 4 } : undefined,
    },
    workgroups: Math.ceil(n / WORKGROUP_SIZE),
  });
  const maxPerDimension = Math.min(
    args.scan?.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  await recordDispatches(ctx, encoder, 'compact', [dispatch], maxPerDimension);
}

/**
 * The indices of the non-zero entries of `flags`, in increasing order, computed on the GPU with
 * {@link encodeCompact}. Empty for empty or all-zero flags.
 *
 * @throws GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError (kernel `'compact'`).
 */
async function compactIndicesAlone(
  ctx: GpuContext,
  flags: Uint32Array,
  scan: ScanOptions = {},
): Promise<Uint32Array> {
  ctx.assertUsable();
  const n = flags.length;
  if (n === 0) return new Uint32Array(0);
  const owned: GPUBuffer[] = [];
  try {
    const flagBuffer = await uploadStorage(ctx, flags, 'compact flags');
    owned.push(flagBuffer);
    const indices = await createStorage(ctx, n * 4, 'compact indices', BufferUsage.COPY_SRC);
    owned.push(indices);
    const countOut = await createStorage(
      ctx,
      4,
      'compact count',
      BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    );
    owned.push(countOut);
    const device = ctx.device;
    device.pushErrorScope('validation');
    let thrown: unknown;
    try {
      const encoder = device.createCommandEncoder({ label: 'compact' });
      await encodeCompact(ctx, encoder, { flags: flagBuffer, count: n, indicesOut: indices, countOut, scan });
      device.queue.submit([encoder.finish()]);
    } catch (error) {
      thrown = error;
    }
    const error = await device.popErrorScope();
    if (thrown) throw thrown;
    if (error) throw new GpuValidationError('compact', error.message);
    const [kept] = await readback(ctx, countOut, new Uint32Array(1));
    return await readback(ctx, indices, new Uint32Array(kept));
  } finally {
    for (const b of owned) b.destroy();
  }
}

/**
 * {@link compactIndicesAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function compactIndices(
  ...args: Parameters<typeof compactIndicesAlone>
): ReturnType<typeof compactIndicesAlone> {
  return runExclusive(args[0], () => compactIndicesAlone(...args));
}
