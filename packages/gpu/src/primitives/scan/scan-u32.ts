import { readback, uploadStorage } from '../../runtime/buffers.js';
import { GpuValidationError } from '../../runtime/errors.js';
import type { GpuContext } from '../../runtime/gpu-context.js';
import { runExclusive } from '../../runtime/run-queue.js';
import { BufferUsage } from '../../runtime/usage.js';
import { encodeScan } from './encode-scan.js';
import type { ScanOptions } from './scan-plan.js';

/** Options of {@link scanU32}. */
export interface ScanU32Options extends ScanOptions {
  /** Inclusive instead of exclusive (default). */
  inclusive?: boolean;
}

/**
 * The exclusive (default) or inclusive prefix sums of `values` modulo 2^32, computed on the GPU
 * with {@link encodeScan} (upload, scan in place, read back). A new array; `values` is unchanged.
 * An empty input gives an empty output without touching the device.
 *
 * @throws GpuDeviceLostError, GpuOutOfMemoryError, GpuValidationError (kernel `'scan'`).
 */
async function scanU32Alone(
  ctx: GpuContext,
  values: Uint32Array,
  options: ScanU32Options = {},
): Promise<Uint32Array> {
  ctx.assertUsable();
  const result = new Uint32Array(values.length);
  if (values.length === 0) return result;
  const buffer = await uploadStorage(ctx, values, 'scan data', BufferUsage.COPY_SRC);
  try {
    const device = ctx.device;
    device.pushErrorScope('validation');
    let thrown: unknown;
    try {
      const encoder = device.createCommandEncoder({ label: 'scan' });
      await encodeScan(ctx, encoder, { ...options, input: buffer, output: buffer, count: values.length });
      device.queue.submit([encoder.finish()]);
    } catch (error) {
      thrown = error;
    }
    const error = await device.popErrorScope();
    if (thrown) throw thrown;
    if (error) throw new GpuValidationError('scan', error.message);
    return await readback(ctx, buffer, result);
  } finally {
    buffer.destroy();
  }
}

/**
 * {@link scanU32Alone}, queued on the context with its other runs (one at a time, see
 * `runExclusive`): concurrent calls never share the context's temporaries.
 */
export function scanU32(...args: Parameters<typeof scanU32Alone>): ReturnType<typeof scanU32Alone> {
  return runExclusive(args[0], () => scanU32Alone(...args));
}
