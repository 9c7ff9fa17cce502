import { GeoframeError } from '@geoframe/core';
import { type CliIo, type Command, runCommand, UsageError } from './command.js';
import { convertCommand } from './convert.js';
import { costAllocationCommand } from './cost-allocation.js';
import { cvtCommand } from './cvt.js';
import { delaunayCommand } from './delaunay.js';
import { dissolveCommand } from './dissolve.js';
import { infoCommand } from './info.js';
import { sjoinCommand } from './sjoin.js';
import { toCrsCommand } from './to-crs.js';
import { voronoiCommand } from './voronoi.js';

const COMMANDS: Command[] = [
  voronoiCommand,
  delaunayCommand,
  costAllocationCommand,
  cvtCommand,
  convertCommand,
  infoCommand,
  sjoinCommand,
  toCrsCommand,
  dissolveCommand,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: geoframe <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "geoframe <command> --help" for a command's options.`;
}

/**
 * Runs the geoframe CLI on `argv` (without node and the script) and returns the exit code:
 * 0 on success, 1 when the work failed, 2 for bad usage. Errors print as one line on `io.err`.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    io.out(`${overview()}\n`);
    return verb === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === verb);
  if (!command) {
    io.err(`geoframe: unknown command "${verb}" (commands: ${COMMANDS.map((c) => c.name).join(', ')})\n`);
    return 2;
  }
  try {
    return await runCommand(command, rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`geoframe ${verb}: ${message} (see geoframe ${verb} --help)\n`);
      return 2;
    }
    const known = error instanceof GeoframeError || (error as { code?: string }).code === 'ENOENT';
    io.err(`geoframe ${verb}: ${known ? message : `unexpected error: ${message}`}\n`);
    return 1;
  }
}
