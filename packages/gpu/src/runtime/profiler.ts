import type { GpuContext } from './gpu-context.js';
import { BufferUsage, MapMode } from './usage.js';

/** GPU time of one profiled pass. */
export interface GpuPassTime {
  /** The name given to {@link GpuProfiler.passDescriptor} (for wall time: all names, joined). */
  name: string;
  /** Duration in milliseconds, never negative. */
  ms: number;
  /** When the pass began, in ms after the first profiled pass began (0 for wall time). */
  startMs: number;
}

/** Where profiled times come from: GPU timestamp queries, or wall time on the CPU. */
export type GpuTimeSource = 'timestamp' | 'wall';

/** A profiled submission: its passes, their total, and where the times come from. */
export interface GpuProfile {
  passes: GpuPassTime[];
  /** Sum of the passes' times (for wall time: the one wall interval). */
  totalMs: number;
  source: GpuTimeSource;
}

/** Options of {@link GpuProfiler}. */
export interface GpuProfilerOptions {
  /** Most passes profiled per round (between {@link GpuProfiler.read}s); default 64. */
  maxPasses?: number;
  /** `'wall'` forces wall time even where timestamp queries exist; default `'auto'`. */
  mode?: 'auto' | 'wall';
}

const NS_PER_MS = 1e6;

/**
 * Times compute passes. With the `timestamp-query` feature ({@link GpuContext.features}), each
 * pass gets GPU timestamps at its beginning and end (`timestampWrites` into a query set), which
 * {@link resolve} copies into a buffer and {@link read} maps. Without it (or with `mode: 'wall'`)
 * the time is the CPU's wall time from {@link resolve} until `queue.onSubmittedWorkDone()`
 * resolves, one interval for all passes of the round (work submitted before is included: drain
 * the queue first when that matters).
 *
 * A round: `encoder.beginComputePass(p.passDescriptor('name'))` for each pass, `p.resolve(encoder)`,
 * submit the encoder, then `await p.read()` (or {@link profile}); the profiler is then ready for
 * the next round. Timestamps may be coarse (Dawn quantizes them unless told not to) or zero on
 * software drivers; durations are clamped at 0.
 */
export class GpuProfiler {
  /** Where this profiler's times come from. */
  readonly source: GpuTimeSource;
  private readonly ctx: GpuContext;
  private readonly maxPasses: number;
  private readonly names: string[] = [];
  private querySet: GPUQuerySet | null = null;
  private resolveBuffer: GPUBuffer | null = null;
  private readBuffer: GPUBuffer | null = null;
  private resolvedAt: number | null = null;
  private destroyed = false;

  constructor(ctx: GpuContext, options: GpuProfilerOptions = {}) {
    this.ctx = ctx;
    this.maxPasses = options.maxPasses ?? 64;
    if (!Number.isInteger(this.maxPasses) || this.maxPasses < 1) {
      throw new RangeError(`maxPasses ${options.maxPasses} is not a positive integer`);
    }
    this.source = ctx.features.timestampQuery && options.mode !== 'wall' ? 'timestamp' : 'wall';
  }

  /**
   * A compute pass descriptor that times the pass as `name` (labelled `name`); `base` fields are
   * kept. In wall mode only the label is set.
   *
   * @throws RangeError past `maxPasses` passes in one round, or after {@link resolve} (read first).
   */
  passDescriptor(name: string, base: GPUComputePassDescriptor = {}): GPUComputePassDescriptor {
    this.assertOpen();
    if (this.resolvedAt !== null)
      throw new RangeError('GpuProfiler: read() the resolved round before the next pass');
    if (this.names.length >= this.maxPasses) {
      throw new RangeError(`GpuProfiler: more than ${this.maxPasses} passes in one round`);
    }
    const index = this.names.length;
    this.names.push(name);
    if (this.source === 'wall') return { ...base, label: name };
    const querySet = this.ensureQueries();
    return {
      ...base,
      label: name,
      timestampWrites: {
        querySet,
        beginningOfPassWriteIndex: 2 * index,
        endOfPassWriteIndex: 2 * index + 1,
      },
    };
  }

  /**
   * Ends the round's encoding: with timestamps, encodes the copy of the queries into a readable
   * buffer (call it on the encoder of the last profiled pass, or a later one); for wall time,
   * starts the clock (call it just before submitting).
   */
  resolve(encoder: GPUCommandEncoder): void {
    this.assertOpen();
    if (this.resolvedAt !== null) throw new RangeError('GpuProfiler: resolve() called twice in one round');
    const count = 2 * this.names.length;
    if (this.source === 'timestamp' && count > 0) {
      encoder.resolveQuerySet(this.ensureQueries(), 0, count, this.resolveBuffer!, 0);
      encoder.copyBufferToBuffer(this.resolveBuffer!, 0, this.readBuffer!, 0, count * 8);
    }
    this.resolvedAt = performance.now();
  }

  /**
   * The times of the round's passes, in the order their descriptors were made, once the GPU has
   * finished the submitted work; then starts a new round.
   *
   * @throws RangeError when {@link resolve} was not called.
   */
  async read(): Promise<GpuPassTime[]> {
    this.assertOpen();
    const resolvedAt = this.resolvedAt;
    if (resolvedAt === null) throw new RangeError('GpuProfiler: resolve(encoder) and submit before read()');
    const names = this.names.splice(0);
    this.resolvedAt = null;
    if (this.source === 'wall' || names.length === 0) {
      await this.ctx.device.queue.onSubmittedWorkDone();
      if (names.length === 0) return [];
      return [{ name: names.join(', '), ms: Math.max(0, performance.now() - resolvedAt), startMs: 0 }];
    }
    const buffer = this.readBuffer!;
    await buffer.mapAsync(MapMode.READ, 0, names.length * 16);
    const stamps = new BigUint64Array(buffer.getMappedRange(0, names.length * 16).slice(0));
    buffer.unmap();
    const origin = stamps[0];
    return names.map((name, i) => {
      const begin = stamps[2 * i];
      const end = stamps[2 * i + 1];
      return {
        name,
        ms: end > begin ? Number(end - begin) / NS_PER_MS : 0,
        startMs: begin > origin ? Number(begin - origin) / NS_PER_MS : 0,
      };
    });
  }

  /** {@link read}, summed: what benchmarks print. */
  async profile(): Promise<GpuProfile> {
    const passes = await this.read();
    return { passes, totalMs: passes.reduce((sum, p) => sum + p.ms, 0), source: this.source };
  }

  /** Frees the query set and buffers; the profiler cannot be used afterwards. */
  destroy(): void {
    this.destroyed = true;
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
    this.querySet = this.resolveBuffer = this.readBuffer = null;
  }

  private assertOpen(): void {
    if (this.destroyed) throw new RangeError('GpuProfiler: used after destroy()');
    this.ctx.assertUsable();
  }

  /** The query set and its buffers, made on first use (a few hundred bytes). */
  private ensureQueries(): GPUQuerySet {
    if (this.querySet) return this.querySet;
    const device = this.ctx.device;
    const count = 2 * this.maxPasses;
    this.querySet = device.createQuerySet({ label: 'profiler queries', type: 'timestamp', count });
    this.resolveBuffer = device.createBuffer({
      label: 'profiler resolve',
      size: count * 8,
      usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC,
    });
    this.readBuffer = device.createBuffer({
      label: 'profiler read',
      size: count * 8,
      usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
    });
    return this.querySet;
  }
}

/** A profile as one line, e.g. `hilbert 0.123 ms, copy 0.045 ms (total 0.168 ms, timestamp)`. */
export function formatProfile(profile: GpuProfile): string {
  const parts = profile.passes.map((p) => `${p.name} ${p.ms.toFixed(3)} ms`);
  return `${parts.join(', ')} (total ${profile.totalMs.toFixed(3)} ms, ${profile.source})`;
}
