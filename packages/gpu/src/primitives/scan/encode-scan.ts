import type { GpuContext } from '../../runtime/gpu-context.js';
import { BufferUsage } from '../../runtime/usage.js';
import { elementRange, type PlannedDispatch, planned, recordDispatches } from '../dispatch-recorder.js';
import { scratchBuffer } from '../scratch.js';
import { DEFAULT_CHAINED_VECTORS, encodeChainedScan } from './chained-scan.js';
import { SCAN_DOWNSWEEP_KERNEL, SCAN_REDUCE_KERNEL, type ScanKernelConstants } from './scan-kernels.js';
import {
  SCAN_ITEMS_PER_THREAD,
  SCAN_TILE,
  SCAN_WORKGROUP_SIZE,
  type ScanOptions,
  type ScanVariant,
  scanPlan,
} from './scan-plan.js';

/** What {@link encodeScan} scans. Offsets and counts are in u32 elements. */
export interface ScanArgs extends ScanOptions {
  input: GPUBuffer;
  output: GPUBuffer;
  count: number;
  /** Inclusive (`out[i] = in[0] + … + in[i]`) instead of exclusive (`out[i] = in[0] + … + in[i-1]`, `out[0] = 0`). */
  inclusive?: boolean;
  inputOffset?: number;
  outputOffset?: number;
}

/** Internal extras used by compaction: read inputs as 0/1 (non-zero → 1). */
export interface ScanInternals {
  nonzero?: boolean;
  /** Chained scan with subgroups: vec4<u32> loads per thread (tile = 1024 × this); for benchmarks. */
  vectorsPerThread?: number;
  /**
   * Chained scan, for tests: the look-back ignores every published state, so each tile reduces
   * all its predecessors through the fallback (what happens when no other workgroup runs).
   */
  ignorePublished?: boolean;
}

/**
 * Records a sum scan of `count` u32 values (wrapping modulo 2^32) of `input` from element
 * `inputOffset` into `output` from element `outputOffset`, exclusive by default. Nothing is
 * submitted: the caller submits `encoder` (the scan sees what earlier commands in it wrote).
 *
 * - `input === output` with equal offsets scans in place; within one buffer the ranges must
 *   otherwise be disjoint… and are rejected: WebGPU cannot bind one buffer as both read-only and
 *   writable storage in a dispatch, so different offsets in one buffer throw a RangeError.
 * - `count` 0 records nothing. Any size works: grids over the per-dimension workgroup limit are
 *   split over x and y, and ranges longer than one storage binding (`maxStorageBufferBindingSize`)
 *   are scanned in segments that pass a running carry through a 4-word scratch buffer.
 * - Temporaries (block sums per level, carry) come from {@link scratchBuffer} of this context,
 *   so scans recorded one after another (also into one encoder) share them safely.
 * - Buffers need `STORAGE` usage; offsets need not be aligned (bindings are rounded down to
 *   `minStorageBufferOffsetAlignment` and the remainder is passed to the kernel).
 *
 * Variant (see {@link resolveScanVariant}): by default the chained scan where subgroups exist: one
 * pass, tiles of 4096 elements loaded as vec4s, decoupled look-back with a fallback that needs no
 * forward progress; it reads once and writes once (in place it first copies the input to
 * scratch). Reduce-then-scan (the default without subgroups): per tile of 2048 elements a sum
 * (pass 1), a scan of the tile sums (recursively; one workgroup when at most 2048 tiles), and a
 * rescan of each tile adding its prefix (pass 3): 2 reads and 1 write. See ADR 0008.
 *
 * @throws RangeError for a bad count or offset, ranges past a buffer's end, or overlapping
 *   distinct ranges of one buffer; GpuDeviceLostError when the device is lost;
 *   GpuValidationError when a kernel does not compile.
 */
export async function encodeScan(ctx: GpuContext, encoder: GPUCommandEncoder, args: ScanArgs): Promise<void> {
  return encodeScanWith(ctx, encoder, args, {});
}

/** {@link encodeScan} with internal extras (see {@link ScanInternals}). */
export async function encodeScanWith(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: ScanArgs,
  internals: ScanInternals,
): Promise<void> {
  ctx.assertUsable();
  const count = args.count;
  const inputOffset = args.inputOffset ?? 0;
  const outputOffset = args.outputOffset ?? 0;
  for (const [name, v] of [
    ['count', count],
    ['inputOffset', inputOffset],
    ['outputOffset', outputOffset],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 0)
      throw new RangeError(`encodeScan: ${name} ${v} is not a valid count`);
  }
  const inPlace = args.input === args.output;
  if (inPlace && inputOffset !== outputOffset) {
    throw new RangeError('encodeScan: input and output are one buffer but inputOffset !== outputOffset');
  }
  if ((inputOffset + count) * 4 > args.input.size || (outputOffset + count) * 4 > args.output.size) {
    throw new RangeError(`encodeScan: ${count} elements do not fit the input or output buffer`);
  }
  if (count === 0) return;
  if (resolveScanVariant(ctx, args) === 'chained') {
    return encodeChainedScan(ctx, encoder, args, internals);
  }
  const plan = scanPlan(ctx, args);
  const base = {
    workgroupSize: SCAN_WORKGROUP_SIZE,
    subgroups: plan.subgroups,
    items: SCAN_ITEMS_PER_THREAD,
  };
  const carry = scratchBuffer(ctx, 'scan/carry', 16);
  const zero = scratchBuffer(ctx, 'scan/zero', 16);
  encoder.clearBuffer(carry, 0, 16);
  encoder.clearBuffer(zero, 0, 16);
  const dispatches: PlannedDispatch[] = [];

  /** Plans the scan of `n` elements; `src`/`dst` are bound ranges, `level` names the block-sum scratch. */
  const planLevel = (
    n: number,
    src: Bound,
    dst: Bound,
    level: number,
    carrySlots: [number, number],
    inclusive: boolean,
    nonzero: boolean,
  ): void => {
    const blocks = Math.ceil(n / SCAN_TILE);
    const same = src.buffer === dst.buffer;
    let prefixes: GPUBuffer = zero;
    if (blocks > 1) {
      prefixes = scratchBuffer(ctx, `scan/sums/${level}`, blocks * 4);
      dispatches.push(
        planned(SCAN_REDUCE_KERNEL, {
          constants: { ...base, nonzero, inPlace: false } satisfies ScanKernelConstants,
          params: [n, src.base, 0, blocks, 0, 0, 0, 0],
          buffers: { src: src.entry, sums: { buffer: prefixes, offset: 0, size: blocks * 4 } },
          workgroups: blocks,
        }),
      );
      const sums: Bound = {
        buffer: prefixes,
        base: 0,
        entry: { buffer: prefixes, offset: 0, size: blocks * 4 },
      };
      planLevel(blocks, sums, sums, level + 1, [2, 3], false, false);
    }
    dispatches.push(
      planned(SCAN_DOWNSWEEP_KERNEL, {
        constants: { ...base, nonzero, inPlace: same } satisfies ScanKernelConstants,
        params: [
          n,
          src.base,
          dst.base,
          blocks,
          carrySlots[0],
          carrySlots[1],
          inclusive ? 1 : 0,
          blocks > 1 ? 1 : 0,
        ],
        buffers: same
          ? { data: src.entry, prefixes, carry }
          : { src: src.entry, dst: dst.entry, prefixes, carry },
        workgroups: blocks,
      }),
    );
  };

  for (let s = 0, k = 0; s < count; s += plan.segment, k++) {
    const n = Math.min(plan.segment, count - s);
    const src = bindRange(ctx, args.input, inputOffset + s, n);
    const dst = inPlace ? src : bindRange(ctx, args.output, outputOffset + s, n);
    planLevel(n, src, dst, 0, [k % 2, (k + 1) % 2], args.inclusive ?? false, internals.nonzero ?? false);
  }
  await recordDispatches(ctx, encoder, 'scan', dispatches, plan.maxPerDimension);
}

/**
 * The variant {@link encodeScan} runs: `args.variant`, else `'chained'` (vectorized single pass,
 * ≈1.4× a copy on an H100) where subgroups are available and used and `maxBindingBytes` (when
 * set) holds one of its 4096-element tiles and, in place, the buffer has `COPY_SRC` usage; else
 * `'reduce-then-scan'` (without subgroups the chained scan's workgroup-memory kernel is slower).
 */
export function resolveScanVariant(ctx: GpuContext, args: ScanArgs): ScanVariant {
  if (args.variant) return args.variant;
  if (!((args.useSubgroups ?? true) && ctx.features.subgroups)) return 'reduce-then-scan';
  // in place, the chained scan first copies the input, which needs COPY_SRC
  if (args.input === args.output && (args.input.usage & BufferUsage.COPY_SRC) === 0)
    return 'reduce-then-scan';
  // a binding cap (test knob) below one chained tile: the smaller tiles of reduce-then-scan
  const maxBinding = args.maxBindingBytes ?? Number.POSITIVE_INFINITY;
  const chainedTile = SCAN_WORKGROUP_SIZE * 4 * DEFAULT_CHAINED_VECTORS;
  return maxBinding - ctx.limits.minStorageBufferOffsetAlignment >= chainedTile * 4
    ? 'chained'
    : 'reduce-then-scan';
}

/** A bound element range: the binding and where element 0 of the range lies in it. */
interface Bound {
  buffer: GPUBuffer;
  base: number;
  entry: { buffer: GPUBuffer; offset: number; size: number };
}

function bindRange(ctx: GpuContext, buffer: GPUBuffer, first: number, count: number): Bound {
  const { offset, size, base } = elementRange(ctx, buffer, first, count);
  return { buffer, base, entry: { buffer, offset, size } };
}
