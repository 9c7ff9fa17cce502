import { writeSimpleRings } from './simple-rings.js';

/** The arguments of {@link writeSimpleRings} after the range; every array on a SharedArrayBuffer. */
export type SimpleRingArgs = [
  Int32Array,
  Int32Array,
  Int32Array,
  Int32Array,
  Float64Array,
  Float64Array,
  number,
];

interface RingWorker {
  postMessage(message: unknown): void;
  once(event: 'message', listener: (value: number) => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  ref(): void;
  unref(): void;
}

// An eval'd CommonJS worker built from the function's own source: no separate file to ship, so
// it runs the same from the TypeScript sources (tests), the built files and a bundle.
const SOURCE = `const { parentPort } = require('node:worker_threads');
const writeSimpleRings = ${writeSimpleRings.toString()};
parentPort.on('message', (m) => parentPort.postMessage(writeSimpleRings(...m)));`;

const pool: RingWorker[] = [];

/**
 * The number of threads (this one included) a parallel run may use: min(available parallelism,
 * 8), or 1 where worker threads are unavailable (browsers) or there is a single core.
 */
export async function availableThreads(): Promise<number> {
  try {
    const os = await import('node:os');
    return Math.max(1, Math.min(8, os.availableParallelism()));
  } catch {
    return 1;
  }
}

/**
 * Runs {@link writeSimpleRings} over the sites `0 .. n` split into `threads` equal ranges: the
 * first on this thread, the others on pooled worker threads (started on first use, kept and
 * unreferenced between runs so they never hold the process open). Returns the sum of the
 * changed counts.
 */
export async function writeSimpleRingsParallel(
  n: number,
  threads: number,
  args: SimpleRingArgs,
): Promise<number> {
  const { Worker } = await import('node:worker_threads');
  while (pool.length < threads - 1) {
    const worker = new Worker(SOURCE, { eval: true }) as unknown as RingWorker;
    worker.unref();
    pool.push(worker);
  }
  const bound = (w: number) => Math.round((n * w) / threads);
  const jobs: Promise<number>[] = [];
  for (let w = 1; w < threads; w++) {
    const worker = pool[w - 1];
    jobs.push(
      new Promise<number>((resolve, reject) => {
        const onError = (error: Error) => {
          worker.off('message', onMessage);
          worker.unref();
          pool.splice(pool.indexOf(worker), 1);
          reject(error);
        };
        const onMessage = (changed: number) => {
          worker.off('error', onError);
          worker.unref();
          resolve(changed);
        };
        worker.once('message', onMessage);
        worker.once('error', onError);
        // held referenced while it works, so the process waits for the result
        worker.ref();
        worker.postMessage([bound(w), bound(w + 1), ...args]);
      }),
    );
  }
  let changed = writeSimpleRings(0, bound(1), ...args);
  for (const c of await Promise.all(jobs)) changed += c;
  return changed;
}
