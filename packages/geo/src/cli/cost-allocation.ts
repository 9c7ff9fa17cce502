import { writeFile as writeBytes } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type CostConnectivity, CostGridError, GeoframeError, InvalidGeometryError } from '@geoframe/core';
import { formatOfPath, readFile, writeFile } from '../file-io.js';
import { readRaster, writeRaster } from '../raster/geotiff-io.js';
import { type CliIo, type Command, UsageError } from './command.js';
import { REPORT_OPTIONS, REPORT_USAGE, RunReport } from './run-report.js';
import { deviceOf, withDispatchLog } from './voronoi.js';

function connectivityOf(value: string | boolean | undefined): CostConnectivity | undefined {
  if (value === undefined) return undefined;
  const c = Number(value);
  if (c !== 4 && c !== 8 && c !== 16)
    throw new UsageError(`--connectivity must be 4, 8 or 16, got "${value}"`);
  return c;
}

function maxCostOf(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const c = Number(value);
  if (!(c >= 0)) throw new UsageError(`--max-cost needs a number ≥ 0, got "${value}"`);
  return c;
}

/** The same error with the file it is about in front of its message. */
function inFile(error: unknown, path: string): unknown {
  if (!(error instanceof GeoframeError)) return error;
  return new GeoframeError(error.code, `${path}: ${error.message}`, { cause: error });
}

export const costAllocationCommand: Command = {
  name: 'cost-allocation',
  summary: 'Cost allocation: per cell of a cost raster, the cheapest point to reach, and the cost',
  usage: `Usage: geoframe cost-allocation <sources> --cost <cost.tif> [-o <out>] [options]

Allocates every cell of the cost raster (a single-band north-up GeoTIFF: cost per unit length,
no-data cells are barriers) to the point of <sources> it reaches most cheaply, moving from cell
centre to cell centre at a step cost of length × the mean of the two cells' values. Writes the
allocations as polygons, one row per source row with its attributes (GeoParquet, GeoArrow IPC or
GeoJSON by extension). See docs/cost-allocation.md.

Options:
  --cost <file.tif>          the cost raster (required)
  -o, --output <file>        where to write the polygons (default: <sources>-cost-allocation.parquet)
  --png <file.png>           a picture of the allocation, shaded by cost
  --labels <file.tif>        the allocation raster: per cell the source row (−1: none)
  --cost-out <file.tif>      the accumulated cost raster (no-data −1 where unreached)
  --connectivity 4|8|16      neighbours per step (default 8; 16 adds knight's moves)
  --metric cost|compliance   values are costs (default) or stiffnesses (cost = 1/value)
  --max-cost <c>             leave cells costlier than c unreached
  --device auto|gpu|cpu      where to run (default auto)
${REPORT_USAGE}
  -h, --help                 this text`,
  options: {
    cost: { type: 'string' },
    output: { type: 'string', short: 'o' },
    png: { type: 'string' },
    labels: { type: 'string' },
    'cost-out': { type: 'string' },
    connectivity: { type: 'string' },
    metric: { type: 'string' },
    'max-cost': { type: 'string' },
    device: { type: 'string' },
    ...REPORT_OPTIONS,
  },
  async run(values, positionals, io: CliIo) {
    if (positionals.length !== 1) throw new UsageError('cost-allocation needs one <sources> file');
    const costPath = values.cost as string | undefined;
    if (!costPath) throw new UsageError('cost-allocation needs --cost <cost.tif>');
    const metric = (values.metric ?? 'cost') as string;
    if (metric !== 'cost' && metric !== 'compliance') {
      throw new UsageError(`--metric must be cost or compliance, got "${metric}"`);
    }
    const sourcesPath = positionals[0];
    const output =
      (values.output as string | undefined) ??
      `${sourcesPath.replace(/\.[^./]+$/, '')}-cost-allocation.parquet`;
    formatOfPath(output);
    const png = values.png as string | undefined;
    if (png && !png.toLowerCase().endsWith('.png'))
      throw new UsageError(`--png must end in .png, got "${png}"`);
    const options = {
      connectivity: connectivityOf(values.connectivity),
      metric: metric as 'cost' | 'compliance',
      maxCost: maxCostOf(values['max-cost']),
      device: deviceOf(values.device),
    };
    const report = new RunReport(io, values);
    try {
      const frame = await readFile(sourcesPath, { onProgress: report.onProgress });
      const cost = await readRaster(costPath);
      report.step('read');
      const { value: result, events } = await withDispatchLog((onDispatch) =>
        frame
          .costAllocation({ cost, ...options, onDispatch, onProgress: report.onProgress })
          .catch((error: unknown) => {
            throw error instanceof InvalidGeometryError
              ? inFile(error, sourcesPath)
              : error instanceof CostGridError
                ? inFile(error, costPath)
                : error;
          }),
      );
      report.step('costAllocation');
      await writeFile(result.toPolygons(), output, { onProgress: report.onProgress });
      const grid = { width: result.width, height: result.height, bounds: result.bounds, crs: cost.crs };
      if (values.labels) await writeRaster(values.labels as string, { ...grid, values: result.labels });
      if (values['cost-out'])
        await writeRaster(values['cost-out'] as string, { ...grid, values: result.cost });
      if (png) await writeBytes(png, await result.toPNG());
      report.step('write');
      const reached = result.labels.reduce((n, l) => n + (l >= 0 ? 1 : 0), 0);
      const e = events[0];
      const written = [output, png, values.labels, values['cost-out']].filter(Boolean) as string[];
      report.finish(
        {
          command: 'cost-allocation',
          input: sourcesPath,
          rows: frame.length,
          sites: result.sourceRows.length,
          outputRows: result.sourceRows.length,
          outputs: written,
        },
        events,
        [
          `ran costAllocation on ${result.path.toUpperCase()} for ${e?.rows ?? 0} cells (${events.map((x) => x.reason).join('; ')})`,
          `${result.sourceRows.length} sources, ${reached} of ${result.labels.length} cells reached; ${report.timings.read + report.timings.costAllocation} ms`,
          `wrote ${written.map((p) => resolve(p)).join(', ')}`,
        ],
      );
      return 0;
    } finally {
      report.progress.close();
    }
  },
};
