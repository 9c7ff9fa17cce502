import { startThread, threadCount } from '#platform/threads';
import type { KernelThread } from '../platform/contract.js';
import { KERNEL_SOURCE, type KernelName, RANGE_KERNELS } from './range-kernels.js';
import { WorkMeter } from './work-meter.js';

/** A pooled worker and its jobs in flight, by id (jobs of overlapping runs queue on one worker). */
interface PooledWorker {
  worker: KernelThread;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

export type { KernelName } from './range-kernels.js';

const pool: PooledWorker[] = [];
let nextJob = 0;

/**
 * A new pooled worker: one listener routes each result to its job by id, so runs that overlap
 * (e.g. pages mapped ahead while a triangulation uses the pool, or two calls awaited together)
 * never take each other's results. It is referenced only while jobs are in flight (the process
 * waits for them, and never for an idle pool). A worker that fails fails its jobs and leaves.
 */
function startWorker(): PooledWorker {
  const worker = startThread(KERNEL_SOURCE);
  const entry: PooledWorker = { worker, pending: new Map() };
  worker.unref();
  worker.on('message', ([id, result]) => {
    const job = entry.pending.get(id);
    entry.pending.delete(id);
    if (entry.pending.size === 0) worker.unref();
    job?.resolve(result);
  });
  worker.on('error', (error) => {
    const at = pool.indexOf(entry);
    if (at >= 0) pool.splice(at, 1);
    worker.unref();
    for (const job of entry.pending.values()) job.reject(error);
    entry.pending.clear();
  });
  return entry;
}

/** Posts one job to a pooled worker; resolves with the kernel's result. */
function post(entry: PooledWorker, message: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const id = nextJob++;
    entry.pending.set(id, { resolve, reject });
    entry.worker.ref();
    entry.worker.postMessage([id, ...message]);
  });
}

/** `a` itself when it lies on a SharedArrayBuffer, else a copy there (workers read it in place). */
export function toShared<T extends Uint8Array | Int32Array | Uint32Array | Float64Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const copy = new (a.constructor as new (buffer: SharedArrayBuffer) => T)(
    new SharedArrayBuffer(a.byteLength),
  );
  copy.set(a as never);
  return copy;
}

/**
 * The number of threads (this one included) a parallel run may use: min(available parallelism,
 * 8), or 1 where workers cannot share memory (a page that is not cross-origin isolated) or there
 * is a single core. In Node the environment variable `GEOFRAME_THREADS` (a positive integer)
 * sets it instead.
 */
export async function availableThreads(): Promise<number> {
  return threadCount();
}

/**
 * Runs the range kernel `name` as `kernel(lo, hi, ...args)` over `0 .. n` split into `threads`
 * equal ranges: the first on this thread, the others on pooled worker threads (started on first
 * use, kept and unreferenced between runs so they never hold the process open). Every typed array
 * in `args` that a kernel writes must lie on a SharedArrayBuffer (others are copied to the
 * workers). Returns the kernels' results in range order. `meter` counts the units of the ranges
 * finished (this thread's first, then each worker's as its result arrives).
 */
export async function runRanges(
  name: KernelName,
  n: number,
  threads: number,
  args: unknown[],
  meter: WorkMeter = WorkMeter.SILENT,
): Promise<unknown[]> {
  return runOnPool(name, n, threads, args, true, meter);
}

/**
 * Starts `workers` ranges of the kernel on pooled worker threads only (none on this thread) and
 * resolves with their results when all are done: this thread stays free meanwhile (e.g. to record
 * and submit GPU work).
 */
function runOnPool(
  name: KernelName,
  n: number,
  threads: number,
  args: unknown[],
  here: boolean,
  meter: WorkMeter = WorkMeter.SILENT,
): Promise<unknown[]> {
  return Promise.resolve().then(() => {
    const workers = here ? threads - 1 : threads;
    while (pool.length < workers) pool.push(startWorker());
    const bound = (w: number) => Math.round((n * w) / threads);
    const first = here ? 1 : 0;
    let finished = 0;
    const count = (units: number) => {
      finished += units;
      meter.units(finished, n);
    };
    const jobs: Promise<unknown>[] = [];
    for (let w = first; w < threads; w++) {
      const job = post(pool[w - first], [name, bound(w), bound(w + 1), ...args]);
      const units = bound(w + 1) - bound(w);
      jobs.push(
        meter.active
          ? job.then((result) => {
              count(units);
              return result;
            })
          : job,
      );
    }
    const all = Promise.all(jobs);
    if (!here) return all;
    // if this thread's range or its count throws (a listener that cancels), the workers' results
    // still arrive: their failures must not surface as unhandled rejections
    all.catch(() => {});
    const kernel = RANGE_KERNELS[name] as (lo: number, hi: number, ...rest: unknown[]) => unknown;
    const mine = kernel(0, bound(1), ...args);
    count(bound(1));
    return all.then((rest) => [mine, ...rest]);
  });
}

/**
 * A zero-filled Float64Array of `length` on a SharedArrayBuffer whose pages are already mapped,
 * touched by the worker threads (up to 7) while this thread goes on: for large outputs about to be filled by one copy (e.g. from
 * GPU readback), whose page faults would otherwise cost more than the copy. Where worker threads
 * or SharedArrayBuffer are unavailable, a plain Float64Array.
 */
export async function preparedFloat64Array(length: number): Promise<Float64Array> {
  const buffer = await preparedBuffer(8 * length);
  return buffer ? new Float64Array(buffer) : new Float64Array(length);
}

/** As {@link preparedFloat64Array}, an Int32Array (e.g. raster labels read back from the GPU). */
export async function preparedInt32Array(length: number): Promise<Int32Array> {
  const buffer = await preparedBuffer(4 * length);
  return buffer ? new Int32Array(buffer) : new Int32Array(length);
}

/** As {@link preparedFloat64Array}, a Float32Array (e.g. raster distances read back from the GPU). */
export async function preparedFloat32Array(length: number): Promise<Float32Array> {
  const buffer = await preparedBuffer(4 * length);
  return buffer ? new Float32Array(buffer) : new Float32Array(length);
}

/** A SharedArrayBuffer of `bytes` with its pages touched by the workers, or null (small, or no workers). */
async function preparedBuffer(bytes: number): Promise<SharedArrayBuffer | null> {
  const threads = await availableThreads();
  if (threads < 2 || typeof SharedArrayBuffer === 'undefined' || bytes < 1 << 21) return null;
  const buffer = new SharedArrayBuffer(bytes);
  // on the workers only: the caller's thread stays free for the work this overlaps with
  await runOnPool('touchPages', Math.ceil(bytes / 4096), threads - 1, [new Uint8Array(buffer)], false);
  return buffer;
}
