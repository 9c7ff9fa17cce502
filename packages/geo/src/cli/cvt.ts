import { resolve } from 'node:path';
import { readFile, writeFile } from '../file-io.js';
import { readRaster } from '../raster/geotiff-io.js';
import { type CliIo, type Command, parseBox, UsageError } from './command.js';
import { ProgressView, progressModeOf } from './progress-view.js';
import { checkOutputs, describeRun, deviceOf, readSites, withDispatchLog, writePlot } from './voronoi.js';

function positiveInteger(value: string | boolean | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const v = Number(value);
  if (!Number.isInteger(v) || v < 1) throw new UsageError(`${option} needs an integer ≥ 1, got "${value}"`);
  return v;
}

function oneOf<T extends string>(
  value: string | boolean | undefined,
  option: string,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T))
    throw new UsageError(`${option} must be ${allowed.join(' or ')}, got "${value}"`);
  return value as T;
}

export const cvtCommand: Command = {
  name: 'cvt',
  summary: 'centroidal Voronoi tessellation: move points to the centroids of their cells',
  usage: `Usage: geoframe cvt <sites> [-o <out>] [options]

Moves the points of <sites> (a file, or a demo data set) until each sits at the centroid of its
Voronoi cell within the region, under an optional density (docs/cvt.md), and writes the final
points with the input's attributes to <out> (GeoJSON, GeoParquet or GeoArrow IPC by extension).

Options:
  -o, --output <file>        the final points (default: <sites>-cvt.parquet)
  --cells <file>             also write the cells, clipped to the region, with the attributes
  --region <file | xmin,ymin,xmax,ymax>  polygons or a box (default: the points' box grown 5 %)
  --density <file.tif>       a density raster (default: uniform)
  --method lloyd|lbfgs       the optimiser (default lloyd)
  --mode exact|raster        exact cells, or a grid per iteration (default exact)
  --iterations <n>           Lloyd iterations or L-BFGS evaluations (default 200)
  --tolerance <t>            stop when ‖∇F‖ ≤ t · 2 · mass · diagonal (default 1e-5)
  --resolution <n>           raster mode: pixels along the longer side (default 512)
  --device auto|gpu|cpu      where to run (default auto)
  --plot <file.svg|file.png> draw the cells and the final points
  -h, --help                 this text`,
  options: {
    output: { type: 'string', short: 'o' },
    cells: { type: 'string' },
    region: { type: 'string' },
    density: { type: 'string' },
    method: { type: 'string' },
    mode: { type: 'string' },
    iterations: { type: 'string' },
    tolerance: { type: 'string' },
    resolution: { type: 'string' },
    device: { type: 'string' },
    plot: { type: 'string' },
  },
  async run(values, positionals, io: CliIo) {
    if (positionals.length !== 1) throw new UsageError('cvt needs one <sites> (a file or a demo name)');
    const started = performance.now();
    const method = oneOf(values.method, '--method', ['lloyd', 'lbfgs'] as const, 'lloyd');
    const mode = oneOf(values.mode, '--mode', ['exact', 'raster'] as const, 'exact');
    const iterations = positiveInteger(values.iterations, '--iterations', 200);
    const resolution = positiveInteger(values.resolution, '--resolution', 512);
    const tolerance = values.tolerance === undefined ? undefined : Number(values.tolerance);
    if (tolerance !== undefined && !(tolerance >= 0 && Number.isFinite(tolerance))) {
      throw new UsageError(`--tolerance needs a number ≥ 0, got "${values.tolerance}"`);
    }
    const device = deviceOf(values.device);
    const input = await readSites(positionals[0]);
    const output = (values.output as string | undefined) ?? `${input.stem}-cvt.parquet`;
    const cellsPath = values.cells as string | undefined;
    const plot = values.plot as string | undefined;
    checkOutputs(output, plot);
    checkOutputs(cellsPath, undefined);
    const regionText = values.region as string | undefined;
    const region =
      regionText === undefined
        ? (input.clipTo ?? undefined)
        : /^[-+0-9.eE]+(,[-+0-9.eE]+){3}$/.test(regionText)
          ? parseBox(regionText, '--region')
          : (await readFile(regionText)).geometry;
    const density = values.density ? await readRaster(values.density as string) : undefined;
    const loaded = performance.now();

    let last = { iteration: 0, energy: Number.NaN };
    // a bar (a terminal) or plain lines on stderr for runs over a second
    const progress = new ProgressView(io, progressModeOf(io, false));
    const cvt = () =>
      withDispatchLog((onDispatch) =>
        input.frame.centroidalVoronoi({
          method,
          mode,
          iterations,
          tolerance,
          resolution,
          device,
          region,
          density,
          onDispatch,
          onProgress: progress.listener,
          onIteration: (s) => {
            last = s;
          },
        }),
      );
    let ran: Awaited<ReturnType<typeof cvt>>;
    try {
      ran = await cvt();
    } finally {
      progress.close(); // its timer would keep the process alive after an error
    }
    const { value: result, events } = ran;
    const computed = performance.now();
    const frame = input.frame;
    await writeFile(frame.withGeometry(result.sites.rename(frame.geometryName)), output);
    if (cellsPath) await writeFile(result.cells, cellsPath);
    if (plot) await writePlot(plot, result.cells.geometry, result.sites);
    const done = performance.now();

    const ms = (a: number, b: number) => `${(b - a).toFixed(0)} ms`;
    io.out(`ran ${describeRun(events)}\n`);
    io.out(
      `${method} (${mode}): ${result.iterations} iterations, ${result.evaluations} evaluations, F = ${last.energy.toPrecision(6)}, ${result.converged ? 'converged' : 'not converged'}; read ${ms(started, loaded)}, cvt ${ms(loaded, computed)}, write ${ms(computed, done)}\n`,
    );
    io.out(
      `wrote ${resolve(output)}${cellsPath ? ` and ${resolve(cellsPath)}` : ''}${plot ? ` and ${resolve(plot)}` : ''}\n`,
    );
    return 0;
  },
};
