import type { KernelThread, StartThread, ThreadCount } from '../contract.js';

interface WebWorker {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: [number, unknown] }) => void): void;
  addEventListener(type: 'error', listener: (event: { message: string }) => void): void;
}

type Scope = {
  Worker?: new (url: string) => WebWorker;
  crossOriginIsolated?: boolean;
  navigator?: { hardwareConcurrency?: number };
};

/**
 * Web Workers share memory only through SharedArrayBuffer, which a page gets only when it is
 * cross-origin isolated (served with COOP `same-origin` and COEP `require-corp`): then
 * min(hardwareConcurrency, 8) threads, else 1 (every stage runs on the calling thread, same output).
 */
export const threadCount: ThreadCount = async () => {
  const scope = globalThis as Scope;
  const shared = scope.crossOriginIsolated === true && typeof SharedArrayBuffer !== 'undefined';
  if (!shared || scope.Worker === undefined) return 1;
  return Math.max(1, Math.min(8, scope.navigator?.hardwareConcurrency ?? 1));
};

/** A module-less Web Worker from a Blob URL of the kernels' source. */
export const startThread: StartThread = (kernels) => {
  const scope = globalThis as Scope;
  if (scope.Worker === undefined) throw new Error('Web Workers are unavailable here');
  const source = `const kernels = ${kernels};
onmessage = (event) => { const [id, name, ...m] = event.data; postMessage([id, kernels[name](...m)]); };`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new scope.Worker(url);
  const thread: KernelThread = {
    postMessage: (message) => worker.postMessage(message),
    on: (event: 'message' | 'error', listener: (value: never) => void) => {
      if (event === 'message') worker.addEventListener('message', (e) => listener(e.data as never));
      else worker.addEventListener('error', (e) => listener(new Error(e.message) as never));
      return thread;
    },
    ref: () => {},
    unref: () => {},
  };
  return thread;
};
