import { GpuOutOfMemoryError } from './errors.js';

/**
 * An `out-of-memory` error scope around a run of device calls that can be closed as soon as the
 * last call is made and opened again if more follow: its verdict is then on its way while the
 * run waits for the GPU, instead of after. Popping a scope waits for the queue's submitted work
 * through Dawn (~1 ms after 20 large copies, and up to ~20 ms measured at the end of a 1M-site
 * Voronoi run on the H100 host; docs/benchmarks.md, "Host costs"). Allocation failures are
 * reported when a device call is made, so a scope closed after the last call misses none.
 *
 * Scopes are a per-device stack: as with any error scope, runs that interleave their device
 * calls share what they catch.
 */
export class MemoryScope {
  private readonly verdicts: Promise<GPUError | null>[] = [];
  private open = false;

  constructor(private readonly device: GPUDevice) {
    this.reopen();
  }

  /** Opens the scope again (no-op when open): device calls follow. */
  reopen(): void {
    if (this.open) return;
    this.device.pushErrorScope('out-of-memory');
    this.open = true;
  }

  /** Closes the scope (no-op when closed): no device call follows until {@link reopen}. */
  close(): void {
    if (!this.open) return;
    this.verdicts.push(this.device.popErrorScope());
    this.open = false;
  }

  /**
   * Closes the scope and throws a {@link GpuOutOfMemoryError} (labelled `label`) when any of its
   * openings caught an allocation failure.
   */
  async check(label: string): Promise<void> {
    this.close();
    for (const error of await Promise.all(this.verdicts)) {
      if (error) throw new GpuOutOfMemoryError(label, 0, error.message);
    }
  }
}
