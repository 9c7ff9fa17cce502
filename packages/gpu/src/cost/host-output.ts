/** The host arrays a run returns, allocated before the GPU passes so their pages can be readied. */
export interface HostOutput {
  cost: Float32Array;
  labels: Int32Array;
  backlink: Uint8Array | null;
}

const PAGE = 4096;
/** Bytes touched per turn of the event loop: about half a millisecond of page faults. */
const CHUNK = 1 << 21;

const nextTurn: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Writes a zero into every page of `views`, a chunk per turn of the event loop, so that the
 * operating system maps their pages while the GPU works (a fresh large array is mapped lazily:
 * the first write to each page faults, which otherwise happens during the copy out of the
 * readback mapping, at a few GB/s on one thread). `finish` touches what is left at once.
 */
export function readyPages(views: readonly ArrayBufferView[]): { finish(): Promise<void> } {
  let hurry = false;
  const run = (async () => {
    for (const view of views) {
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      let at = 0;
      while (at < bytes.length) {
        const end = hurry ? bytes.length : Math.min(bytes.length, at + CHUNK);
        for (; at < end; at += PAGE) bytes[at] = 0;
        if (!hurry) await nextTurn();
      }
    }
  })();
  return {
    finish: () => {
      hurry = true;
      return run;
    },
  };
}

/**
 * The run's output arrays, prepared while the GPU works: costs and labels as the two halves of
 * one array from `outputArray` (e.g. one whose pages worker threads map) when given, else fresh
 * arrays whose pages this thread touches between turns of the event loop ({@link readyPages});
 * backlinks, when asked for, in an array of their own. `ready` resolves when they can be filled.
 */
export function prepareOutput(
  cells: number,
  backlink: boolean,
  outputArray?: (length: number) => Promise<Float64Array>,
): { ready(): Promise<HostOutput> } {
  const links = backlink ? new Uint8Array(cells) : null;
  if (outputArray) {
    const arrays = outputArray(cells).then((both) => ({
      cost: new Float32Array(both.buffer, both.byteOffset, cells),
      labels: new Int32Array(both.buffer, both.byteOffset + 4 * cells, cells),
      backlink: links,
    }));
    const pages = readyPages(links ? [links] : []);
    return {
      ready: async () => {
        await pages.finish();
        return arrays;
      },
    };
  }
  const output: HostOutput = {
    cost: new Float32Array(cells),
    labels: new Int32Array(cells),
    backlink: links,
  };
  const pages = readyPages([output.cost, output.labels, ...(links ? [links] : [])]);
  return {
    ready: async () => {
      await pages.finish();
      return output;
    },
  };
}
