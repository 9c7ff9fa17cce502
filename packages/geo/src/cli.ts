#!/usr/bin/env node
import { runCli } from './cli/run-cli.js';

const io = {
  out: (text: string) => process.stdout.write(text),
  err: (text: string) => process.stderr.write(text),
  errIsTTY: process.stderr.isTTY === true,
  errColumns: process.stderr.columns,
};
process.exitCode = await runCli(process.argv.slice(2), io);
