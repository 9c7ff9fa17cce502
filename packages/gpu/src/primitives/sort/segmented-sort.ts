import { readback, uploadStorage } from '../../runtime/buffers.js';
import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION, dispatchSize } from '../../runtime/dispatch.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { scratchBuffer } from '../scratch.js';
import { encodeRadixSort } from './radix-sort.js';
import {
  SEGMENT_GATHER_KERNEL,
  SEGMENT_ID_KERNEL,
  SEGMENT_INIT_KERNEL,
  SEGMENT_TILE,
  SEGMENT_TILE_KERNEL,
  SEGMENT_WORKGROUP,
  SEGMENT_WORKGROUP_BYTES,
} from './segmented-sort-kernels.js';
import { assertWords, bindKernel, paramBlocks, submitChecked } from './sort-gpu-util.js';
import { bitsFor } from './sort-plan.js';

/** Longest segment {@link encodeSegmentedSort} sorts inside one workgroup. */
export const MAX_TILE_SEGMENT = SEGMENT_TILE;

/** What {@link encodeSegmentedSort} sorts. */
export interface SegmentedSortArgs {
  /**
   * u32 keys, sorted in place within each segment. For f32 keys pass their order-preserving bits
   * ({@link orderedF32Bits}).
   */
  keys: GPUBuffer;
  /** u32 values moved with their keys. */
  values: GPUBuffer;
  /**
   * `segments + 1` non-decreasing u32 offsets: segment s is elements `[offsets[s], offsets[s+1])`.
   * Elements before `offsets[0]` or from `offsets[segments]` on are left untouched.
   */
  segmentOffsets: GPUBuffer;
  segments: number;
  /** Elements in `keys` and `values` the offsets may reach; default `keys.size / 4`. Smaller is less work. */
  count?: number;
  /**
   * An upper bound on every segment's length, if the caller knows one. When it is at most
   * {@link MAX_TILE_SEGMENT}, segments are sorted inside workgroups; otherwise (and when omitted)
   * the whole range is sorted by (segment, key) with two global radix sorts.
   */
  maxSegmentLength?: number;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
}

/**
 * Records a stable sort of each segment's keys (with their values) into `encoder`, in place:
 * within every segment, keys ascend and equal keys keep their input order; no element leaves its
 * segment. Async only because pipelines are created on first use; await it before `finish()`.
 *
 * Two paths (the ADR on GPU sorting says why):
 * - `maxSegmentLength ≤ MAX_TILE_SEGMENT`: one workgroup per tile of that many elements sorts the
 *   segments starting in the tile in workgroup memory (odd–even transposition for short segments,
 *   a bitonic network on (segment, key, position) for longer ones). One dispatch.
 * - otherwise: a radix sort by key carrying element indices, then a stable radix sort by segment
 *   rank (as many bits as the segment count needs), then a gather. About 4 + ⌈bits/8⌉ passes.
 *
 * @throws RangeError for buffers smaller than the counts imply or bad counts; GpuValidationError.
 */
export async function encodeSegmentedSort(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: SegmentedSortArgs,
): Promise<void> {
  ctx.assertUsable();
  const { keys, values, segmentOffsets, segments } = args;
  const count = args.count ?? Math.floor(keys.size / 4);
  if (!Number.isInteger(segments) || segments < 0)
    throw new RangeError(`segments ${segments} is not a count`);
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count ${count} is not a count`);
  assertWords(keys, count, 'segmented sort keys');
  assertWords(values, count, 'segmented sort values');
  assertWords(segmentOffsets, segments + 1, 'segment offsets');
  if (segments === 0 || count < 2) return;
  const maxPerDimension = Math.min(
    args.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
    ctx.limits.maxComputeWorkgroupsPerDimension,
  );
  const device = ctx.device;
  const useTiles =
    args.maxSegmentLength !== undefined &&
    args.maxSegmentLength <= MAX_TILE_SEGMENT &&
    ctx.limits.maxComputeWorkgroupStorageSize >= SEGMENT_WORKGROUP_BYTES;
  if (useTiles) {
    const pipeline = await ctx.pipelines.get(SEGMENT_TILE_KERNEL, {});
    const tiles = Math.ceil(count / SEGMENT_TILE);
    const params = paramBlocks(ctx, 'segmented-sort params', [[count, segments, tiles, 0]]);
    const pass = encoder.beginComputePass({ label: 'segmented-sort tiles' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      bindKernel(
        device,
        pipeline,
        SEGMENT_TILE_KERNEL,
        { params, index: 0 },
        {
          offsets: segmentOffsets,
          keys,
          vals: values,
        },
      ),
    );
    pass.dispatchWorkgroups(...dispatchSize(tiles, maxPerDimension));
    pass.end();
    return;
  }
  const [init, segmentId, gather] = await Promise.all([
    ctx.pipelines.get(SEGMENT_INIT_KERNEL, {}),
    ctx.pipelines.get(SEGMENT_ID_KERNEL, {}),
    ctx.pipelines.get(SEGMENT_GATHER_KERNEL, {}),
  ]);
  const bytes = count * 4;
  const keysCopy = scratchBuffer(ctx, 'segmented-sort/keys-copy', bytes);
  const valuesCopy = scratchBuffer(ctx, 'segmented-sort/values-copy', bytes);
  const sortKeys = scratchBuffer(ctx, 'segmented-sort/sort-keys', bytes);
  const sortIndex = scratchBuffer(ctx, 'segmented-sort/sort-index', bytes);
  const params = { params: paramBlocks(ctx, 'segmented-sort params', [[count, segments, 0, 0]]), index: 0 };
  const grid = dispatchSize(Math.ceil(count / SEGMENT_WORKGROUP), maxPerDimension);
  const dispatch = (pipeline: GPUComputePipeline, group: GPUBindGroup) => {
    const pass = encoder.beginComputePass({ label: pipeline.label });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...grid);
    pass.end();
  };
  const offsets = segmentOffsets;
  const copies = { keys_copy: keysCopy, vals_copy: valuesCopy };
  dispatch(
    init,
    bindKernel(device, init, SEGMENT_INIT_KERNEL, params, {
      offsets,
      keys,
      vals: values,
      ...copies,
      sort_keys: sortKeys,
      sort_index: sortIndex,
    }),
  );
  const radix = { keys: sortKeys, values: sortIndex, count, maxWorkgroupsPerDimension: maxPerDimension };
  await encodeRadixSort(ctx, encoder, { ...radix, scratchPrefix: 'segmented-sort/radix' });
  dispatch(
    segmentId,
    bindKernel(device, segmentId, SEGMENT_ID_KERNEL, params, {
      offsets,
      sort_index: sortIndex,
      sort_keys: sortKeys,
    }),
  );
  await encodeRadixSort(ctx, encoder, {
    ...radix,
    keyBits: bitsFor(segments + 1),
    scratchPrefix: 'segmented-sort/radix',
  });
  dispatch(
    gather,
    bindKernel(device, gather, SEGMENT_GATHER_KERNEL, params, {
      offsets,
      sort_index: sortIndex,
      ...copies,
      keys,
      vals: values,
    }),
  );
}

/**
 * Checks that `offsets` are `segments + 1` non-decreasing entries within `[0, length]` and returns
 * the longest segment's length.
 *
 * @throws RangeError naming the first bad offset.
 */
export function checkSegmentOffsets(offsets: Uint32Array, length: number): number {
  if (offsets.length === 0) throw new RangeError('segment offsets need at least one entry');
  let longest = 0;
  for (let s = 0; s < offsets.length; s++) {
    if (offsets[s] > length) throw new RangeError(`offset ${s} (${offsets[s]}) is past the end (${length})`);
    if (s > 0) {
      const size = offsets[s] - offsets[s - 1];
      if (size < 0) throw new RangeError(`offset ${s} (${offsets[s]}) is below offset ${s - 1}`);
      if (size > longest) longest = size;
    }
  }
  return longest;
}

/**
 * Sorts each segment `[offsets[s], offsets[s+1])` of `keys` (and `values` with them) stably on the
 * GPU and returns new arrays; elements outside all segments keep their places. The inputs are not
 * modified. Picks the in-workgroup path when no segment is longer than {@link MAX_TILE_SEGMENT}.
 *
 * @throws RangeError when lengths differ or offsets are not non-decreasing within the arrays;
 *   GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError.
 */
async function segmentedSortAlone(
  ctx: GpuContext,
  keys: Uint32Array,
  values: Uint32Array,
  offsets: Uint32Array,
): Promise<{ keys: Uint32Array; values: Uint32Array }> {
  ctx.assertUsable();
  if (values.length !== keys.length) {
    throw new RangeError(`values has ${values.length} entries, keys ${keys.length}`);
  }
  const longest = checkSegmentOffsets(offsets, keys.length);
  const count = keys.length;
  if (count < 2 || longest < 2) return { keys: keys.slice(), values: values.slice() };
  const buffers: GPUBuffer[] = [];
  try {
    const upload = async (data: Uint32Array, label: string) => {
      const buffer = await uploadStorage(ctx, data, label, BufferUsage.COPY_SRC);
      buffers.push(buffer);
      return buffer;
    };
    const keyBuffer = await upload(keys, 'segmented-sort keys');
    const valueBuffer = await upload(values, 'segmented-sort values');
    const offsetBuffer = await upload(offsets, 'segmented-sort offsets');
    await submitChecked(ctx, 'segmented-sort', (encoder) =>
      encodeSegmentedSort(ctx, encoder, {
        keys: keyBuffer,
        values: valueBuffer,
        segmentOffsets: offsetBuffer,
        segments: offsets.length - 1,
        count,
        maxSegmentLength: longest,
      }),
    );
    return {
      keys: await readback(ctx, keyBuffer, new Uint32Array(count)),
      values: await readback(ctx, valueBuffer, new Uint32Array(count)),
    };
  } finally {
    for (const b of buffers) b.destroy();
  }
}

/**
 * Order-preserving u32 bits of f32 values: unsigned order of the results is the numeric order of
 * the inputs, with -0 just below +0, -Infinity and +Infinity at the ends, and NaNs (positive sign
 * bit) after +Infinity, negative-signed NaNs before -Infinity. Positive values get their sign bit
 * set, negative ones all bits flipped. The same mapping in WGSL is
 * `select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u)`.
 */
export function orderedF32Bits(values: Float32Array): Uint32Array {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  return Uint32Array.from(bits, (b) => (b & 0x80000000 ? ~b : b | 0x80000000) >>> 0);
}

/**
 * {@link segmentedSortAlone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function segmentedSort(
  ...args: Parameters<typeof segmentedSortAlone>
): ReturnType<typeof segmentedSortAlone> {
  return runExclusive(args[0], () => segmentedSortAlone(...args));
}
