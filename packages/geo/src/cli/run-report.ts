import { resolve } from 'node:path';
import type { DispatchEvent } from '@geoframe/core';
import type { CliIo } from './command.js';
import { type ProgressMode, ProgressView, progressModeOf } from './progress-view.js';

/** What `--json` prints when a command is done: what ran where, on how much, how long, and what it wrote. */
export interface RunSummary {
  command: string;
  input: string;
  /** Input rows. */
  rows: number;
  /** The size that decided the dispatch (unique sites, cells) and what came out. */
  sites?: number;
  outputRows?: number;
  /** Each dispatch decision and fallback, in order: the last one says where the work ran. */
  dispatch: { kernel: string; type: string; path: string; rows: number; reason: string; stage?: string }[];
  /** Where the main work ran in the end: 'cpu' or 'gpu'. */
  device: string | null;
  /** Milliseconds per step, and in all. */
  timings: Record<string, number>;
  /** Absolute paths of the files written. */
  outputs: string[];
}

/** The flags every working verb shares: silence (`--quiet`) and a JSON summary (`--json`). */
export const REPORT_OPTIONS = {
  quiet: { type: 'boolean', short: 'q' },
  json: { type: 'boolean' },
} as const;

export const REPORT_USAGE = `  -q, --quiet                no progress and no summary (errors still print)
  --json                     print a JSON summary (device, sites, times, outputs) on stdout`;

/**
 * The reporting side of a command run: a progress view on stderr, step timings, and the summary
 * printed at the end — prose lines, one JSON object (`--json`), or nothing (`--quiet`).
 */
export class RunReport {
  readonly progress: ProgressView;
  readonly timings: Record<string, number> = {};
  private readonly json: boolean;
  private readonly quiet: boolean;
  private readonly started = performance.now();
  private mark = this.started;

  constructor(
    private readonly io: CliIo,
    values: Record<string, string | boolean | undefined>,
  ) {
    this.quiet = values.quiet === true;
    this.json = values.json === true;
    const mode: ProgressMode = progressModeOf(io, this.quiet);
    this.progress = new ProgressView(io, mode);
  }

  /** The listener to pass as `onProgress` (undefined with --quiet). */
  get onProgress() {
    return this.progress.listener;
  }

  /** Records the time since the previous step as step `name`. */
  step(name: string): void {
    const now = performance.now();
    this.timings[name] = Math.round(now - this.mark);
    this.mark = now;
  }

  /** Prints the summary: `lines` as prose, or `summary` as JSON; nothing with --quiet. */
  finish(
    summary: Omit<RunSummary, 'timings' | 'dispatch' | 'device'>,
    events: DispatchEvent[],
    lines: string[],
  ): void {
    this.progress.close();
    this.timings.total = Math.round(performance.now() - this.started);
    if (this.json) {
      const dispatch = events.map((e) => ({
        kernel: e.kernel,
        type: e.type,
        path: e.path,
        rows: e.rows,
        reason: e.reason,
        ...(e.stage === undefined ? {} : { stage: e.stage }),
      }));
      const full: RunSummary = {
        ...summary,
        outputs: summary.outputs.map((p) => resolve(p)),
        dispatch,
        device: events.at(-1)?.path ?? null,
        timings: this.timings,
      };
      this.io.out(`${JSON.stringify(full, null, 2)}\n`);
    } else if (!this.quiet) {
      for (const line of lines) this.io.out(`${line}\n`);
    }
  }
}
