/**
 * What each platform module provides, so the Node (`platform/node/`) and the web
 * (`platform/web/`) builds cannot drift apart. Code elsewhere imports `#platform/<module>`;
 * package.json's `imports` map picks the build by export condition (`browser` → web, `node` →
 * node, anything else → web). adr/0030.
 */

/** A worker running the range kernels; messages are `[id, kernel, ...args]` in, `[id, result]` out. */
export interface KernelThread {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (value: [number, unknown]) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Keep the process alive while jobs are in flight (Node); a no-op where that means nothing. */
  ref(): void;
  unref(): void;
}

/** The number of threads (this one included) a parallel run may use; 1 where workers cannot share memory. */
export type ThreadCount = () => Promise<number>;

/** Starts a worker whose kernels are the source text of an object literal of functions. */
export type StartThread = (kernels: string) => KernelThread;
