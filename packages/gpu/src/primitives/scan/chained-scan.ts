import type { GpuContext } from '../../runtime/gpu-context.js';
import type { ScanArgs, ScanInternals } from './encode-scan.js';

export async function encodeChainedScan(
  _ctx: GpuContext,
  _encoder: GPUCommandEncoder,
  _args: ScanArgs,
  _internals: ScanInternals,
): Promise<void> {
  throw new Error('todo');
}
