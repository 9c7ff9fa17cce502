import type { GpuContext } from '../../runtime/gpu-context.js';
import { elementRange, recordDispatches } from '../dispatch-recorder.js';
import { scratchBuffer } from '../scratch.js';
import { CHAINED_SCAN_KERNEL } from './chained-scan-kernel.js';
import type { ScanArgs, ScanInternals } from './encode-scan.js';
import { SCAN_ITEMS_PER_THREAD, SCAN_TILE, SCAN_WORKGROUP_SIZE, scanPlan } from './scan-plan.js';

/** Default polls of a silent predecessor before reducing its tile ({@link ScanOptions.lookbackSpins}). */
export const DEFAULT_LOOKBACK_SPINS = 64;

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
  const plan = scanPlan(ctx, args);
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
  const spins = args.lookbackSpins ?? DEFAULT_LOOKBACK_SPINS;
  if (!Number.isInteger(spins) || spins < 0) throw new RangeError(`encodeScan: lookbackSpins ${spins}`);
  const constants = {
    workgroupSize: SCAN_WORKGROUP_SIZE,
    subgroups: plan.subgroups,
    items: SCAN_ITEMS_PER_THREAD,
    nonzero: internals.nonzero ?? false,
    inPlace: false,
  };
  for (let s = 0, k = 0; s < count; s += plan.segment, k++) {
    const n = Math.min(plan.segment, count - s);
    const tiles = Math.ceil(n / SCAN_TILE);
    const statusBytes = (1 + 4 * tiles) * 4;
    const status = scratchBuffer(ctx, 'scan/chained-status', statusBytes);
    encoder.clearBuffer(status, 0, Math.ceil(statusBytes / 4) * 4);
    const src = elementRange(ctx, input, inputOffset + s, n);
    const dst = elementRange(ctx, args.output, outputOffset + s, n);
    await recordDispatches(
      ctx,
      encoder,
      'scan/chained',
      [
        {
          kernel: CHAINED_SCAN_KERNEL,
          constants,
          params: [n, src.base, dst.base, tiles, k % 2, (k + 1) % 2, args.inclusive ? 1 : 0, spins],
          entries: [
            { binding: 1, buffer: input, offset: src.offset, size: src.size },
            { binding: 2, buffer: args.output, offset: dst.offset, size: dst.size },
            { binding: 3, buffer: status, offset: 0, size: statusBytes },
            { binding: 4, buffer: carry },
          ],
          workgroups: tiles,
        },
      ],
      plan.maxPerDimension,
    );
  }
}
