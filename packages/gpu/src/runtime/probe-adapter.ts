import type { AdapterSummary } from '@geoframe/core';
import { type GpuAdapterSummary, summarizeAdapter } from './gpu-context.js';
import { loadGpu } from './load-gpu.js';

let probed: Promise<GpuAdapterSummary | null> | undefined;
let known: GpuAdapterSummary | null | undefined;

/**
 * The default adapter (the one `getGpuContext` would use) as dispatch sees it — its info and
 * class — or null when there is no WebGPU or no adapter. Asks for the adapter only, not a device
 * (about 60 ms with Dawn on lavapipe), once per process: later calls answer from the first.
 * Never throws: any failure to get an adapter reads as none.
 */
export function probeGpuAdapter(): Promise<AdapterSummary | null> {
  probed ??= (async () => {
    try {
      const gpu = await loadGpu();
      const adapter = await gpu.requestAdapter();
      known = adapter ? summarizeAdapter(adapter.info, adapter) : null;
    } catch {
      known = null;
    }
    return known;
  })();
  return probed;
}

/**
 * What {@link probeGpuAdapter} found, without waiting: the summary, null for no adapter, or
 * undefined when no probe has finished yet (what a synchronous `explain` reports).
 */
export function probedGpuAdapter(): AdapterSummary | null | undefined {
  return known;
}
