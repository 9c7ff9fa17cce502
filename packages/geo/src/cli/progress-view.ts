import type { ProgressEvent, ProgressListener } from '@geoframe/core';
import type { CliIo } from './command.js';

/** How the CLI shows progress: a redrawn bar (stderr is a terminal), plain lines, or nothing. */
export type ProgressMode = 'bar' | 'lines' | 'off';

/** `--quiet` silences progress; otherwise a bar on a terminal, plain lines elsewhere (logs, CI). */
export function progressModeOf(io: CliIo, quiet: boolean): ProgressMode {
  return quiet ? 'off' : io.errIsTTY ? 'bar' : 'lines';
}

const BAR_CELLS = 16;

/** 1234567 → "1.2M", 45600 → "46k": rates in a narrow line. */
function compact(n: number): string {
  if (n < 10_000) return String(Math.round(n));
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** A duration for people: "850 ms", "12.3 s", "4 min 05 s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * Shows the progress events of the operations a command runs on stderr: a bar with the stage,
 * its rate and the estimated time left, redrawn in place at most ten times a second (and once a
 * second by a timer while the event loop is free, so the elapsed time moves); or one plain line
 * per stage and every few seconds; or nothing. Work under a second shows nothing.
 */
export class ProgressView {
  /** The listener to hand an operation's `onProgress`; undefined when progress is off. */
  readonly listener: ProgressListener | undefined;
  private last: ProgressEvent | null = null;
  private stageStart = { key: '', ms: 0 };
  private drawn = 0; // characters of the bar on screen
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastLine = 0;
  private opStart = 0; // performance.now() when the current operation started
  private readonly lineEveryMs: number;

  constructor(
    private readonly io: CliIo,
    private readonly mode: ProgressMode,
  ) {
    const timing = io.progressTiming ?? { delayMs: 1000, lineEveryMs: 5000 };
    this.lineEveryMs = timing.lineEveryMs;
    const intervalMs = mode === 'bar' ? 100 : Math.min(1000, timing.lineEveryMs);
    this.listener =
      mode === 'off' ? undefined : { callback: (e) => this.onEvent(e), delayMs: timing.delayMs, intervalMs };
  }

  private onEvent(event: ProgressEvent): void {
    const key = `${event.operation}/${event.stage}`;
    const newStage = key !== this.stageStart.key;
    if (newStage) this.stageStart = { key, ms: event.elapsedMs };
    this.last = event;
    this.opStart = performance.now() - event.elapsedMs;
    if (this.mode === 'bar') {
      if (event.finished) {
        this.clear();
        return;
      }
      this.draw(event, event.elapsedMs);
      if (this.timer === null) {
        this.timer = setInterval(() => {
          if (this.last && !this.last.finished) this.draw(this.last, performance.now() - this.opStart);
        }, 1000);
        this.timer.unref?.();
      }
      return;
    }
    // plain lines: each stage once, long stages again every 5 s, and the end
    if (newStage || event.finished || event.elapsedMs - this.lastLine >= this.lineEveryMs) {
      this.lastLine = event.elapsedMs;
      this.io.err(`${this.describe(event, event.elapsedMs)}\n`);
    }
  }

  /** One line of text for `event` seen `elapsedMs` into its operation. */
  private describe(event: ProgressEvent, elapsedMs: number): string {
    const percent = `${Math.floor(event.fraction * 100)}%`;
    if (event.finished) return `${event.operation}: done in ${duration(elapsedMs)}`;
    const parts = [`${percent} ${event.operation}`, event.stage];
    // a stage that reports only its start shows its size; one that counts shows done/total and rate
    const counting = event.done > 0 && !event.finished;
    if (event.total > 0 && !counting) parts.push(`${compact(event.total)} ${event.unit}`);
    if (event.total > 0 && counting) {
      parts.push(`${compact(event.done)}/${compact(event.total)} ${event.unit}`);
      const stageMs = event.elapsedMs - this.stageStart.ms;
      if (stageMs > 0) parts.push(`${compact((1000 * event.done) / stageMs)} ${event.unit}/s`);
    }
    parts.push(duration(elapsedMs));
    // the time left only from measured progress inside a stage: stage weights alone would guess
    if (counting && event.fraction > 0.02) {
      parts.push(`ETA ${duration((elapsedMs * (1 - event.fraction)) / event.fraction)}`);
    }
    return parts.join('  ');
  }

  private draw(event: ProgressEvent, elapsedMs: number): void {
    const filled = Math.round(event.fraction * BAR_CELLS);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_CELLS - filled)}]`;
    let text = `${bar} ${this.describe(event, elapsedMs)}`;
    const width = Math.max(40, this.io.errColumns || 100) - 1; // 0 columns: a pseudo-terminal without a size
    if (text.length > width) text = text.slice(0, width);
    this.io.err(`\r${text.padEnd(this.drawn)}`);
    this.drawn = text.length;
  }

  private clear(): void {
    if (this.drawn > 0) this.io.err(`\r${' '.repeat(this.drawn)}\r`);
    this.drawn = 0;
  }

  /** Stops the timer and clears the bar; call when the command ends, also on errors. */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.mode === 'bar') this.clear();
  }
}
