import { type DeviceOption, type DispatchEvent, emitDispatch } from './dispatch-events.js';

/**
 * Error codes of GPU failures that a CPU run can replace: no adapter, a lost device, out of
 * memory. (Matched by code: core does not depend on @geoframe/gpu, whose errors carry them.)
 * A validation error is a bug in a kernel and is never hidden behind a fallback.
 */
export const RECOVERABLE_GPU_ERRORS: ReadonlySet<string> = new Set([
  'GPU_UNAVAILABLE',
  'GPU_DEVICE_LOST',
  'GPU_OUT_OF_MEMORY',
  'GPU_PRECISION',
]);

/**
 * Codes a CPU run replaces under `'gpu'` too: the GPU declined an input it cannot answer exactly
 * (adr/0020), and the operation's contract is the CPU's output, so the caller still gets it.
 */
export const DECLINED_GPU_ERRORS: ReadonlySet<string> = new Set(['GPU_PRECISION']);

/** Whether `error` is a GPU failure that {@link runDispatched} may answer with a CPU run. */
export function isRecoverableGpuError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RECOVERABLE_GPU_ERRORS.has(code);
}

/**
 * Runs the path `decision` chose (see `planDispatch`; the decision is emitted first). When the
 * GPU run fails with a recoverable GPU error and the caller asked for `'auto'`, the CPU runs
 * instead and a `fallback` event says why; with `'gpu'` the typed error reaches the caller, except
 * a `GPU_PRECISION` decline, which runs the CPU under `'gpu'` too (same event).
 */
export async function runDispatched<T>(
  decision: DispatchEvent,
  device: DeviceOption,
  paths: { gpu: () => Promise<T>; cpu: () => Promise<T> | T },
): Promise<T> {
  emitDispatch(decision);
  if (decision.path === 'cpu') return paths.cpu();
  try {
    return await paths.gpu();
  } catch (error) {
    if (!isRecoverableGpuError(error)) throw error;
    const code = (error as { code: string }).code;
    if (device !== 'auto' && !DECLINED_GPU_ERRORS.has(code)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    emitDispatch({
      ...decision,
      type: 'fallback',
      path: 'cpu',
      reason: `${code}: ${message}; ran on the CPU`,
    });
    return paths.cpu();
  }
}
