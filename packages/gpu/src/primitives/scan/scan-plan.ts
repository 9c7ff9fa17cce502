import { DEFAULT_MAX_WORKGROUPS_PER_DIMENSION } from '../../runtime/dispatch.js';
import type { GpuContext } from '../../runtime/gpu-context.js';

/** Which scan algorithm {@link encodeScan} records. */
export type ScanVariant = 'reduce-then-scan' | 'chained';

/** Threads per workgroup of the scan kernels. */
export const SCAN_WORKGROUP_SIZE = 256;
/** Elements per thread of the reduce-then-scan kernels. */
export const SCAN_ITEMS_PER_THREAD = 8;
/** Elements per workgroup tile of the reduce-then-scan kernels. */
export const SCAN_TILE = SCAN_WORKGROUP_SIZE * SCAN_ITEMS_PER_THREAD;

/** Tuning and test knobs of {@link encodeScan}; the defaults suit real use. */
export interface ScanOptions {
  /**
   * `'chained'`: the single-pass look-back scan (the default where subgroups are available and
   * used); `'reduce-then-scan'`: three passes, no waiting between workgroups (the default otherwise).
   */
  variant?: ScanVariant;
  /** Use subgroup operations when the device has them (default true); false forces the workgroup-memory path. */
  useSubgroups?: boolean;
  /** Largest range bound at once, in bytes; default the device's `maxStorageBufferBindingSize`. */
  maxBindingBytes?: number;
  /** Workgroups per dispatch dimension before splitting over y; default the device limit. */
  maxWorkgroupsPerDimension?: number;
  /**
   * Chained only: polls of a predecessor's status before the waiting workgroup reduces the
   * predecessor's tile itself (default 64). 0 makes every wait fall back at once (for tests).
   */
  lookbackSpins?: number;
}

/** Resolved options shared by both variants. */
export interface ScanPlan {
  subgroups: boolean;
  /** Elements per segment: a multiple of the tile that fits one binding with alignment slack. */
  segment: number;
  maxPerDimension: number;
}

/** Resolves {@link ScanOptions} against the device. @throws RangeError for a binding too small for one tile. */
export function scanPlan(ctx: GpuContext, options: ScanOptions, tile = SCAN_TILE): ScanPlan {
  const limits = ctx.limits;
  const maxBinding = Math.min(
    options.maxBindingBytes ?? limits.maxStorageBufferBindingSize,
    limits.maxStorageBufferBindingSize,
    limits.maxBufferSize,
  );
  const segment = Math.floor((maxBinding - limits.minStorageBufferOffsetAlignment) / 4 / tile) * tile;
  if (segment < tile) throw new RangeError(`scan: a binding of ${maxBinding} bytes cannot hold one tile`);
  return {
    subgroups: (options.useSubgroups ?? true) && ctx.features.subgroups,
    segment,
    maxPerDimension: Math.min(
      options.maxWorkgroupsPerDimension ?? DEFAULT_MAX_WORKGROUPS_PER_DIMENSION,
      limits.maxComputeWorkgroupsPerDimension,
    ),
  };
}
