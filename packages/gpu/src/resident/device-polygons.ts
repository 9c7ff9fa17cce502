import { uploadStorage } from '../runtime/buffers.js';
import { GpuResultReleasedError } from '../runtime/errors.js';
import type { GpuContext } from '../runtime/gpu-context.js';
import { runExclusive } from '../runtime/run-queue.js';
import { submitForRead } from '../runtime/staging.js';
import { BufferUsage } from '../runtime/usage.js';
import { runOnGpu } from '../runtime/watchdog.js';

/** The device buffers of a {@link DevicePolygons}. */
export interface ResidentBuffers {
  /** Points as f64 bits: x (low word, high word), y (low, high) — 16 bytes a point. */
  coords: GPUBuffer;
  /** Ring offsets as u32, `rows + 1` of them, from 0. */
  offsets: GPUBuffer;
}

/** Usage of every buffer a resident result owns: read by kernels, copied out and into. */
export const RESIDENT_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

/** Frees the buffers of results the program dropped without `destroy()`. */
const dropped = new FinalizationRegistry<GPUBuffer[]>((buffers) => {
  for (const buffer of buffers) buffer.destroy();
});

/**
 * Single-ring polygons whose buffers live on the GPU (GeoArrow's interleaved coordinates and ring
 * offsets, the coordinates as f64 bits): what `voronoiPolygons` keeps on the device, read by the
 * kernels of this folder and copied to the host only when asked ({@link DevicePolygons.toHost}).
 *
 * Lifetime (adr/0032): the buffers belong to this object alone — no other result or scratch
 * buffer aliases them — and are freed by {@link destroy} or, when the object is dropped, by the
 * garbage collector. Work in flight holds a lease ({@link use}): a `destroy()` during it frees
 * the buffers when it ends. Using the object after `destroy()` throws `GpuResultReleasedError`;
 * after its device was lost (a driver reset, a run the watchdog abandoned), `GpuDeviceLostError`.
 * Neither ever reads garbage.
 */
export class DevicePolygons {
  readonly ctx: GpuContext;
  /** Number of rows (polygons). */
  readonly rows: number;
  /** Number of ring points over all rows. */
  readonly points: number;
  private held: ResidentBuffers | null;
  private leases = 0;
  private released = false;

  constructor(ctx: GpuContext, buffers: ResidentBuffers, rows: number, points: number) {
    this.ctx = ctx;
    this.held = buffers;
    this.rows = rows;
    this.points = points;
    dropped.register(this, [buffers.coords, buffers.offsets], this);
  }

  /** Whether {@link destroy} was called. */
  get destroyed(): boolean {
    return this.released;
  }

  /**
   * Runs `work` with the buffers, leased so that a `destroy()` meanwhile waits for it.
   * @throws GpuResultReleasedError after `destroy()`; GpuDeviceLostError once the device is lost.
   */
  async use<T>(work: (buffers: ResidentBuffers) => Promise<T>): Promise<T> {
    if (this.released || this.held === null)
      throw new GpuResultReleasedError('a device-resident geometry column');
    this.ctx.assertUsable();
    const buffers = this.held;
    this.leases++;
    try {
      return await work(buffers);
    } finally {
      this.leases--;
      if (this.released && this.leases === 0) this.free();
    }
  }

  /**
   * Releases the GPU buffers (at once, or when the work using them ends). Idempotent; every
   * later use throws `GpuResultReleasedError`.
   */
  destroy(): void {
    if (this.released) return;
    this.released = true;
    dropped.unregister(this);
    if (this.leases === 0) this.free();
  }

  private free(): void {
    const held = this.held;
    this.held = null;
    if (held === null || this.ctx.isLost) return;
    held.coords.destroy();
    held.offsets.destroy();
  }

  /**
   * The rows as host buffers: coordinates (interleaved f64 x, y) and ring offsets — one copy, in
   * one mapping; the caller keeps the result (a GeoSeries caches it).
   */
  toHost(): Promise<{ coords: Float64Array; ringOffsets: Int32Array }> {
    return this.use((buffers) =>
      residentRun(this.ctx, 'device-resident copy to the host', this.points, async () => {
        const coords = new Float64Array(2 * this.points);
        const ringOffsets = new Int32Array(this.rows + 1);
        const encoder = this.ctx.device.createCommandEncoder({ label: 'resident/to-host' });
        const pending = await submitForRead(this.ctx, encoder, 'resident/to-host', [
          { source: buffers.offsets, bytes: ringOffsets.byteLength },
          { source: buffers.coords, bytes: coords.byteLength },
        ]);
        await pending.into([ringOffsets, coords]);
        return { coords, ringOffsets };
      }),
    );
  }

  /**
   * Host polygons put on the device (one ring a row; `ringOffsets` from 0): for inputs the next
   * device-resident operation reads, for results a CPU stage computed, and for tests.
   */
  static async fromHost(
    ctx: GpuContext,
    coords: Float64Array,
    ringOffsets: Int32Array,
  ): Promise<DevicePolygons> {
    const rows = ringOffsets.length - 1;
    if (rows < 0 || ringOffsets[0] !== 0) throw new RangeError('ring offsets must start at 0');
    const points = ringOffsets[rows];
    if (coords.length < 2 * points) {
      throw new RangeError(`ring offsets reach point ${points}, the coordinates hold ${coords.length >> 1}`);
    }
    const extra = BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
    const coordBuffer = await uploadStorage(ctx, coords.subarray(0, 2 * points), 'resident coords', extra);
    const offsetBuffer = await uploadStorage(ctx, ringOffsets, 'resident ring offsets', extra);
    return new DevicePolygons(ctx, { coords: coordBuffer, offsets: offsetBuffer }, rows, points);
  }
}

/**
 * `work` alone on the context (it uses the context's scratch and staging buffers) and under the
 * watchdog: past its deadline the device is abandoned and a `GpuTimeoutError` thrown.
 */
export function residentRun<T>(
  ctx: GpuContext,
  label: string,
  elements: number,
  work: () => Promise<T>,
): Promise<T> {
  return runOnGpu(label, elements, () => runExclusive(ctx, work), { context: ctx });
}
