import { parseArgs } from 'node:util';
import { GeoframeError } from '@geoframe/core';

/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether `err` is a terminal (the CLI then draws a progress bar there). */
  errIsTTY?: boolean;
  /** The terminal's width in characters, when `err` is one. */
  errColumns?: number;
  /** Progress pacing (tests): silence before the first report (1 s), plain lines' spacing (5 s). */
  progressTiming?: { delayMs: number; lineEveryMs: number };
}

/** A CLI verb: its help text, its options (node:util parseArgs form) and what it does. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  /** Runs with parsed values and positionals; returns the exit code. */
  run(
    values: Record<string, string | boolean | undefined>,
    positionals: string[],
    io: CliIo,
  ): Promise<number>;
}

/** Bad command-line usage: printed with a pointer to --help, exit code 2. */
export class UsageError extends GeoframeError {
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}

/** Parses `argv` for `command`, answering --help; returns the exit code. */
export async function runCommand(command: Command, argv: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs({
    args: argv,
    options: { ...command.options, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (parsed.values.help) {
    io.out(`${command.usage}\n`);
    return 0;
  }
  return command.run(parsed.values as Record<string, string | boolean | undefined>, parsed.positionals, io);
}

/** Parses "a,b,c,d" into four finite numbers, or throws a UsageError naming the option. */
export function parseBox(text: string, option: string): [number, number, number, number] {
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((v) => !Number.isFinite(v))) {
    throw new UsageError(`${option} needs four numbers xmin,ymin,xmax,ymax, got "${text}"`);
  }
  if (!Number.isFinite(parts[2] - parts[0]) || !Number.isFinite(parts[3] - parts[1])) {
    throw new UsageError(`${option} spans more than the largest double: "${text}"`);
  }
  return parts as [number, number, number, number];
}
