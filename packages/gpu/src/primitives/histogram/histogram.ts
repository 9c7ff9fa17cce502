import { createStorage, readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../../runtime/dispatch.js';
import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { planned, recordDispatches } from '../dispatch-recorder.js';
import { encodeScan } from '../scan/encode-scan.js';
import type { ScanOptions } from '../scan/scan-plan.js';
import { scratchBuffer } from '../scratch.js';
import {
  COUNT_SCATTER_COUNTS_KERNEL,
  COUNT_SCATTER_SCATTER_KERNEL,
  HISTOGRAM_GLOBAL_KERNEL,
  HISTOGRAM_PRIVATE_KERNEL,
} from './histogram-kernels.js';

const WORKGROUP_SIZE = 256;
/** Keys per thread of the private-histogram kernel. */
const ITEMS = 16;
/** Most bins counted in workgroup memory (16 KiB, within WebGPU's guaranteed workgroup storage). */
export const MAX_PRIVATE_BINS = 4096;

/** What {@link encodeHistogram} counts. */
export interface HistogramArgs {
  /** `count` u32 keys from element `keysOffset` (default 0). */
  keys: GPUBuffer;
  count: number;
  keysOffset?: number;
  /** Number of bins; keys ≥ bins are not counted. */
  bins: number;
  /** Receives `bins` u32 counts from byte 0; needs `COPY_DST` usage unless `accumulate`. */
  countsOut: GPUBuffer;
  /** Add to the counts already in `countsOut` instead of clearing them first. */
  accumulate?: boolean;
  /** Force global atomics (true) or workgroup-private histograms (false); default by bin count. */
  globalAtomics?: boolean;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Records a histogram of u32 keys: `countsOut[b]` = number of keys equal to `b`, for
 * `b < bins`; keys ≥ bins are ignored. Counts wrap modulo 2^32 (only above 4 G keys).
 * With at most {@link MAX_PRIVATE_BINS} bins each workgroup counts 4096 keys into a private
 * histogram in workgroup memory and adds it to `countsOut` with one atomic per non-empty bin;
 * with more, every key is one global `atomicAdd`. The keys range must fit one storage binding.
 *
 * @throws RangeError for bad counts, bins or offsets, or ranges past a buffer's end.
 */
export async function encodeHistogram(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: HistogramArgs,
): Promise<void> {
  ctx.assertUsable();
  const { count, bins } = args;
  const keysOffset = args.keysOffset ?? 0;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`histogram: bad count ${count}`);
  if (!Number.isSafeInteger(bins) || bins < 1 || bins > 0xffffffff)
    throw new RangeError(`histogram: bad bins ${bins}`);
  if (!Number.isSafeInteger(keysOffset) || keysOffset < 0) throw new RangeError(`histogram: bad keysOffset`);
  if ((keysOffset + count) * 4 > args.keys.size || bins * 4 > args.countsOut.size) {
    throw new RangeError('histogram: keys or counts do not fit their buffers');
  }
  if (!args.accumulate) encoder.clearBuffer(args.countsOut, 0, bins * 4);
  if (count === 0) return;
  const align = ctx.limits.minStorageBufferOffsetAlignment;
  const byte = keysOffset * 4;
  const offset = Math.floor(byte / align) * align;
  const size = byte + count * 4 - offset;
  if (size > ctx.limits.maxStorageBufferBindingSize || bins * 4 > ctx.limits.maxStorageBufferBindingSize) {
    throw new RangeError('histogram: keys or counts exceed one storage binding');
  }
  const usePrivate = !(args.globalAtomics ?? bins > MAX_PRIVATE_BINS);
  if (usePrivate && bins > MAX_PRIVATE_BINS)
    throw new RangeError(`histogram: ${bins} bins exceed private histograms`);
  const privateBins = Math.max(64, 2 ** Math.ceil(Math.log2(bins)));
  const dispatch = planned(usePrivate ? HISTOGRAM_PRIVATE_KERNEL : HISTOGRAM_GLOBAL_KERNEL, {
    constants: usePrivate
      ? { workgroupSize: WORKGROUP_SIZE, items: ITEMS, privateBins }
      : { workgroupSize: WORKGROUP_SIZE, items: 1, privateBins: 0 },
    params: [count, (byte - offset) / 4, bins, 0],
    buffers: {
      keys: { buffer: args.keys, offset, size },
      counts: { buffer: args.countsOut, offset: 0, size: bins * 4 },
    },
    workgroups: Math.ceil(count / (WORKGROUP_SIZE * (usePrivate ? ITEMS : 1))),
  });
  await recordDispatches(
    ctx,
    encoder,
    'histogram',
    [dispatch],
    maxPerDimension(ctx, args.maxWorkgroupsPerDimension),
  );
}

function maxPerDimension(ctx: GpuContext, option: number | undefined): number {
  return Math.min(
    option ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
}

/** Result of {@link countScatter}. */
export interface CountScatterResult {
  /** `bins + 1` values: `offsets[b]` is where bin `b` starts in `order`; `offsets[bins]` = number of keys. */
  offsets: Uint32Array;
  /** Element indices grouped by key (bin 0 first), in increasing order within each key. */
  order: Uint32Array;
}

/** Options of {@link countScatter}. */
export interface CountScatterOptions {
  /** Options of the scan of the count matrix. */
  scan?: ScanOptions;
}

/**
 * Counting sort of element indices by key on the GPU: `offsets` is the exclusive scan of the
 * per-key counts (with the total appended) and `order` lists, for each key in increasing order,
 * the indices of its elements in increasing order (stable). Keys must be `< bins`.
 *
 * How: blocks of 256 keys count their keys into a bin-major (bins × blocks) matrix, an exclusive
 * {@link encodeScan} of the matrix gives every (bin, block) its first slot, and each element adds
 * the number of earlier same-key elements of its block. Costs O(n + bins × n / 256) memory and
 * time, so it suits bins up to a few thousand; the matrix must fit one storage binding.
 *
 * @throws RangeError for a key ≥ bins, bad bins, or a matrix over one binding;
 *   GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError (kernel `'count-scatter'`).
 */
async function countScatterAlone(
  ctx: GpuContext,
  keys: Uint32Array,
  bins: number,
  options: CountScatterOptions = {},
): Promise<CountScatterResult> {
  ctx.assertUsable();
  if (!Number.isSafeInteger(bins) || bins < 1) throw new RangeError(`countScatter: bad bins ${bins}`);
  const n = keys.length;
  for (let i = 0; i < n; i++) {
    if (keys[i] >= bins)
      throw new RangeError(`countScatter: key ${keys[i]} at ${i} is not below ${bins} bins`);
  }
  if (n === 0) return { offsets: new Uint32Array(bins + 1), order: new Uint32Array(0) };
  const blocks = Math.ceil(n / WORKGROUP_SIZE);
  const cells = bins * blocks + 1;
  if (cells * 4 > ctx.limits.maxStorageBufferBindingSize) {
    throw new RangeError(`countScatter: a ${bins} × ${blocks} count matrix exceeds one storage binding`);
  }
  const owned: GPUBuffer[] = [];
  const own = async (b: Promise<GPUBuffer>) => {
    const buffer = await b;
    owned.push(buffer);
    return buffer;
  };
  try {
    const keyBuffer = await own(uploadStorage(ctx, keys, 'count-scatter keys'));
    const order = await own(createStorage(ctx, n * 4, 'count-scatter order', BufferUsage.COPY_SRC));
    const offsets = await own(
      createStorage(ctx, (bins + 1) * 4, 'count-scatter offsets', BufferUsage.COPY_SRC),
    );
    const matrix = scratchBuffer(ctx, 'count-scatter/matrix', cells * 4);
    const device = ctx.device;
    device.pushErrorScope('validation');
    let thrown: unknown;
    try {
      const encoder = device.createCommandEncoder({ label: 'count-scatter' });
      encoder.clearBuffer(matrix, 0, Math.ceil((cells * 4) / 4) * 4);
      const constants = { workgroupSize: WORKGROUP_SIZE };
      const params = [n, blocks, bins, 0];
      const mp = maxPerDimension(ctx, options.scan?.maxWorkgroupsPerDimension);
      const matrixEntry = { buffer: matrix, offset: 0, size: cells * 4 };
      await recordDispatches(
        ctx,
        encoder,
        'count-scatter',
        [
          planned(COUNT_SCATTER_COUNTS_KERNEL, {
            constants,
            params,
            buffers: { keys: keyBuffer, matrix: matrixEntry },
            workgroups: blocks,
          }),
        ],
        mp,
      );
      await encodeScan(ctx, encoder, { ...options.scan, input: matrix, output: matrix, count: cells });
      await recordDispatches(
        ctx,
        encoder,
        'count-scatter',
        [
          planned(COUNT_SCATTER_SCATTER_KERNEL, {
            constants,
            params,
            buffers: { keys: keyBuffer, slots: matrixEntry, order, offsets },
            workgroups: blocks,
          }),
        ],
        mp,
      );
      device.queue.submit([encoder.finish()]);
    } catch (error) {
      thrown = error;
    }
    const error = await device.popErrorScope();
    if (thrown) throw thrown;
    if (error) throw new GpuValidationError('count-scatter', error.message);
    return {
      offsets: await readback(ctx, offsets, new Uint32Array(bins + 1)),
      order: await readback(ctx, order, new Uint32Array(n)),
    };
  } finally {
    for (const b of owned) b.destroy();
  }
}

/**
 * {@link countScatterAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function countScatter(
  ...args: Parameters<typeof countScatterAlone>
): ReturnType<typeof countScatterAlone> {
  return runExclusive(args[0], () => countScatterAlone(...args));
}
