/** One named stretch of host time, in ms. */
export interface HostSpan {
  name: string;
  ms: number;
}

/**
 * Host time of a run, span by span (what `RasterGpuStats.hostSpans` reports): each {@link lap}
 * closes the span since the previous one. Cheap enough to be always on (a clock read a span).
 */
export class HostSpans {
  private last = performance.now();
  private readonly spans: HostSpan[] = [];

  /** Closes the span since the last lap (or restart) under `name`. */
  lap(name: string): void {
    const now = performance.now();
    this.add(name, now - this.last);
    this.last = now;
  }

  /** Adds a span measured elsewhere (same name: summed). */
  add(name: string, ms: number): void {
    const found = this.spans.find((s) => s.name === name);
    if (found) found.ms += ms;
    else this.spans.push({ name, ms });
  }

  /** Starts the next span now (after spans added by {@link add}). */
  restart(): void {
    this.last = performance.now();
  }

  /** The spans so far, in order. */
  list(): HostSpan[] {
    return this.spans.map((s) => ({ ...s }));
  }
}
