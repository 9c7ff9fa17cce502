import { readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchSize } from '../../runtime/dispatch.js';
import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { scratchBuffer } from '../scratch.js';
import {
  RADIX_DOWNSWEEP_KERNEL,
  RADIX_SCAN_KERNEL,
  RADIX_TILE,
  RADIX_UPSWEEP_KERNEL,
  RADIX_WORKGROUP_BYTES,
} from './radix-sort-kernels.js';
import { assertWords, bindKernel, paramBlocks, submitChecked } from './sort-gpu-util.js';
import { planDigitPasses } from './sort-plan.js';

/** What {@link encodeRadixSort} sorts. */
export interface RadixSortArgs {
  /** u32 keys, sorted in place: the first `count` words. Needs `STORAGE` usage. */
  keys: GPUBuffer;
  /** Optional u32 values moved with their keys (in place, first `count` words). */
  values?: GPUBuffer;
  /** Number of keys (and values). */
  count: number;
  /**
   * Sort by the low `keyBits` bits only (1–32, default 32); higher bits are ignored for ordering
   * but kept. 16 takes 2 passes instead of 4.
   */
  keyBits?: number;
  /** Scratch name prefix, so nested users (e.g. the segmented sort) can keep their own buffers apart. */
  scratchPrefix?: string;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit (tests shrink it). */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Records a stable LSD radix sort of `count` u32 keys (and values) into `encoder`, in place: the
 * caller's buffers hold the result once the encoder's command buffer has run. Stable: equal keys
 * keep their input order (so values of equal keys stay in input order). Works for any `count`,
 * 0 and 1 included (nothing is recorded for `count < 2`).
 *
 * Each pass (8-bit digits, an even number of passes, see `planDigitPasses`) is three dispatches:
 * upsweep (per-tile digit histograms), scan (per-digit prefix over tiles), downsweep (stable
 * in-tile split and scatter), ping-ponging with two scratch buffers. Async only because pipelines
 * are created on first use; await it before `encoder.finish()`.
 *
 * @throws RangeError when a buffer is too small or `keyBits` is not in [1, 32];
 *   GpuValidationError when the device's workgroup memory is too small for a tile or a kernel
 *   fails to compile.
 */
export async function encodeRadixSort(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: RadixSortArgs,
): Promise<void> {
  ctx.assertUsable();
  const { keys, values, count } = args;
  const passes = planDigitPasses(args.keyBits ?? 32);
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${count} is not a count`);
  assertWords(keys, count, 'radix sort keys');
  if (values) assertWords(values, count, 'radix sort values');
  if (ctx.limits.maxComputeWorkgroupStorageSize < RADIX_WORKGROUP_BYTES) {
    throw new GpuValidationError(
      'radix-sort/downsweep',
      `needs ${RADIX_WORKGROUP_BYTES} bytes of workgroup memory, the device allows ${ctx.limits.maxComputeWorkgroupStorageSize}`,
    );
  }
  if (count < 2) return;
  const hasValues = values !== undefined;
  const [upsweep, scan, downsweep] = await Promise.all([
    ctx.pipelines.get(RADIX_UPSWEEP_KERNEL, {}),
    ctx.pipelines.get(RADIX_SCAN_KERNEL, {}),
    ctx.pipelines.get(RADIX_DOWNSWEEP_KERNEL, { values: hasValues }),
  ]);
  const prefix = args.scratchPrefix ?? 'radix-sort';
  const blocks = Math.ceil(count / RADIX_TILE);
  const hist = scratchBuffer(ctx, `${prefix}/histograms`, blocks * 256 * 4);
  const totals = scratchBuffer(ctx, `${prefix}/totals`, 256 * 4);
  const altKeys = scratchBuffer(ctx, `${prefix}/keys`, count * 4);
  const altValues = hasValues ? scratchBuffer(ctx, `${prefix}/values`, count * 4) : undefined;
  const params = paramBlocks(
    ctx,
    'radix-sort params',
    passes.map(({ shift, bits }) => [count, shift, bits, blocks]),
  );
  const maxPerDimension = Math.min(
    args.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  const [x, y] = dispatchSize(blocks, maxPerDimension);
  const device = ctx.device;
  const pass = encoder.beginComputePass({ label: 'radix-sort' });
  passes.forEach((_, index) => {
    const p = { params, index };
    const [keysIn, keysOut] = index % 2 === 0 ? [keys, altKeys] : [altKeys, keys];
    pass.setPipeline(upsweep);
    pass.setBindGroup(0, bindKernel(device, upsweep, RADIX_UPSWEEP_KERNEL, p, { keys: keysIn, hist }));
    pass.dispatchWorkgroups(x, y);
    pass.setPipeline(scan);
    pass.setBindGroup(0, bindKernel(device, scan, RADIX_SCAN_KERNEL, p, { hist, totals }));
    pass.dispatchWorkgroups(256);
    pass.setPipeline(downsweep);
    const [valsIn, valsOut] = index % 2 === 0 ? [values, altValues] : [altValues, values];
    const moved = values && altValues ? { vals_in: valsIn, vals_out: valsOut } : {};
    const bound = { keys_in: keysIn, hist, totals, keys_out: keysOut, ...moved };
    pass.setBindGroup(0, bindKernel(device, downsweep, RADIX_DOWNSWEEP_KERNEL, p, bound));
    pass.dispatchWorkgroups(x, y);
  });
  pass.end();
}

/** Result of {@link radixSort}: new arrays, the inputs are not modified. */
export interface SortedPairs {
  keys: Uint32Array;
  values?: Uint32Array;
}

/**
 * Sorts `keys` (and `values`, moved with their keys) stably on the GPU by the low `keyBits` bits
 * (default 32) and returns new arrays; the inputs are left unchanged. Uploads, one submission of
 * {@link encodeRadixSort}, readback.
 *
 * @throws RangeError when `values` is not as long as `keys` or `keyBits` is not in [1, 32];
 *   GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError.
 */
async function radixSortAlone(
  ctx: GpuContext,
  keys: Uint32Array,
  values?: Uint32Array,
  options: { keyBits?: number; maxWorkgroupsPerDimension?: number } = {},
): Promise<SortedPairs> {
  ctx.assertUsable();
  if (values && values.length !== keys.length) {
    throw new RangeError(`values has ${values.length} entries, keys ${keys.length}`);
  }
  planDigitPasses(options.keyBits ?? 32);
  const count = keys.length;
  if (count < 2) return values ? { keys: keys.slice(), values: values.slice() } : { keys: keys.slice() };
  const buffers: GPUBuffer[] = [];
  try {
    const keyBuffer = await uploadStorage(ctx, keys, 'radix-sort keys', BufferUsage.COPY_SRC);
    buffers.push(keyBuffer);
    const valueBuffer = values
      ? await uploadStorage(ctx, values, 'radix-sort values', BufferUsage.COPY_SRC)
      : undefined;
    if (valueBuffer) buffers.push(valueBuffer);
    await submitChecked(ctx, 'radix-sort', (encoder) =>
      encodeRadixSort(ctx, encoder, { keys: keyBuffer, values: valueBuffer, count, ...options }),
    );
    const sortedKeys = await readback(ctx, keyBuffer, new Uint32Array(count));
    if (!valueBuffer) return { keys: sortedKeys };
    return { keys: sortedKeys, values: await readback(ctx, valueBuffer, new Uint32Array(count)) };
  } finally {
    for (const b of buffers) b.destroy();
  }
}

/**
 * {@link radixSortAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function radixSort(...args: Parameters<typeof radixSortAlone>): ReturnType<typeof radixSortAlone> {
  return runExclusive(args[0], () => radixSortAlone(...args));
}
