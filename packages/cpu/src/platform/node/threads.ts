import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { KernelThread, StartThread, ThreadCount } from '../contract.js';

/** min(available parallelism, 8), or the environment variable `GEOFRAME_THREADS` (a positive integer). */
export const threadCount: ThreadCount = async () => {
  const env = Number(process.env.GEOFRAME_THREADS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.min(8, availableParallelism()));
};

/** An eval'd CommonJS worker thread: no separate file to ship, so it runs from sources, builds and bundles. */
export const startThread: StartThread = (kernels) =>
  new Worker(
    `const { parentPort } = require('node:worker_threads');
const kernels = ${kernels};
parentPort.on('message', ([id, name, ...m]) => parentPort.postMessage([id, kernels[name](...m)]));`,
    { eval: true },
  ) as unknown as KernelThread;
