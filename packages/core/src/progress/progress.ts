/**
 * What a long operation reports as it goes: which operation, which stage of it, how far that
 * stage is, and the whole operation's estimated fraction and elapsed time. Stages are named by
 * the operation ('sites', 'diagram', 'clip', 'cells', 'read', 'decode', 'write', 'iteration', …);
 * `done`/`total` count the stage's own units (`unit`: sites, pixels, rows, bytes, iterations).
 */
export interface ProgressEvent {
  /** The operation as the user calls it: 'voronoiPolygons', 'readFile', 'centroidalVoronoi', … */
  operation: string;
  /** The stage now running. */
  stage: string;
  /** Units of the stage done so far (0 ≤ done ≤ total). */
  done: number;
  /** Units the stage has; 0 when unknown (a stage that only reports its start and end). */
  total: number;
  /** What `done` and `total` count. */
  unit: string;
  /** Estimated fraction of the whole operation done, 0 to 1 (stages weighted by the operation). */
  fraction: number;
  /** Milliseconds since the operation started. */
  elapsedMs: number;
  /** True on the operation's last event (fraction 1). */
  finished: boolean;
}

/**
 * A function that hears progress events. One that throws stops the operation with its error
 * (the way to cancel long work); nothing is returned or left half-written by the operation.
 */
export type ProgressCallback = (event: ProgressEvent) => void;

/**
 * A progress listener with its own pacing: no event before `delayMs` of work (default 1000, so
 * short work stays silent), then at most one every `intervalMs` (default 100) — stage changes and
 * the final event always pass once anything was reported.
 */
export interface ProgressListener {
  callback: ProgressCallback;
  delayMs?: number;
  intervalMs?: number;
}

/** What an operation's `onProgress` option takes: a callback (default pacing) or a listener. */
export type ProgressOption = ProgressCallback | ProgressListener;

/** A stage of an operation and its share of the whole (weights are normalized). */
export interface ProgressStage {
  name: string;
  weight: number;
  unit?: string;
}

const DEFAULT_DELAY_MS = 1000;
const DEFAULT_INTERVAL_MS = 100;

function checkPacing(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value >= 0)) {
    throw new RangeError(`onProgress: ${name} must be a number of milliseconds ≥ 0, got ${value}`);
  }
  return value;
}

/**
 * Reports an operation's progress to an `onProgress` option, paced (see {@link ProgressListener}).
 * An operation makes one per call, declares its stages up front, then calls `stage`, `advance`
 * and `finish`; with no listener every call is a no-op, so hot loops may call `advance` freely
 * (it only reads the clock every 1/64 of a stage).
 */
export class ProgressReporter {
  private readonly callback: ProgressCallback | null;
  private readonly delayMs: number;
  private readonly intervalMs: number;
  private readonly start = performance.now();
  private readonly weights: Map<string, { before: number; share: number; unit: string }>;
  private lastEmit = Number.NEGATIVE_INFINITY;
  private reported = false;
  private current = { name: '', before: 0, share: 0, unit: '', total: 0, done: 0, nextCheck: 0 };

  constructor(
    readonly operation: string,
    option: ProgressOption | undefined,
    stages: readonly ProgressStage[],
  ) {
    if (option !== undefined && typeof option !== 'function' && typeof option?.callback !== 'function') {
      throw new TypeError(`${operation}: onProgress must be a function or {callback, delayMs?, intervalMs?}`);
    }
    this.callback = option === undefined ? null : typeof option === 'function' ? option : option.callback;
    const listener = typeof option === 'object' ? option : undefined;
    this.delayMs = checkPacing('delayMs', listener?.delayMs, DEFAULT_DELAY_MS);
    this.intervalMs = checkPacing('intervalMs', listener?.intervalMs, DEFAULT_INTERVAL_MS);
    const sum = stages.reduce((s, st) => s + st.weight, 0) || 1;
    this.weights = new Map();
    let before = 0;
    for (const st of stages) {
      this.weights.set(st.name, { before, share: st.weight / sum, unit: st.unit ?? '' });
      before += st.weight / sum;
    }
  }

  /** True when someone listens (operations may skip work done only for progress). */
  get active(): boolean {
    return this.callback !== null;
  }

  /** Starts stage `name` (one of the declared stages) with `total` units (0: unknown). */
  stage(name: string, total = 0): void {
    if (this.callback === null) return;
    const w = this.weights.get(name) ?? { before: this.fractionNow(), share: 0, unit: '' };
    this.current = { name, before: w.before, share: w.share, unit: w.unit, total, done: 0, nextCheck: 0 };
    this.emit(true, false);
  }

  /** The current stage has done `done` of its units (a count below one reported before is ignored). */
  advance(done: number): void {
    if (this.callback === null) return;
    const c = this.current;
    if (!(done > c.done)) return; // e.g. a CPU rerun after a GPU failure counts from 0 again
    c.done = Math.min(done, c.total > 0 ? c.total : done);
    if (done < c.nextCheck) return;
    c.nextCheck = done + Math.max(1, c.total / 64);
    this.emit(false, false);
  }

  /**
   * For an engine that reports the share of its work done (0 to 1): a callback that advances
   * the current stage to that share of its units; undefined when nobody listens, so the engine
   * skips its counting.
   */
  stageFraction(): ((fraction: number) => void) | undefined {
    if (this.callback === null) return undefined;
    const c = this.current;
    return (fraction) => {
      if (this.current === c) this.advance(Math.floor(fraction * c.total));
    };
  }

  /** The operation is over: one last event (fraction 1) if anything was reported before. */
  finish(): void {
    if (this.callback === null) return;
    this.current.done = this.current.total;
    this.emit(true, true);
  }

  private fractionNow(): number {
    const c = this.current;
    return Math.min(1, c.before + (c.total > 0 ? (c.share * c.done) / c.total : 0));
  }

  private emit(always: boolean, finished: boolean): void {
    const now = performance.now();
    const elapsedMs = now - this.start;
    if (elapsedMs < this.delayMs) return;
    if (!finished && !(always && this.reported) && now - this.lastEmit < this.intervalMs) return;
    if (finished && !this.reported && elapsedMs < this.delayMs) return;
    this.lastEmit = now;
    this.reported = true;
    const c = this.current;
    this.callback?.({
      operation: this.operation,
      stage: c.name,
      done: c.done,
      total: c.total,
      unit: c.unit,
      fraction: finished ? 1 : this.fractionNow(),
      elapsedMs,
      finished,
    });
  }
}
