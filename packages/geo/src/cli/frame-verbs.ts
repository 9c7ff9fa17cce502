import { readFile, writeFile } from '../file-io.js';
import type { GeoDataFrame } from '../geo-data-frame.js';
import { type CliIo, UsageError } from './command.js';
import { checkOutputs } from './voronoi.js';

/** The `-o/--output` option the frame verbs share. */
export const OUTPUT_OPTION = { output: { type: 'string', short: 'o' } } as const;

/** The output path, checked (format by extension, folder exists) before any input is read. */
export function requireOutput(values: Record<string, string | boolean | undefined>, verb: string): string {
  const output = values.output as string | undefined;
  if (output === undefined) throw new UsageError(`${verb} needs -o <out> (.parquet, .arrow, .geojson, .fgb)`);
  checkOutputs(output, undefined);
  return output;
}

/** One of `allowed` or the default; anything else is a UsageError naming the option. */
export function choice<T extends string>(
  value: unknown,
  allowed: readonly T[],
  option: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value as string)) {
    throw new UsageError(`${option} must be ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** Reads the inputs, runs `work`, writes the result and says what was written. */
export async function runFrameVerb(
  inputs: string[],
  output: string,
  io: CliIo,
  work: (frames: GeoDataFrame[]) => GeoDataFrame | Promise<GeoDataFrame>,
): Promise<number> {
  const started = performance.now();
  const frames = await Promise.all(inputs.map((path) => readFile(path)));
  const result = await work(frames);
  await writeFile(result, output);
  const ms = (performance.now() - started).toFixed(0);
  const crs = result.crs === null ? 'no CRS' : typeof result.crs === 'string' ? result.crs : 'a PROJJSON CRS';
  io.out(`wrote ${output}: ${result.length} rows, ${result.columns.length} columns, ${crs} (${ms} ms)\n`);
  return 0;
}
