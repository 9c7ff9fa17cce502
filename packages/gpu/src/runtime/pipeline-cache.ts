import { GpuValidationError } from './errors.js';
import { type BindingLayout, bindingMismatch } from './kernel-bindings.js';

/** Values a kernel's WGSL source is generated from (workgroup size, …); part of the cache key. */
export type KernelConstants = Readonly<Record<string, number | string | boolean>>;

/**
 * A compute kernel: a name, its WGSL source as a function of its constants, and its buffers by
 * name (checked against the WGSL when the pipeline is created; see `kernel-bindings.ts`).
 */
export interface KernelSpec<
  C extends KernelConstants = KernelConstants,
  L extends BindingLayout = BindingLayout,
> {
  /** Unique among kernels, e.g. `'scan/reduce'`; names the kernel in errors. */
  name: string;
  /** WGSL with the constants interpolated. Called once per distinct constants. */
  source: (constants: C) => string;
  /** Entry point; default `'main'`. */
  entryPoint?: string;
  /**
   * `{name: binding}` of its buffers (binding 0 only where it is not the parameter block). Every
   * kernel of the engine declares them (`kernel-bindings.test.ts`); absent only on ad-hoc kernels
   * of tests and benches, whose bindings are then not checked.
   */
  bindings?: L;
}

/** A kernel that names its bindings. */
export type NamedKernel<C extends KernelConstants, L extends BindingLayout> = KernelSpec<C, L> & {
  bindings: L;
};

/**
 * `spec` with its binding names kept as literal types, so call sites are checked against them;
 * the constants' type comes from `source`'s parameter.
 */
export function defineKernel<C extends KernelConstants, const L extends BindingLayout>(spec: {
  name: string;
  source: (constants: C) => string;
  entryPoint?: string;
  bindings: L;
}): NamedKernel<C, L> {
  return spec;
}

/** A kernel's constants as a trailing argument: optional for a kernel without any. */
export type ConstantsArg<C extends KernelConstants> =
  Record<string, never> extends C ? [constants?: C] : [constants: C];

/** A kernel with the constants it runs with: what a recorded dispatch needs of it. */
export interface KernelUse {
  readonly name: string;
  pipeline(cache: PipelineCache): Promise<GPUComputePipeline>;
}

/**
 * `kernel` with `constants`, its pipeline taken from a cache when recorded. Constants may be
 * left out only where the type says the kernel has none (see `planned`'s `DispatchPlan`).
 */
export function kernelUse<C extends KernelConstants>(
  kernel: KernelSpec<C, BindingLayout>,
  constants?: C,
): KernelUse {
  const given = constants ?? ({} as C);
  return { name: kernel.name, pipeline: (cache) => cache.get(kernel, given) };
}

/**
 * Compute pipelines of one device, created on first use and kept, keyed by kernel name plus its
 * constants (so the same kernel with another workgroup size is another pipeline). Pipelines use
 * `layout: 'auto'`: bind groups come from `pipeline.getBindGroupLayout(0)`, and every binding
 * the WGSL declares must be used by the entry point.
 */
export class PipelineCache {
  private readonly device: GPUDevice;
  private readonly pipelines = new Map<string, Promise<GPUComputePipeline>>();
  /** Creations not settled yet (Dawn compiles them on its own threads; see {@link compiling}). */
  private readonly inFlight = new Set<Promise<GPUComputePipeline>>();
  /** Wall ms during which at least one creation was in flight, up to `busySince`. */
  private busyTotal = 0;
  /** When the current stretch of creations began (`performance.now()`), or null when none is. */
  private busySince: number | null = null;
  private readonly log: { kernel: string; ms: number }[] = [];

  constructor(device: GPUDevice) {
    this.device = device;
  }

  /** Number of distinct pipelines created (or being created). */
  get size(): number {
    return this.pipelines.size;
  }

  /**
   * How many pipeline creations have not settled. Dawn's `device.destroy()` waits for them, and
   * a large kernel compiled by a software driver (lavapipe's LLVM) can take minutes on a loaded
   * machine, so a context is not destroyed while any is in flight (see `GpuContext.release`).
   */
  get compiling(): number {
    return this.inFlight.size;
  }

  /**
   * Wall ms during which at least one pipeline was being created, since the cache was made
   * (overlapping creations count once). The watchdog does not count this time against a run's
   * deadline: a driver's first compilation of a large kernel is not the run being slow.
   */
  busyMs(): number {
    return this.busyTotal + (this.busySince === null ? 0 : performance.now() - this.busySince);
  }

  /** Each pipeline created so far: its cache key and how long its creation took, in order. */
  get compileLog(): readonly { kernel: string; ms: number }[] {
    return this.log;
  }

  /** Whether every creation in flight settles within `waitMs` (never blocks the thread). */
  async settledWithin(waitMs: number): Promise<boolean> {
    if (this.inFlight.size === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, waitMs));
    });
    const settled = Promise.allSettled([...this.inFlight]).then(() => this.inFlight.size === 0);
    try {
      return await Promise.race([settled, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The pipeline for `kernel` with `constants`; the same object on every call with equal
   * constants (key order does not matter).
   *
   * @throws GpuValidationError naming the kernel when the WGSL does not compile or the pipeline is
   *   invalid; the compiler's messages are in the error message. Failures are not cached.
   */
  get<C extends KernelConstants>(
    kernel: KernelSpec<C, BindingLayout>,
    constants: C,
  ): Promise<GPUComputePipeline> {
    const key = cacheKey(kernel.name, constants);
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      const began = performance.now();
      const created = this.create(kernel, constants);
      pipeline = created;
      if (this.inFlight.size === 0) this.busySince = began;
      this.inFlight.add(created);
      created.then(
        () => {
          this.log.push({ kernel: key, ms: performance.now() - began });
          this.settle(created);
        },
        () => {
          this.settle(created);
          this.pipelines.delete(key);
        },
      );
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  private settle(created: Promise<GPUComputePipeline>): void {
    this.inFlight.delete(created);
    if (this.inFlight.size === 0 && this.busySince !== null) {
      this.busyTotal += performance.now() - this.busySince;
      this.busySince = null;
    }
  }

  private async create<C extends KernelConstants>(
    kernel: KernelSpec<C, BindingLayout>,
    constants: C,
  ): Promise<GPUComputePipeline> {
    const device = this.device;
    const code = kernel.source(constants);
    const mismatch = kernel.bindings === undefined ? null : bindingMismatch(kernel.bindings, code);
    if (mismatch !== null) throw new GpuValidationError(kernel.name, `bindings: ${mismatch}`);
    // a shader that does not compile is reported here, not as an uncaptured error
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ label: kernel.name, code });
    const moduleError = await device.popErrorScope();
    if (moduleError)
      throw new GpuValidationError(kernel.name, await compileErrors(module, moduleError.message));
    try {
      return await device.createComputePipelineAsync({
        label: kernel.name,
        layout: 'auto',
        compute: { module, entryPoint: kernel.entryPoint ?? 'main' },
      });
    } catch (cause) {
      const message = await compileErrors(module, String((cause as Error)?.message ?? cause));
      throw new GpuValidationError(kernel.name, message, { cause });
    }
  }
}

/** The compiler's error messages (`line:column message`), or `fallback` when it has none. */
async function compileErrors(module: GPUShaderModule, fallback: string): Promise<string> {
  const info = await module.getCompilationInfo();
  const messages = info.messages
    .filter((m) => m.type === 'error')
    .map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
  return `pipeline creation failed: ${messages.length > 0 ? messages.join('; ') : fallback}`;
}

/** `name` plus the constants in key order, so `{a, b}` and `{b, a}` share a pipeline. */
function cacheKey(name: string, constants: KernelConstants): string {
  const parts = Object.keys(constants)
    .sort()
    .map((key) => `${key}=${String(constants[key])}`);
  return `${name}|${parts.join(',')}`;
}
