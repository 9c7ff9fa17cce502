/**
 * Where a CPU engine reports how far one call is: the share of its work done, from 0 to 1, never
 * decreasing; always called on the caller's thread (worker ranges are counted as their results
 * arrive). The caller paces what it shows (geo's `ProgressReporter`).
 */
export type WorkProgress = (fraction: number) => void;

/**
 * One engine call's progress over its passes. The call declares its passes with their rough
 * shares of its time, then `pass` starts each and `units` moves inside one (ranges finished by
 * the worker pool, points inserted by delaunator, rows of a loop here). Passes a call skips
 * (e.g. the exact repair when the float filter certified every edge) are jumped over.
 * Without a listener every method returns at once, so hot loops may check `active` and skip
 * their counting entirely.
 */
export class WorkMeter {
  /** The meter of calls nobody listens to. */
  static readonly SILENT = new WorkMeter(undefined, []);

  private readonly passes = new Map<string, { before: number; share: number }>();
  private before = 0;
  private share = 0;
  private last = 0;

  constructor(
    private readonly report: WorkProgress | undefined,
    passes: readonly (readonly [name: string, weight: number])[],
  ) {
    const sum = passes.reduce((s, [, w]) => s + w, 0) || 1;
    let before = 0;
    for (const [name, weight] of passes) {
      this.passes.set(name, { before, share: weight / sum });
      before += weight / sum;
    }
  }

  /** A meter for `report` over `passes` (or {@link SILENT} when `report` is undefined). */
  static of(report: WorkProgress | undefined, passes: readonly (readonly [string, number])[]): WorkMeter {
    return report === undefined ? WorkMeter.SILENT : new WorkMeter(report, passes);
  }

  /** True when someone listens. */
  get active(): boolean {
    return this.report !== undefined;
  }

  /** Starts pass `name` (a pass not declared by the call changes nothing). */
  pass(name: string): void {
    if (this.report === undefined) return;
    const p = this.passes.get(name);
    if (p === undefined) return;
    this.before = p.before;
    this.share = p.share;
    this.emit(p.before);
  }

  /** The current pass has done `done` of its `total` units. */
  units(done: number, total: number): void {
    if (this.report === undefined || !(total > 0)) return;
    this.emit(this.before + this.share * Math.min(1, done / total));
  }

  private emit(fraction: number): void {
    if (!(fraction > this.last)) return;
    this.last = Math.min(1, fraction);
    this.report?.(this.last);
  }
}

/** Chunks a loop here is cut into when someone listens (one chunk otherwise). */
const CHUNKS = 32;

/**
 * Runs `body(lo, hi)` over `0 .. n` on this thread, reporting to `meter` after each chunk when
 * it listens (a range kernel run here in pieces: the same output, a few more calls).
 */
export function inChunks(n: number, meter: WorkMeter, body: (lo: number, hi: number) => void): void {
  if (!meter.active || n < 2 * CHUNKS) {
    body(0, n);
    meter.units(n, n);
    return;
  }
  for (let c = 0; c < CHUNKS; c++) {
    const hi = Math.round((n * (c + 1)) / CHUNKS);
    body(Math.round((n * c) / CHUNKS), hi);
    meter.units(hi, n);
  }
}
