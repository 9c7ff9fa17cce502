import { createBufferChecked } from './buffers.js';
import type { GpuContext } from './gpu-context.js';
import { BufferUsage, MapMode } from './usage.js';

/**
 * Host ↔ device transfers through staging buffers that are kept and reused, per context and
 * name. Through Dawn, `queue.writeBuffer` moves about 1 GB/s, while a JS copy into an already
 * mapped `MAP_WRITE` buffer plus a GPU copy moves about 6 GB/s once the buffer has been mapped
 * before (its first mapping pays page faults); reads are the same in reverse. So a pipeline that
 * runs repeatedly keeps its staging buffers.
 */
interface Staging {
  buffer: GPUBuffer;
  /** Write staging: whether it is mapped (true after creation, false once used until mapped again). */
  mapped: boolean;
  /** Write staging: a mapping started ahead by {@link remapUploads}, or null. */
  mapping: Promise<void> | null;
  /**
   * Held by a transfer: from {@link uploadParts} until {@link remapUploads} (its copies may sit in
   * an encoder not yet submitted), or from {@link submitForRead} until its read ends. A held
   * entry is never handed out again: a run that failed or was abandoned midway never lets go of
   * it, and a concurrent run must not map a buffer another run's submission still uses.
   */
  held: boolean;
}

const caches = new WeakMap<GpuContext, Map<string, Staging>>();

/**
 * Whether a free entry's buffer is in the state its flags say (a failed run can leave a read
 * buffer mapped or its mapping pending, a write buffer unmapped with no mapping under way).
 */
function coherent(entry: Staging, write: boolean): boolean {
  const state = entry.buffer.mapState;
  if (!write) return state === 'unmapped';
  if (entry.mapping) return state === 'pending';
  return state === (entry.mapped ? 'mapped' : 'unmapped');
}

/**
 * The staging entry `name` for this context, held for the caller: the cached one when it is free,
 * large enough and in a coherent state; otherwise a new one that takes its place in the cache.
 * An entry still held elsewhere is left to its holder (and to the garbage collector once it is
 * done); a free but incoherent one is destroyed (nobody uses it).
 */
async function staging(ctx: GpuContext, name: string, bytes: number, write: boolean): Promise<Staging> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
  }
  const key = `${write ? 'up' : 'down'}:${name}`;
  const existing = cache.get(key);
  if (existing && !existing.held && existing.buffer.size >= bytes && coherent(existing, write)) {
    existing.held = true;
    return existing;
  }
  if (existing && !existing.held) existing.buffer.destroy();
  // grow by half again, so slowly growing inputs do not reallocate every call
  const size = Math.ceil(Math.max(bytes, existing ? existing.buffer.size * 1.5 : 0) / 256) * 256;
  const buffer = await createBufferChecked(ctx, {
    label: `staging ${key}`,
    size: Math.max(256, size),
    usage: write ? BufferUsage.MAP_WRITE | BufferUsage.COPY_SRC : BufferUsage.MAP_READ | BufferUsage.COPY_DST,
    mappedAtCreation: write,
  });
  const entry: Staging = { buffer, mapped: write, mapping: null, held: true };
  cache.set(key, entry);
  return entry;
}

/** Lets go of `entry`; one that no longer is the cache's (replaced meanwhile) is destroyed. */
function letGo(ctx: GpuContext, key: string, entry: Staging): void {
  entry.held = false;
  if (caches.get(ctx)?.get(key) !== entry) entry.buffer.destroy();
}

/**
 * Starts mapping again the write staging buffer `name` (after the submission that read it), so
 * the next {@link uploadParts} through it finds it mapped instead of waiting a round trip. Call it
 * once the work that used the staging buffer has been submitted; nothing is awaited.
 */
export function remapUploads(ctx: GpuContext, name: string): void {
  const entry = caches.get(ctx)?.get(`up:${name}`);
  if (!entry) return;
  entry.held = false;
  if (entry.mapped || entry.mapping) return;
  // a failure (device lost, buffer replaced) is left to the next upload, which maps again
  entry.mapping = entry.buffer.mapAsync(MapMode.WRITE, 0, entry.buffer.size).then(
    () => {
      entry.mapped = true;
      entry.mapping = null;
    },
    () => {
      entry.mapping = null;
    },
  );
}

/** One array to upload and where it goes. */
export interface UploadPart {
  data: ArrayBufferView;
  target: GPUBuffer;
  /** Byte offset in `target` (multiple of 4). */
  targetOffset?: number;
}

/**
 * Copies `parts` into the reused write staging buffer `name` (one JS copy each, 8-byte aligned
 * inside it) and records their GPU copies into `encoder`. Await it before submitting `encoder`.
 * The next call maps the buffer again, which waits until this submission has read it; two
 * uploads through one name must therefore not be pending in unsubmitted encoders at once.
 */
export async function uploadParts(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  name: string,
  parts: readonly UploadPart[],
): Promise<void> {
  const sizes = parts.map((p) => Math.ceil(p.data.byteLength / 8) * 8);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total === 0) return;
  const entry = await staging(ctx, name, total, true);
  if (entry.mapping) await entry.mapping;
  if (!entry.mapped) {
    try {
      await entry.buffer.mapAsync(MapMode.WRITE, 0, entry.buffer.size);
    } catch (cause) {
      letGo(ctx, `up:${name}`, entry);
      ctx.assertUsable();
      throw cause;
    }
  }
  entry.mapped = true;
  const range = entry.buffer.getMappedRange(0, total);
  let at = 0;
  parts.forEach((p, k) => {
    new Uint8Array(range, at, p.data.byteLength).set(
      new Uint8Array(p.data.buffer, p.data.byteOffset, p.data.byteLength),
    );
    at += sizes[k];
  });
  entry.buffer.unmap();
  entry.mapped = false;
  at = 0;
  parts.forEach((p, k) => {
    const bytes = Math.ceil(p.data.byteLength / 4) * 4;
    if (bytes > 0) encoder.copyBufferToBuffer(entry.buffer, at, p.target, p.targetOffset ?? 0, bytes);
    at += sizes[k];
  });
}

/** One range to read back. */
export interface ReadPart {
  source: GPUBuffer;
  /** Byte offset in `source` (multiple of 4). */
  sourceOffset?: number;
  /** Receives the bytes; its byteLength says how many. */
  target: ArrayBufferView;
}

/** A submitted readback: {@link PendingRead.into} waits for it and copies the ranges out. */
export interface PendingRead {
  /** Waits for the mapping and copies range k into `targets[k]` (as many bytes as it holds). */
  into(targets: readonly ArrayBufferView[]): Promise<{ waitMs: number; copyMs: number }>;
  /**
   * Waits for the mapping and hands the mapped bytes and each range's offset in them to `use`
   * (e.g. to read a count first and copy only what it covers); they are unmapped afterwards (after
   * the promise `use` returns, if it returns one, settles).
   */
  read<T>(
    use: (range: ArrayBuffer, offsets: readonly number[]) => T | Promise<T>,
  ): Promise<{ value: T; waitMs: number; copyMs: number }>;
}

/**
 * Records the copies of `parts` (source ranges of `bytes` each) into the reused read staging
 * buffer `name` and submits `encoder`; returns at once, so the host can work (e.g. prepare the
 * arrays the data goes to) while the GPU finishes. Work submitted before finishes first.
 */
export async function submitForRead(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  name: string,
  parts: readonly { source: GPUBuffer; sourceOffset?: number; bytes: number }[],
): Promise<PendingRead> {
  const sizes = parts.map((p) => Math.ceil(p.bytes / 8) * 8);
  const total = sizes.reduce((a, b) => a + b, 0);
  const entry = total > 0 ? await staging(ctx, name, total, false) : null;
  let at = 0;
  parts.forEach((p, k) => {
    const bytes = Math.ceil(p.bytes / 4) * 4;
    if (entry && bytes > 0)
      encoder.copyBufferToBuffer(p.source, p.sourceOffset ?? 0, entry.buffer, at, bytes);
    at += sizes[k];
  });
  const submitted = performance.now();
  ctx.device.queue.submit([encoder.finish()]);
  const offsets = sizes.map((_, k) => sizes.slice(0, k).reduce((a, b) => a + b, 0));
  const pending: PendingRead = {
    async read(use) {
      if (!entry) return { value: await use(new ArrayBuffer(0), offsets), waitMs: 0, copyMs: 0 };
      try {
        try {
          await entry.buffer.mapAsync(MapMode.READ, 0, total);
        } catch (cause) {
          ctx.assertUsable();
          throw cause;
        }
        const mapped = performance.now();
        const value = await use(entry.buffer.getMappedRange(0, total), offsets);
        return { value, waitMs: mapped - submitted, copyMs: performance.now() - mapped };
      } finally {
        // unmapped whatever happened (a throwing `use`, a failed map), then free for the next run
        if (entry.buffer.mapState === 'mapped') entry.buffer.unmap();
        letGo(ctx, `down:${name}`, entry);
      }
    },
    async into(targets) {
      const { waitMs, copyMs } = await pending.read((range) => {
        targets.forEach((t, k) => {
          new Uint8Array(t.buffer, t.byteOffset, t.byteLength).set(
            new Uint8Array(range, offsets[k], t.byteLength),
          );
        });
      });
      return { waitMs, copyMs };
    },
  };
  return pending;
}

/**
 * Reads `parts` back through the reused read staging buffer `name`: records their copies into
 * `encoder`, submits it, maps once and copies each range out (see {@link submitForRead}).
 * Returns how long it waited for the GPU (submit to mapped) and how long the copies took, in ms.
 */
export async function submitAndRead(
  ctx: GpuContext,
  encoder: GPUCommandEncoder,
  name: string,
  parts: readonly ReadPart[],
): Promise<{ waitMs: number; copyMs: number }> {
  const pending = await submitForRead(
    ctx,
    encoder,
    name,
    parts.map((p) => ({ source: p.source, sourceOffset: p.sourceOffset, bytes: p.target.byteLength })),
  );
  return pending.into(parts.map((p) => p.target));
}
