import { type AdapterSummary, classifyAdapter } from '@geoframe/core';
import { abandonDevice } from './abandoned-devices.js';
import { GpuDeviceLostError, GpuUnavailableError } from './errors.js';
import { loadGpu } from './load-gpu.js';
import { PipelineCache } from './pipeline-cache.js';
import { queueIdleWithin } from './queue-idle.js';

/** How long {@link GpuContext.release} waits for the queue to go idle by default, in ms. */
export const DEFAULT_RELEASE_WAIT_MS = 2000;

/** How to get a device. All fields are optional; with none, the default adapter is used. */
export interface GpuContextOptions {
  /** A device the host application already has; used as is (no limits or features are requested). */
  device?: GPUDevice;
  /** The WebGPU entry point to ask for an adapter; default `navigator.gpu`, else the `webgpu` package. */
  gpu?: GPU;
  /** Passed to `requestAdapter`. */
  powerPreference?: GPUPowerPreference;
  /** Features the caller cannot do without; a missing one is a {@link GpuUnavailableError}. */
  requiredFeatures?: GPUFeatureName[];
}

/** The optional features this package uses when the adapter has them. */
export interface GpuFeatures {
  timestampQuery: boolean;
  subgroups: boolean;
  shaderF16: boolean;
}

/**
 * What the adapter says it is (empty strings where the implementation does not tell), with its
 * class for dispatch (`software`, `integrated`, `discrete`, `unknown`; see `classifyAdapter`).
 */
export type GpuAdapterSummary = AdapterSummary;

/** Limits raised from the WebGPU defaults to what the adapter supports (bigger buffers and workgroups). */
const RAISED_LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  // the Voronoi ring kernel binds 10 storage buffers (what Chromium allows); WebGPU only guarantees 8
  'maxStorageBuffersPerShaderStage',
] as const;

/** Optional features requested when present. */
const OPTIONAL_FEATURES: GPUFeatureName[] = ['timestamp-query', 'subgroups', 'shader-f16'];

/**
 * One WebGPU device and what goes with it: its limits, features, adapter description, compute
 * pipeline cache, loss state and uncaptured errors. Create it with {@link GpuContext.create} (or
 * share one with `getGpuContext()`); kernels take it as their first argument.
 *
 * When the device is lost (driver reset, or {@link destroy}), `isLost` becomes true and every
 * later {@link assertUsable} (which kernels call first) throws a {@link GpuDeviceLostError}.
 */
export class GpuContext {
  readonly device: GPUDevice;
  /** The device's limits (for an adapter-made device, raised to the adapter's where that helps compute). */
  readonly limits: GPUSupportedLimits;
  readonly features: GpuFeatures;
  readonly adapterInfo: GpuAdapterSummary;
  /** Compute pipelines of this device, by kernel name and constants. */
  readonly pipelines: PipelineCache;
  /** Resolves when the device is lost, with WebGPU's reason and message. Never rejects. */
  readonly lost: Promise<GPUDeviceLostInfo>;
  /** The most recent error no error scope caught, or null. */
  lastUncapturedError: GPUError | null = null;
  private lostState: { reason: string; message: string } | null = null;
  private readonly errorListeners = new Set<(error: GPUError) => void>();

  private constructor(device: GPUDevice, adapterInfo: GpuAdapterSummary) {
    this.device = device;
    this.limits = device.limits;
    const has = (name: string) => device.features.has(name);
    this.features = {
      timestampQuery: has('timestamp-query'),
      subgroups: has('subgroups'),
      shaderF16: has('shader-f16'),
    };
    this.adapterInfo = adapterInfo;
    this.pipelines = new PipelineCache(device);
    this.lost = device.lost.then((info) => {
      this.lostState ??= { reason: info.reason, message: info.message };
      return info;
    });
    const onError = (event: Event) => {
      const error = (event as GPUUncapturedErrorEvent).error;
      this.lastUncapturedError = error;
      for (const listener of this.errorListeners) listener(error);
    };
    if (typeof device.addEventListener === 'function') device.addEventListener('uncapturederror', onError);
    else device.onuncapturederror = onError;
  }

  /**
   * A context on `options.device` if given (used as is), else on a new device: the adapter comes
   * from `options.gpu`, `navigator.gpu`, or the `webgpu` package (Node, loaded on demand); the
   * device gets the adapter's maximum buffer, binding and workgroup limits and the optional
   * features `timestamp-query`, `subgroups`, `shader-f16` where the adapter has them.
   *
   * @throws GpuUnavailableError when there is no WebGPU, no adapter, a required feature is missing
   *   or the device request fails; the message says which.
   */
  static async create(options: GpuContextOptions = {}): Promise<GpuContext> {
    if (options.device) return new GpuContext(options.device, summarizeAdapter(options.device.adapterInfo));
    const gpu = options.gpu ?? (await loadGpu());
    let adapter: GPUAdapter | null;
    try {
      adapter = await gpu.requestAdapter(
        options.powerPreference ? { powerPreference: options.powerPreference } : undefined,
      );
    } catch (cause) {
      throw new GpuUnavailableError(`requestAdapter failed (${String(cause)})`, { cause });
    }
    if (!adapter) {
      throw new GpuUnavailableError(
        'requestAdapter() returned null: no GPU and no software Vulkan driver (in Node, install Mesa lavapipe)',
      );
    }
    const required = options.requiredFeatures ?? [];
    const missing = required.filter((name) => !adapter.features.has(name));
    if (missing.length > 0) {
      throw new GpuUnavailableError(`the adapter lacks required features: ${missing.join(', ')}`);
    }
    const features = new Set<GPUFeatureName>(required);
    for (const name of OPTIONAL_FEATURES) if (adapter.features.has(name)) features.add(name);
    const requiredLimits: Record<string, number> = {};
    for (const name of RAISED_LIMITS) requiredLimits[name] = adapter.limits[name];
    let device: GPUDevice;
    try {
      device = await adapter.requestDevice({ requiredFeatures: [...features], requiredLimits });
    } catch (cause) {
      throw new GpuUnavailableError(`requestDevice failed (${String(cause)})`, { cause });
    }
    return new GpuContext(device, summarizeAdapter(adapter.info, adapter));
  }

  /** Whether the device has been lost (or destroyed). */
  get isLost(): boolean {
    return this.lostState !== null;
  }

  /** @throws GpuDeviceLostError when the device is lost. Kernels call this before any GPU work. */
  assertUsable(): void {
    if (this.lostState) throw new GpuDeviceLostError(this.lostState.reason, this.lostState.message);
  }

  /**
   * Calls `listener` with every error that no error scope caught (WebGPU's `uncapturederror`);
   * the latest is also kept in {@link lastUncapturedError}. Returns a function that unsubscribes.
   */
  onUncapturedError(listener: (error: GPUError) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /**
   * Destroys the device (its buffers with it); the context is lost from then on. Do not destroy a
   * device the host application injected and still uses.
   *
   * Dawn's `destroy()` blocks the calling thread until a shader still running on the device ends;
   * where work may be in flight use {@link release}, which never blocks.
   */
  destroy(): void {
    // marked at once: `device.lost` resolves only later, and nothing may use the device meanwhile
    this.lostState ??= { reason: 'destroyed', message: 'destroy() was called' };
    this.device.destroy();
  }

  /**
   * Gives the device up without waiting for its work: the context is lost from then on (every
   * later use throws {@link GpuDeviceLostError} with reason `'abandoned'` and `why`), and the
   * device is kept, never destroyed, because destroying it would block until a running shader
   * ends (see `abandoned-devices.ts`). The watchdog calls this when a run passes its deadline.
   */
  abandon(why: string): void {
    // a loss the driver reported stays the reason; our own release() gives way to this
    if (this.lostState?.reason !== 'unknown') this.lostState = { reason: 'abandoned', message: why };
    abandonDevice(this.device);
  }

  /**
   * Lets the device go without ever blocking: marks the context lost at once, then waits up to
   * `waitMs` for the pipeline compilations in flight and the work already submitted to finish;
   * if they do, destroys the device (`'destroyed'`), otherwise {@link abandon}s it
   * (`'abandoned'`): Dawn's `destroy()` would block the thread until both end. A context already
   * abandoned stays so.
   */
  async release(waitMs = DEFAULT_RELEASE_WAIT_MS): Promise<'destroyed' | 'abandoned'> {
    if (this.lostState?.reason === 'abandoned') return 'abandoned';
    this.lostState ??= { reason: 'destroyed', message: 'release() was called' };
    const started = performance.now();
    const compiled = await this.pipelines.settledWithin(waitMs);
    const left = Math.max(0, waitMs - (performance.now() - started));
    if (compiled && (await queueIdleWithin(this.device, left))) {
      this.device.destroy();
      return 'destroyed';
    }
    this.abandon(`release(): compilations or GPU work still running after ${waitMs} ms`);
    return 'abandoned';
  }
}

/**
 * The summary of an adapter from its info. `isFallbackAdapter` is read from the info (where
 * WebGPU now puts it) or the adapter (where it was first).
 */
export function summarizeAdapter(info: GPUAdapterInfo | undefined, adapter?: GPUAdapter): GpuAdapterSummary {
  const flag = (o: unknown) => (o as { isFallbackAdapter?: unknown } | undefined)?.isFallbackAdapter === true;
  return classifyAdapter({
    vendor: info?.vendor ?? '',
    architecture: info?.architecture ?? '',
    device: info?.device ?? '',
    description: info?.description ?? '',
    isFallbackAdapter: flag(info) || flag(adapter),
  });
}
