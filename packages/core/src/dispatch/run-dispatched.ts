import {
  type DeviceOption,
  type DispatchEvent,
  type ExecutionPath,
  emitDispatch,
} from './dispatch-events.js';

/**
 * Error codes of GPU failures that a CPU run can replace: no adapter, a lost device, out of
 * memory, a GPU path that declined the input, a run past its deadline (the watchdog abandoned
 * it), a kernel loop at its iteration bound (its result discarded), kernels still compiling for
 * their first use under 'auto' (the CPU answers meanwhile). (Matched by code: core does
 * not depend on @geoframe/gpu, whose errors carry them.) A validation error is a bug in a kernel
 * and is never hidden behind a fallback.
 */
export const RECOVERABLE_GPU_ERRORS: ReadonlySet<string> = new Set([
  'GPU_UNAVAILABLE',
  'GPU_DEVICE_LOST',
  'GPU_OUT_OF_MEMORY',
  'GPU_DECLINED',
  'GPU_TIMEOUT',
  'GPU_LOOP_LIMIT',
  'GPU_PRECISION',
  'GPU_COMPILING',
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

/** What the GPU path of {@link runDispatched} may report while it runs. */
export interface GpuRunReport {
  /**
   * One stage of the GPU run went elsewhere (e.g. the Delaunay stage to the CPU because a star
   * could not be certified): emitted at once as a `fallback` event naming the stage, and it
   * becomes the run's decision. Reported once per run; later calls are ignored.
   */
  stageFallback(stage: string, reason: string, path?: ExecutionPath): void;
}

/** The value of a dispatched run and the decision that produced it. */
export interface Dispatched<T> {
  value: T;
  /**
   * The event that ran: the planned decision, or the `fallback` event when one happened (the
   * whole run on the CPU, or one stage of it, see {@link DispatchEvent.stage}).
   */
  decision: DispatchEvent;
}

/**
 * Runs the path `decision` chose (see `planDispatch`; the decision is emitted first) and returns
 * the value with the decision that ran, so concurrent calls each know their own outcome without
 * a listener. When the GPU run fails with a recoverable GPU error and the caller asked for
 * `'auto'`, the CPU runs instead and a `fallback` event says why; with `'gpu'` the typed error
 * reaches the caller. Listeners (`onDispatch`) still see every event, and `listener`, when
 * given, sees this run's events only.
 * A `GPU_PRECISION` decline runs the CPU under `'gpu'` too (the same event): the contract is the
 * CPU's output.
 */
export async function runDispatched<T>(
  decision: DispatchEvent,
  device: DeviceOption,
  paths: { gpu: (report: GpuRunReport) => Promise<T>; cpu: () => Promise<T> | T },
  listener?: (event: DispatchEvent) => void,
): Promise<Dispatched<T>> {
  const emit = (event: DispatchEvent) => {
    emitDispatch(event);
    try {
      listener?.(event);
    } catch {
      // a listener is an observer; its failure is its own
    }
  };
  emit(decision);
  if (decision.path === 'cpu') return { value: await paths.cpu(), decision };
  let ran = decision;
  const report: GpuRunReport = {
    stageFallback(stage, reason, path = 'cpu') {
      if (ran !== decision) return;
      ran = { ...decision, type: 'fallback', path, stage, reason: `${stage} stage: ${reason}` };
      emit(ran);
    },
  };
  try {
    return { value: await paths.gpu(report), decision: ran };
  } catch (error) {
    if (!isRecoverableGpuError(error)) throw error;
    const code = (error as { code: string }).code;
    if (device !== 'auto' && !DECLINED_GPU_ERRORS.has(code)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const fallback: DispatchEvent = {
      ...decision,
      type: 'fallback',
      path: 'cpu',
      reason: `${code}: ${message}; ran on the CPU`,
    };
    emit(fallback);
    return { value: await paths.cpu(), decision: fallback };
  }
}
