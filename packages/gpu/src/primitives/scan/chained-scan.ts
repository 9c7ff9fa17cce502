import type { GpuContext } from '../../runtime/gpu-context.js';
import { elementRange, type PlannedDispatch, planned, recordDispatches } from '../dispatch-recorder.js';
import { scratchBuffer } from '../scratch.js';
import { CHAINED_SCAN_KERNEL } from './chained-scan-kernel.js';
import { CHAINED_VEC4_SCAN_KERNEL, type ChainedVec4Constants } from './chained-scan-vec4-kernel.js';
import type { ScanArgs, ScanInternals } from './encode-scan.js';
import { SCAN_ITEMS_PER_THREAD, SCAN_TILE, SCAN_WORKGROUP_SIZE, scanPlan } from './scan-plan.js';

/** Default polls of a silent predecessor before reducing its tile ({@link ScanOptions.lookbackSpins}). */
export const DEFAULT_LOOKBACK_SPINS = 64;

/** vec4<u32> per thread of the vectorized chained scan (tiles of 256 × 4 × 4 = 4096 elements). */
export const DEFAULT_CHAINED_VECTORS = 4;

/**
 * The `'chained'` variant of `encodeScan` (arguments already validated, count > 0): one dispatch
 * per segment, each after clearing the tile counter and status words. In place, the input range
 * is first copied to a scratch buffer, because a workgroup falling back to reduce a predecessor's
 * tile must read that tile's input, which its owner may be overwriting; this needs `COPY_SRC` on
 * the buffer and costs one extra read and write.
 */
export async function encodeChainedScan(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  args: ScanArgs,
  internals: ScanInternals,
): Promise<void> {
  const spins = args.lookbackSpins ?? DEFAULT_LOOKBACK_SPINS;
  if (!Number.isInteger(spins) || spins < 0) throw new RangeError(`encodeScan: lookbackSpins ${spins}`);
  const vectors = internals.vectorsPerThread ?? DEFAULT_CHAINED_VECTORS;
  const subgroups = (args.useSubgroups ?? true) && ctx.features.subgroups;
  const tile = subgroups ? SCAN_WORKGROUP_SIZE * 4 * vectors : SCAN_TILE;
  const plan = scanPlan(ctx, args, tile);
  const count = args.count;
  let input = args.input;
  let inputOffset = args.inputOffset ?? 0;
  const outputOffset = args.outputOffset ?? 0;
  if (input === args.output) {
    const copy = scratchBuffer(ctx, 'scan/chained-input', count * 4);
    encoder.copyBufferToBuffer(input, inputOffset * 4, copy, 0, count * 4);
    input = copy;
    inputOffset = 0;
  }
  const carry = scratchBuffer(ctx, 'scan/carry', 16);
  encoder.clearBuffer(carry, 0, 16);
  const nonzero = internals.nonzero ?? false;
  // only when set, so the default pipelines keep their cache keys
  const knob: Record<string, boolean> = internals.ignorePublished ? { ignorePublished: true } : {};
  for (let s = 0, k = 0; s < count; s += plan.segment, k++) {
    const n = Math.min(plan.segment, count - s);
    const tiles = Math.ceil(n / tile);
    const statusBytes = (subgroups ? 2 + 2 * tiles : 1 + 4 * tiles) * 4;
    const status = scratchBuffer(ctx, 'scan/chained-status', statusBytes);
    encoder.clearBuffer(status, 0, statusBytes);
    const params = (src: { base: number }, dst: { base: number }) => [
      n,
      src.base,
      dst.base,
      tiles,
      k % 2,
      (k + 1) % 2,
      args.inclusive ? 1 : 0,
      spins,
    ];
    const common = { status: { buffer: status, offset: 0, size: statusBytes }, carry };
    let dispatch: PlannedDispatch;
    if (subgroups) {
      const vecSrc = vec4Range(ctx, input, inputOffset + s, n);
      const vecDst = vec4Range(ctx, args.output, outputOffset + s, n);
      const src = vecSrc ?? elementRange(ctx, input, inputOffset + s, n);
      const dst = vecDst ?? elementRange(ctx, args.output, outputOffset + s, n);
      dispatch = planned(CHAINED_VEC4_SCAN_KERNEL, {
        constants: {
          workgroupSize: SCAN_WORKGROUP_SIZE,
          vectors,
          nonzero,
          vecIn: vecSrc !== null,
          vecOut: vecDst !== null,
          ...knob,
        } satisfies ChainedVec4Constants,
        params: params(src, dst),
        buffers: {
          src: { buffer: input, offset: src.offset, size: src.size },
          dst: { buffer: args.output, offset: dst.offset, size: dst.size },
          ...common,
        },
        workgroups: tiles,
      });
    } else {
      const src = elementRange(ctx, input, inputOffset + s, n);
      const dst = elementRange(ctx, args.output, outputOffset + s, n);
      dispatch = planned(CHAINED_SCAN_KERNEL, {
        constants: {
          workgroupSize: SCAN_WORKGROUP_SIZE,
          subgroups: false,
          items: SCAN_ITEMS_PER_THREAD,
          nonzero,
          inPlace: false,
          ...knob,
        },
        params: params(src, dst),
        buffers: {
          src: { buffer: input, offset: src.offset, size: src.size },
          dst: { buffer: args.output, offset: dst.offset, size: dst.size },
          ...common,
        },
        workgroups: tiles,
      });
    }
    await recordDispatches(ctx, encoder, 'scan/chained', [dispatch], plan.maxPerDimension);
  }
}

/**
 * A binding of `count` elements from element `first` as whole vec4<u32>s, or null when element
 * `first` is not 16-byte aligned in its binding or the rounded-up range does not fit the buffer.
 */
function vec4Range(
  ctx: GpuContext,
  buffer: GPUBuffer,
  first: number,
  count: number,
): { offset: number; size: number; base: number } | null {
  const r = elementRange(ctx, buffer, first, count);
  const size = Math.ceil(r.size / 16) * 16;
  if (r.base % 4 !== 0 || r.offset + size > buffer.size) return null;
  return { offset: r.offset, size, base: r.base };
}
