import { createStorage, readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchSize } from '../../runtime/dispatch.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { checkSegmentOffsets } from './segmented-sort.js';
import {
  REDUCE_CHUNK,
  SEGMENT_REDUCE_KERNEL,
  SEGMENT_REDUCE_ZERO_KERNEL,
  SEGMENT_WORKGROUP,
} from './segmented-sort-kernels.js';
import { assertWords, bindKernel, paramBlocks, submitChecked } from './sort-gpu-util.js';

/** What {@link encodeSegmentedReduce} adds up. */
export interface SegmentedReduceArgs {
  /** u32 values. */
  values: GPUBuffer;
  /** `segments + 1` non-decreasing u32 offsets: segment s is `[offsets[s], offsets[s+1])`. */
  segmentOffsets: GPUBuffer;
  segments: number;
  /** Receives `segments` u32 sums (overwritten; empty segments get 0). */
  output: GPUBuffer;
  /** Elements in `values` the offsets may reach; default `values.size / 4`. */
  count?: number;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Records the per-segment sums (u32, wrapping modulo 2³²) of `values` into `output`. One thread
 * per chunk of 32 elements adds each segment's run and `atomicAdd`s it, so a long segment costs one
 * atomic per chunk and short ones about one each; the result is exact whatever the order.
 *
 * @throws RangeError for buffers smaller than the counts imply; GpuValidationError.
 */
export async function encodeSegmentedReduce(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: SegmentedReduceArgs,
): Promise<void> {
  ctx.assertUsable();
  const { values, segmentOffsets, segments, output } = args;
  const count = args.count ?? Math.floor(values.size / 4);
  if (!Number.isInteger(segments) || segments < 0)
    throw new RangeError(`segments ${segments} is not a count`);
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${count} is not a count`);
  assertWords(values, count, 'segmented reduce values');
  assertWords(segmentOffsets, segments + 1, 'segment offsets');
  assertWords(output, segments, 'segmented reduce output');
  if (segments === 0) return;
  const [zero, reduce] = await Promise.all([
    ctx.pipelines.get(SEGMENT_REDUCE_ZERO_KERNEL, {}),
    ctx.pipelines.get(SEGMENT_REDUCE_KERNEL, {}),
  ]);
  const maxPerDimension = Math.min(
    args.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  const chunks = Math.ceil(count / REDUCE_CHUNK);
  const params = {
    params: paramBlocks(ctx, 'segmented-reduce params', [[count, segments, chunks, 0]]),
    index: 0,
  };
  const device = ctx.device;
  const pass = encoder.beginComputePass({ label: 'segmented-reduce' });
  pass.setPipeline(zero);
  pass.setBindGroup(
    0,
    bindKernel(device, zero, SEGMENT_REDUCE_ZERO_KERNEL, params, { offsets: segmentOffsets, sums: output }),
  );
  pass.dispatchWorkgroups(...dispatchSize(Math.ceil(segments / SEGMENT_WORKGROUP), maxPerDimension));
  if (chunks > 0) {
    pass.setPipeline(reduce);
    pass.setBindGroup(
      0,
      bindKernel(device, reduce, SEGMENT_REDUCE_KERNEL, params, {
        offsets: segmentOffsets,
        values,
        sums: output,
      }),
    );
    pass.dispatchWorkgroups(...dispatchSize(Math.ceil(chunks / SEGMENT_WORKGROUP), maxPerDimension));
  }
  pass.end();
}

/**
 * Per-segment sums of `values` on the GPU: entry s is the sum (u32, wrapping modulo 2³²) of
 * `values[offsets[s] .. offsets[s+1])`, 0 for an empty segment.
 *
 * @throws RangeError when offsets are not non-decreasing within `values`; GPU errors as the runtime's.
 */
async function segmentedReduceAlone(
  ctx: GpuContext,
  values: Uint32Array,
  offsets: Uint32Array,
): Promise<Uint32Array> {
  ctx.assertUsable();
  checkSegmentOffsets(offsets, values.length);
  const segments = offsets.length - 1;
  const result = new Uint32Array(segments);
  if (segments === 0) return result;
  const buffers: GPUBuffer[] = [];
  try {
    const valueBuffer = await uploadStorage(ctx, values, 'segmented-reduce values');
    buffers.push(valueBuffer);
    const offsetBuffer = await uploadStorage(ctx, offsets, 'segmented-reduce offsets');
    buffers.push(offsetBuffer);
    const output = await createStorage(ctx, segments * 4, 'segmented-reduce sums', BufferUsage.COPY_SRC);
    buffers.push(output);
    await submitChecked(ctx, 'segmented-reduce', (encoder) =>
      encodeSegmentedReduce(ctx, encoder, {
        values: valueBuffer,
        segmentOffsets: offsetBuffer,
        segments,
        output,
        count: values.length,
      }),
    );
    return await readback(ctx, output, result);
  } finally {
    for (const b of buffers) b.destroy();
  }
}

/**
 * {@link segmentedReduceAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function segmentedReduce(
  ...args: Parameters<typeof segmentedReduceAlone>
): ReturnType<typeof segmentedReduceAlone> {
  return runExclusive(args[0], () => segmentedReduceAlone(...args));
}
