import { GeoframeError } from '@geoframe/core';

/**
 * No WebGPU device can be had: no `navigator.gpu` and no loadable `webgpu` package, no adapter,
 * a required feature missing, or `requestDevice` failing. `reason` says which, in words.
 */
export class GpuUnavailableError extends GeoframeError {
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super('GPU_UNAVAILABLE', `no WebGPU device: ${reason}`, options);
    this.name = 'GpuUnavailableError';
    this.reason = reason;
  }
}

/**
 * The device was lost (driver reset, `destroy()`, another process took the GPU). Every later use
 * of the context throws this; a fresh context must be created (`getGpuContext()` does so itself).
 */
export class GpuDeviceLostError extends GeoframeError {
  /** `'destroyed'` after an explicit `destroy()`, `'unknown'` otherwise (the WebGPU reasons). */
  readonly reason: string;
  constructor(reason: string, message: string) {
    super('GPU_DEVICE_LOST', `the WebGPU device was lost (${reason}): ${message}`);
    this.name = 'GpuDeviceLostError';
    this.reason = reason;
  }
}

/** An allocation failed in an `out-of-memory` error scope. `bytes` is the size that was asked for. */
export class GpuOutOfMemoryError extends GeoframeError {
  readonly label: string;
  readonly bytes: number;
  constructor(label: string, bytes: number, message: string) {
    super('GPU_OUT_OF_MEMORY', `out of GPU memory allocating ${bytes} bytes for ${label}: ${message}`);
    this.name = 'GpuOutOfMemoryError';
    this.label = label;
    this.bytes = bytes;
  }
}

/**
 * WebGPU rejected something a kernel did: a shader that does not compile, a bind group that does
 * not match, a buffer over a limit. `kernel` names the kernel (or buffer label) it happened in.
 */
export class GpuValidationError extends GeoframeError {
  readonly kernel: string;
  constructor(kernel: string, message: string, options?: { cause?: unknown }) {
    super('GPU_VALIDATION', `${kernel}: ${message}`, options);
    this.name = 'GpuValidationError';
    this.kernel = kernel;
  }
}

/**
 * The GPU path declined to answer: it could not be sure of the answer on the device, or it needed
 * a CPU stage that was not handed in (see `CpuStages`). Like an unavailable GPU, `'auto'`
 * dispatch answers it with a CPU run and a `fallback` event naming the reason.
 */
export class GpuDeclinedError extends GeoframeError {
  readonly reason: string;
  constructor(reason: string) {
    super('GPU_DECLINED', `the GPU path declined: ${reason}`);
    this.name = 'GpuDeclinedError';
    this.reason = reason;
  }
}

/**
 * A GPU run passed its deadline (see `runOnGpu`): the run was abandoned and its device with it
 * (the next `getGpuContext()` makes a fresh one). Recoverable: under `device: 'auto'` the CPU runs
 * instead. `ms` is the deadline that passed, `work` what ran.
 */
export class GpuTimeoutError extends GeoframeError {
  readonly work: string;
  readonly ms: number;
  /** Pipeline-creation time the deadline was extended by (first use of kernels), in ms. */
  readonly compileMs: number;
  constructor(work: string, ms: number, compileMs = 0) {
    const compiled = compileMs > 0 ? ` (plus ${Math.round(compileMs)} ms compiling pipelines)` : '';
    super(
      'GPU_TIMEOUT',
      `${work} did not finish on the GPU within ${ms} ms${compiled}; the device was abandoned ` +
        '(deadline: the option timeoutMs or GEOFRAME_GPU_TIMEOUT_MS)',
    );
    this.name = 'GpuTimeoutError';
    this.work = work;
    this.ms = ms;
    this.compileMs = compileMs;
  }
}

/**
 * A kernel loop reached its proven maximum number of iterations (a walk that does not close, a
 * search that does not end): the kernel stopped and raised a fault flag instead of spinning or
 * writing a result it cannot vouch for. Recoverable (the CPU answers under 'auto'); `kernel`
 * names the kernel, `flags` the fault bits it raised.
 */
export class GpuLoopLimitError extends GeoframeError {
  readonly kernel: string;
  readonly flags: number;
  constructor(kernel: string, flags: number) {
    super(
      'GPU_LOOP_LIMIT',
      `${kernel}: a kernel loop reached its iteration bound (fault flags 0x${flags.toString(16)}); ` +
        'its result was discarded',
    );
    this.name = 'GpuLoopLimitError';
    this.kernel = kernel;
    this.flags = flags;
  }
}

/**
 * An \`'auto'\` run met its operation's GPU kernels still compiling for the first time on this
 * device (a driver whose shader cache is cold compiles the exact Delaunay kernels for tens of
 * seconds): the CPU answers this call while the compilation goes on in the background, and later
 * calls take the GPU once it is done. Recoverable; never raised under \`'gpu'\`, which waits.
 */
export class GpuCompilingError extends GeoframeError {
  readonly work: string;
  readonly waitedMs: number;
  constructor(work: string, waitedMs: number) {
    super(
      'GPU_COMPILING',
      `the GPU kernels of ${work} were still compiling for their first use on this device after ` +
        `${waitedMs} ms (the driver's shader cache is cold; later calls use the GPU once they are ready)`,
    );
    this.name = 'GpuCompilingError';
    this.work = work;
    this.waitedMs = waitedMs;
  }
}

/**
 * The GPU declines an input it cannot answer exactly as the CPU would: its fixed-point grid
 * rounds sites in a way that could change a predicate or move a vertex past the tolerance, or
 * the input is too clustered for the star search to finish in bounded time (adr/0020). Not a
 * failure of the device: dispatch answers it with the CPU under `'auto'` and `'gpu'` alike and
 * emits a `fallback` event carrying `reason`.
 */
export class GpuPrecisionError extends GeoframeError {
  /** What the guard found, in words (e.g. "3 triangles touching rounded sites are uncertain"). */
  readonly reason: string;
  constructor(reason: string) {
    super('GPU_PRECISION', `the GPU's fixed-point grid cannot answer this input exactly: ${reason}`);
    this.name = 'GpuPrecisionError';
    this.reason = reason;
  }
}

/**
 * A device-resident result was used after `destroy()` (or after it was handed to the garbage
 * collector's clean-up): its GPU buffers are gone, so nothing can be read from it. Not
 * recoverable by a fallback: the caller holds a released value. `what` names the result.
 */
export class GpuResultReleasedError extends GeoframeError {
  readonly what: string;
  constructor(what: string) {
    super('GPU_RESULT_RELEASED', `${what} was destroyed: its GPU buffers are released`);
    this.name = 'GpuResultReleasedError';
    this.what = what;
  }
}
